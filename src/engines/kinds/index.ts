/**
 * Engine kinds: the interfaces operations call, one per family of work (DESIGN.md principle 2,
 * "engine interfaces sized to the operations"). Each kind's interface, with the request, answer and
 * budget shapes operations need for it, is `kinds/<kind>.ts`, named after the kind, never after an
 * engine; engine folders import their kind from here, never the other way round. Beside them: the
 * pdf kind's page-list notation (pdf-pages.ts) and which OCR row reads which language
 * (ocr-languages.ts). Every engine in the table (registry.ts) implements exactly one kind; several
 * engines of one kind are interchangeable behind it, and routing (routing.ts) picks among them.
 *
 * Engine calls answer with data, never with thrown classes, because most engines sit behind an RPC
 * boundary (service binding, container HTTP) where class identity is lost (principle 4):
 * `EngineResult` (errors.ts). Operations turn a result back into a TaskError in one place
 * (operations/kit.ts `engineCall`).
 */
import type { ArchiveEngine } from "./archive";
import type { CadEngine } from "./cad";
import type { CommandEngine } from "./command";
import type { EbookEngine } from "./ebook";
import type { FontEngine } from "./font";
import type { ImageEngine } from "./image";
import type { MediaEngine } from "./media";
import type { MetadataEngine } from "./metadata";
import type { OcrEngine } from "./ocr";
import type { OfficeEngine } from "./office";
import type { PdfEngine } from "./pdf";
import type { VectorEngine } from "./vector";
import type { WebEngine } from "./web";

/**
 * The platform itself (engine "cloudflare"): import/export operations need no engine object, only
 * the Worker's fetch, R2 and signing. An empty marker so routing treats them like every other row.
 */
export type PlatformEngine = Record<string, never>;

/** Kind name → the interface an engine of that kind implements. */
export interface EngineKinds {
  /** Images in, images out (convert, thumbnail, watermark, optimize); the request vocabulary is CloudConvert's options. */
  image: ImageEngine;
  /** PDF page operations, encryption, watermarks and rasterizing; an engine implements the methods it offers. */
  pdf: PdfEngine;
  /** Metadata read and write (ExifTool's property names). */
  metadata: MetadataEngine;
  /** Office documents (LibreOffice in the native engine). */
  office: OfficeEngine;
  /** The `command` operation's command lines (ImageMagick / GraphicsMagick in the native engine). */
  command: CommandEngine;
  /** Audio and video (ffmpeg in WebAssembly or natively): convert, thumbnail, watermark and ffmpeg/ffprobe command lines. */
  media: MediaEngine;
  /** Web pages (a URL or HTML) rendered to PDF or images by a browser (Chrome on Browser Rendering). */
  web: WebEngine;
  /** Archives written and read (7-Zip in WebAssembly): the archive operation and extraction by convert. */
  archive: ArchiveEngine;
  /** Text recognised on page images, word by word with boxes (tesseract in WebAssembly or natively): pdf/ocr and searchable PDFs from images. */
  ocr: OcrEngine;
  /** Fonts converted between TrueType, OpenType, WOFF, WOFF2, EOT and SVG fonts (fontTools in the native engine). */
  font: FontEngine;
  /** E-books converted between calibre's formats (calibre in the native engine). */
  ebook: EbookEngine;
  /** CAD drawings (DXF) rendered to PDF, SVG, EPS, EMF, WMF and images (Inkscape in the native engine). */
  cad: CadEngine;
  /** Vector drawings (svg, eps, emf, cdr, …) converted by Inkscape in the native engine (issue 33). */
  vector: VectorEngine;
  /** Import and export on the platform (no engine object). */
  platform: PlatformEngine;
}

/** One of the kind names. */
export type EngineKind = keyof EngineKinds;

/**
 * The methods of each kind's interface, for the RPC seam (engines/remote.ts and the shared engine-Worker
 * entry wasm/entry.ts): only these cross a binding; `info` answers {engineVersion, wasmMemoryBytes}.
 */
export const KIND_METHODS = {
  image: ["run", "info"],
  pdf: [
    "merge",
    "split",
    "extract",
    "rotate",
    "encrypt",
    "decrypt",
    "watermark",
    "rasterize",
    "pdfa",
    "pdfx",
    "optimize",
    "pageFrames",
    "ocr",
  ],
  metadata: ["read", "write", "info"],
  office: ["convert"],
  command: ["run"],
  media: ["run", "command", "info"],
  web: ["render"],
  archive: ["create", "extract", "info"],
  ocr: ["recognize"],
  font: ["convert"],
  ebook: ["convert"],
  cad: ["convert"],
  vector: ["convert"],
  platform: [],
} as const satisfies { [K in EngineKind]: readonly (keyof EngineKinds[K] & string)[] };
