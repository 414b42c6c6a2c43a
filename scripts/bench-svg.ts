/**
 * SVG → PNG, the WebAssembly renderers side by side (issue 33): resvg (row "resvg") against ImageMagick's
 * MSVG in WebAssembly (row "imagemagick"), both in process, and Inkscape and rsvg-convert run directly, on
 * the corpus's Inkscape SVGs; median of N runs after one warm-up, and each renderer's ink difference from
 * Inkscape's pixels with the shipped faces (test/support/raster-oracle.ts, svg-oracle.ts).
 * Run: `npx tsx scripts/bench-svg.ts [runs]` (default 5).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CORPUS } from "../test/support/corpus";
import { inkDiff, rgb } from "../test/support/raster-oracle";
import { inkscapePng, rsvgPng } from "../test/support/svg-oracle";
import { nodeImageMagickEngine } from "../src/runtime/node/imagemagick";
import { nodeResvgEngine } from "../src/runtime/node/resvg";
import { heldBytes } from "../src/operations/kit";

const RUNS = Number(process.argv[2] ?? 5);
const FILES = ["vector/inkscape-i18n.svg", "vector/inkscape-text-on-path.svg", "vector/inkscape-gradient.svg"];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function time(f: () => Promise<Uint8Array> | Uint8Array): Promise<{ ms: number; png: Uint8Array }> {
  let png = await f(); // warm-up (module compile, faces)
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    png = await f();
    ms.push(performance.now() - t0);
  }
  return { ms: median(ms), png };
}

const imagemagick = nodeImageMagickEngine();
const resvg = nodeResvgEngine({ encoder: imagemagick });
const viaEngine = (e: typeof resvg, input: Uint8Array) => async () => {
  const r = await e.run({ op: "convert", input, inputFormat: "svg", outputFormat: "png", options: {} });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return heldBytes(r.outputs[0].data);
};

for (const rel of FILES) {
  const input = new Uint8Array(readFileSync(join(CORPUS, rel)));
  const ref = rgb(inkscapePng(input));
  const rows = {
    resvg: await time(viaEngine(resvg, input)),
    "imagemagick (wasm)": await time(viaEngine(imagemagick, input)),
    "inkscape (native)": await time(() => inkscapePng(input)),
    "rsvg-convert (native)": await time(() => rsvgPng(input)),
  };
  for (const [name, { ms, png }] of Object.entries(rows)) {
    const d = inkDiff(rgb(png), ref);
    const { width, height } = { width: rgb(png).w, height: rgb(png).h };
    console.log(
      `${rel} ${name}: median ${ms.toFixed(0)} ms, ${width}x${height}, vs inkscape extra ${d.extra.toFixed(3)} missing ${d.missing.toFixed(3)}`,
    );
  }
}
