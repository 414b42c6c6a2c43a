/**
 * The engines of a Node process (tests, benchmarks): every engine of the table that runs in
 * JavaScript or WebAssembly, in process. Nothing is loaded until an engine's first call.
 */
import { lazyScriptEngines } from "../../engines/lazy";
import { createPdfLibEngine } from "../../engines/pdflib/engine";
import type { EngineInstances } from "../../engines/registry";
import { nodeExifToolEngine } from "./exiftool";
import { nodeFfmpegEngine } from "./ffmpeg";
import { nodeFontSource, nodeImageMagickEngine } from "./imagemagick";
import { nodePdfiumEngine } from "./pdfium";
import { nodeResvgEngine } from "./resvg";
import { nodeSevenZipEngine } from "./sevenzip";
import { nodeTesseractEngine } from "./tesseract";
import { nodePandocEngine } from "./pandoc";

/** In-process engines for Node; `only` restricts them to these names (e.g. to test routing). */
export function nodeEngines(only?: string[]): EngineInstances {
  const imagemagick = nodeImageMagickEngine();
  const all: EngineInstances = {
    cloudflare: {},
    pdflib: createPdfLibEngine({ fonts: nodeFontSource() }),
    pdfium: nodePdfiumEngine(),
    imagemagick,
    resvg: nodeResvgEngine({ encoder: imagemagick }),
    exiftool: nodeExifToolEngine(),
    ffmpeg: nodeFfmpegEngine(),
    "7z": nodeSevenZipEngine(),
    tesseract: nodeTesseractEngine(),
    "pandoc-wasm": nodePandocEngine(),
    ...lazyScriptEngines(),
  };
  return only ? Object.fromEntries(Object.entries(all).filter(([k]) => only.includes(k))) : all;
}
