/**
 * The engine table: every engine this project can run, in one explicit list (DESIGN.md principle 1,
 * like Gotenberg's module list or Miniflare's PLUGINS). A row says what the engine is (name,
 * version), where it runs (placement), which interface it implements (kind, kinds/index.ts), what it
 * offers (operations, optionally restricted to format pairs), how large an input it takes (budget)
 * and which CloudConvert engine names it stands in for when a task pins one (aliases).
 *
 * Row order is the default routing priority among engines of one kind (routing.ts); a deployment
 * reorders per operation with ENGINE_ORDER. Adding an engine is one folder under src/engines/ plus
 * one row here (README "Adding an engine").
 *
 * Operations read the formats engines claim from here (the lists below the table), never from an
 * engine's folder.
 */
import { DEFAULT_EXIFTOOL_BUDGET } from "./exiftool/budget";
import { EXIFTOOL_ENGINE } from "./exiftool/version";
import { CHROME_ENGINE } from "./chrome/version";
import { DEFAULT_MEDIA_BUDGET } from "./ffmpeg/budget";
import { FFMPEG_ENGINE } from "./ffmpeg/version";
import { DEFAULT_IMAGE_BUDGET } from "./imagemagick/budget";
import { IMAGEMAGICK_ENGINE } from "./imagemagick/version";
import type { EngineKind, EngineKinds } from "./kinds";
import type { ImageFormat } from "./kinds/image";
import { DEFAULT_PDF_BUDGET } from "./pdflib/budget";
import { PDFLIB_ENGINE } from "./pdflib/version";
import { DEFAULT_RASTER_BUDGET, PDFIUM_ENGINE } from "./pdfium/types";
import { ARCHIVE_INPUTS, ARCHIVE_OUTPUTS, NATIVE_ARCHIVE_CONVERSIONS, NATIVE_ARCHIVE_CREATES } from "./kinds/archive";
import { VECTOR_INPUTS, VECTOR_ODD_INPUTS, VECTOR_OUTPUTS, VECTOR_RASTER_OUTPUTS } from "./kinds/vector";
import { DEFAULT_ARCHIVE_BUDGET } from "./sevenzip/budget";
import { SEVENZIP_ENGINE } from "./sevenzip/version";
import { DEFAULT_TESSERACT_BUDGET } from "./tesseract/types";
import { TESSERACT_ENGINE } from "./tesseract/version";
import { READABLE_FORMATS, SVG_OUTPUTS, WRITABLE_FORMATS } from "./imagemagick/formats";
import { IMAGE_PDF_INPUTS } from "./pdflib/images";
import { FONT_INPUTS, FONT_OUTPUTS, FONT_PAIRS } from "../../native-protocol/font";
import { DJVU_OUTPUTS, OFFICE_MAX_BYTES } from "../../native-protocol/office";
import { EBOOK_INPUTS, EBOOK_OUTPUTS, EBOOK_PAIRS } from "../../native-protocol/ebook";
import { CAD_INPUTS, CAD_OUTPUTS, CAD_PAIRS, CAD_RASTER_OUTPUTS } from "../../native-protocol/cad";
import { NATIVE_RASTER_MAX_PAGE_PIXELS } from "../../native-protocol/pdf";
import { DEFAULT_DXF_BUDGET } from "./dxf/budget";
import { DXF_ENGINE } from "./dxf/version";
import { DEFAULT_FONT_BUDGET } from "./fonteditor/budget";
import { FONTEDITOR_PAIRS } from "./fonteditor/formats";
import { FONTEDITOR_ENGINE } from "./fonteditor/version";
import { DEFAULT_SVG_BUDGET } from "./resvg/budget";
import { DEFAULT_SHEETJS_BUDGET } from "./sheetjs/budget";
import { SHEETJS_INPUTS, SHEETJS_PAIRS } from "./sheetjs/formats";
import { SHEETJS_ENGINE } from "./sheetjs/version";
import { RESVG_OUTPUTS } from "./resvg/formats";
import { DEFAULT_PANDOC_BUDGET } from "./pandoc/budget";
import { PANDOC_WASM_DOCUMENT_PAIRS, PANDOC_WASM_EBOOK_PAIRS } from "./pandoc/formats";
import { PANDOC_WASM_ENGINE } from "./pandoc/version";
import { RESVG_ENGINE } from "./resvg/version";
import {
  RAW_INPUTS,
  NATIVE_IMAGE_INPUTS,
  NATIVE_IMAGE_EXTRA_PAIRS,
  NATIVE_IMAGE_OUTPUTS,
  NATIVE_IMAGE_MAX_BYTES,
  NATIVE_EBOOK_MAX_BYTES,
  NATIVE_CAD_MAX_BYTES,
  NATIVE_COMMAND_MAX_BYTES,
  NATIVE_DJVU_MAX_BYTES,
  NATIVE_FONT_MAX_BYTES,
  NATIVE_MAX_BYTES,
  NATIVE_PANDOC_MAX_BYTES,
  NATIVE_POPPLER_MAX_BYTES,
  NATIVE_RASTER_MAX_BYTES,
  NATIVE_RAW_MAX_BYTES,
  NATIVE_VECTOR_MAX_BYTES,
  NATIVE_XCF_MAX_BYTES,
  NATIVE_STREAM_MAX_BYTES,
  NATIVE_TIFF_MAX_BYTES,
  nativeRow,
  OFFICE_CONVERSIONS,
  OFFICE_INPUTS,
  PANDOC_CONVERSIONS,
  POPPLER_PDF_OUTPUTS,
  POPPLER_PS_OUTPUTS,
} from "./native/rows";

/** A (input_format → output_format) pair; `*` means any. */
export interface FormatPair {
  input: string;
  output: string;
}

/**
 * Where an engine runs: inside the api Worker's isolate ("in-worker"), in its own engine Worker
 * behind a service binding ("engine-worker", its own 64 MiB bundle and 128 MB isolate), in the
 * container-backed native engine ("native"), or only in a browser ("browser").
 */
export type Placement = "in-worker" | "engine-worker" | "native" | "browser";

/** One row of the engine table. */
export interface EngineRow {
  /** Engine name as tasks report it (`engine`), e.g. "pdflib". */
  name: string;
  /** Version reported as `engine_version` when the engine does not say otherwise at run time. */
  version: string;
  kind: EngineKind;
  placement: Placement;
  /**
   * Operations this engine offers for its kind (absent: every operation of its kind, as the platform row runs
   * every import and export, the stores' too); `formats` (optional) narrows them all to these pairs, `formatsOf`
   * (optional) one operation further (pdflib's convert: images → pdf only).
   */
  offers: {
    operations?: readonly string[];
    formats?: readonly FormatPair[];
    formatsOf?: Readonly<Record<string, readonly FormatPair[]>>;
    /**
     * Pairs the engine runs only for a task that pins it (its name or an alias), never by default: another row is
     * the default for them, yet CloudConvert's engine of the same name runs them too (issue 44: html → docx with
     * `engine: "office"` is LibreOffice Writer's, while pandoc stays the default). Not listed by GET /v2/operations.
     */
    pinnedFormats?: readonly FormatPair[];
    /**
     * Pairs the engine runs only after every other engine that offers them (issue 47): it converts them, but another
     * row's output is more faithful (pandoc's epub beside calibre's). Listed by GET /v2/operations like `formats`.
     */
    fallbackFormats?: readonly FormatPair[];
  };
  /**
   * Largest single input in bytes; routing skips the engine for larger declared inputs. A rasterizer
   * also says how many pixels it renders a page to (`maxPagePixels`), which pdf/ocr sizes its pages by.
   * An engine that takes streamed inputs (the native media row, issue 35) says from which size on
   * (`streamOver`): larger inputs reach it as streams where the operation reads them with
   * operations/kit.ts `readInputOrStream`, and are refused (OVER_BUDGET) where it reads bytes. An engine that reads
   * its input by ranges (issue 49: the WebAssembly ExifTool's metadata) says up to which size (`rangeMaxBytes`): an
   * operation that reads ranges (its handler's `readsRanges`) is routed to it by that size, and `maxBytes` then bounds
   * what it reads, not the file.
   */
  budget: { maxBytes: number; maxPagePixels?: number; streamOver?: number; rangeMaxBytes?: number };
  /** CloudConvert engine names (contract §6 `engine`) a pin may use for this engine's work. */
  aliases: readonly string[];
}

/**
 * The vector pairs (issue 33): every drawing Inkscape reads → every vector and raster output it writes
 * (a format to itself, svg → svg or emf → emf, is a re-save, as CloudConvert lists "+ same"), and svg, svgz,
 * emf → odd (an OpenDocument Drawing of the drawing as SVG, PNG fallback).
 */
const VECTOR_PAIRS: readonly FormatPair[] = [
  ...VECTOR_INPUTS.flatMap((input) =>
    [...VECTOR_OUTPUTS, ...VECTOR_RASTER_OUTPUTS].map((output) => ({ input, output })),
  ),
  ...VECTOR_ODD_INPUTS.map((input) => ({ input, output: "odd" })),
];

/** The pairs the dxf row converts: dxf → svg and the raster outputs resvg draws (CAD_RASTER_OUTPUTS). */
const DXF_PAIRS: readonly FormatPair[] = ["svg", ...CAD_RASTER_OUTPUTS].map((output) => ({ input: "dxf", output }));

/**
 * False for an image → pdf pair of the images pdf-lib embeds (pdflib/images.ts IMAGE_PDF_INPUTS): those are
 * operations/pdf/from-images.ts's — pdf-lib's, and over its budget the libtiff row's (issue 49) — not the ImageMagick
 * rows', which would write one page of a multi-page TIFF.
 */
const notImagePdf = (p: FormatPair) =>
  !(p.output === "pdf" && (IMAGE_PDF_INPUTS as readonly string[]).includes(p.input));

/** The table, in default routing priority. */
export const ENGINES = [
  {
    name: "cloudflare",
    version: "1",
    kind: "platform",
    placement: "in-worker",
    // every platform operation (imports and exports, import/<store> and export/<store> of src/stores/ too):
    // the operation table lists them, so the engine table need not know the stores
    offers: {},
    budget: { maxBytes: Number.MAX_SAFE_INTEGER },
    aliases: [],
  },
  {
    // resvg in WebAssembly (issue 33): svg → png drawn with the shipped faces, other raster outputs re-encoded by
    // ImageMagick; before ImageMagick's MSVG, which misses Inkscape's pixels (test/engines-heavy/resvg.test.ts)
    name: RESVG_ENGINE.name,
    version: RESVG_ENGINE.version,
    kind: "image",
    placement: "engine-worker",
    offers: {
      operations: ["convert", "thumbnail"],
      // issue 47: svgz too, inflated within the SVG budget (resvg/engine.ts)
      formats: ["svg", "svgz"].flatMap((input) => RESVG_OUTPUTS.map((output) => ({ input, output }))),
    },
    budget: { maxBytes: DEFAULT_SVG_BUDGET.maxBytes },
    aliases: ["rsvg", "librsvg"],
  },
  {
    name: IMAGEMAGICK_ENGINE.name,
    version: IMAGEMAGICK_ENGINE.version,
    kind: "image",
    placement: "engine-worker",
    // only the inputs the WASM build reads and the outputs it writes (formats.ts): HEIC output, tga and jp2 are the
    // native rows'; camera raws by the build's LibRaw up to its memory budget (imagemagick/raw.ts), larger ones the
    // native LibRaw's
    offers: {
      operations: ["convert", "thumbnail", "watermark", "optimize"],
      formats: READABLE_FORMATS.flatMap((input) => WRITABLE_FORMATS.map((output) => ({ input, output }))).filter(
        notImagePdf,
      ),
    },
    budget: { maxBytes: DEFAULT_IMAGE_BUDGET.maxBytes },
    aliases: ["graphicsmagick", "vips", "libvips"],
  },
  {
    name: PDFLIB_ENGINE.name,
    version: PDFLIB_ENGINE.version,
    kind: "pdf",
    placement: "in-worker",
    // pdf/ocr: the page info and the invisible text layer (the OCR engine recognises, PDFium renders)
    // convert: images → pdf (operations/pdf/from-images.ts) and pdf → pdf, a re-save (operations/pdf/resave.ts, issue 31)
    offers: {
      operations: [
        "merge",
        "pdf/split-pages",
        "pdf/extract-pages",
        "pdf/rotate-pages",
        "pdf/encrypt",
        "pdf/decrypt",
        "watermark",
        "pdf/ocr",
        "convert",
      ],
      formatsOf: { convert: [...IMAGE_PDF_INPUTS, "pdf"].map((input) => ({ input, output: "pdf" })) },
    },
    budget: { maxBytes: DEFAULT_PDF_BUDGET.maxBytes },
    aliases: ["qpdf", "poppler", "pdftk", "mupdf", "mutool", "cpdf"],
  },
  {
    name: PDFIUM_ENGINE.name,
    version: PDFIUM_ENGINE.version,
    kind: "pdf",
    placement: "in-worker",
    // rasterizing: pdf → images (not pdf → pdf, which is pdf-lib's re-save)
    offers: {
      operations: ["convert", "thumbnail"],
      // bmp, gif, tiff, ico, psd (issue 32): re-encoded from the page's PNG by the image engine
      formats: ["png", "jpg", "webp", "bmp", "gif", "tiff", "ico", "psd"].map((output) => ({ input: "pdf", output })),
    },
    budget: { maxBytes: DEFAULT_RASTER_BUDGET.maxBytes, maxPagePixels: DEFAULT_RASTER_BUDGET.maxPagePixels },
    aliases: ["poppler", "mupdf", "pdftocairo"],
  },
  {
    name: EXIFTOOL_ENGINE.name,
    version: EXIFTOOL_ENGINE.version,
    kind: "metadata",
    placement: "engine-worker",
    offers: { operations: ["metadata", "metadata/write"] },
    // issue 49: metadata reads a stored file of any size by ranges, at most maxBytes of it (exiftool/ranged.ts)
    budget: { maxBytes: DEFAULT_EXIFTOOL_BUDGET.maxBytes, rangeMaxBytes: NATIVE_STREAM_MAX_BYTES },
    aliases: [],
  },
  {
    name: FFMPEG_ENGINE.name,
    version: FFMPEG_ENGINE.version,
    kind: "media",
    placement: "engine-worker",
    offers: { operations: ["convert", "thumbnail", "watermark", "command"] },
    budget: { maxBytes: DEFAULT_MEDIA_BUDGET.maxBytes },
    aliases: [],
  },
  {
    // Browser Rendering through the api Worker's BROWSER binding (issue 14)
    name: CHROME_ENGINE.name,
    version: CHROME_ENGINE.version,
    kind: "web",
    placement: "in-worker",
    offers: { operations: ["capture-website", "convert"] },
    budget: { maxBytes: 16 * 1024 * 1024 },
    aliases: ["chromium", "puppeteer"],
  },
  {
    // 7-Zip in WebAssembly (issue 15): archive writes, and extraction/repacking by convert from an archive
    name: SEVENZIP_ENGINE.name,
    version: SEVENZIP_ENGINE.version,
    kind: "archive",
    placement: "engine-worker",
    offers: {
      operations: ["archive", "convert"],
      formats: [
        ...ARCHIVE_OUTPUTS.map((output) => ({ input: "*", output })),
        ...ARCHIVE_INPUTS.flatMap((input) => [...ARCHIVE_OUTPUTS, "files"].map((output) => ({ input, output }))),
      ],
      // `archive` takes files of any format; convert only the archives 7-Zip in WebAssembly reads (issue 44: the "*"
      // pairs made it claim lz, lzo, rz, alz, arc and tar.lzo → zip too, ahead of archive-native, and end OPEN_FAILED)
      formatsOf: {
        convert: ARCHIVE_INPUTS.flatMap((input) => [...ARCHIVE_OUTPUTS, "files"].map((output) => ({ input, output }))),
      },
    },
    budget: { maxBytes: DEFAULT_ARCHIVE_BUDGET.maxBytes },
    aliases: ["archivetool", "7zip", "7-zip", "p7zip"],
  },
  {
    // tesseract in WebAssembly (issue 17): eng and fra (kinds/ocr-languages.ts); other languages answer UNSUPPORTED and go native
    name: TESSERACT_ENGINE.name,
    version: TESSERACT_ENGINE.version,
    kind: "ocr",
    placement: "engine-worker",
    offers: { operations: ["pdf/ocr", "convert"] },
    budget: { maxBytes: DEFAULT_TESSERACT_BUDGET.maxBytes },
    aliases: ["ocr", "tesseract.js"],
  },
  {
    // SheetJS CE in JavaScript (issue 47): spreadsheets among csv, tsv, xls, xlsx, xlsm, ods, et, numbers → csv, xlsx,
    // xls, ods, html (sheetjs/formats.ts), in the api Worker and the browser; before LibreOffice, which keeps pdf/images
    // and takes what this row hands off (over its budget, encrypted, unreadable by SheetJS)
    name: SHEETJS_ENGINE.name,
    version: SHEETJS_ENGINE.version,
    kind: "office",
    placement: "in-worker",
    offers: { operations: ["convert"], formats: SHEETJS_PAIRS },
    budget: { maxBytes: DEFAULT_SHEETJS_BUDGET.maxBytes },
    aliases: ["xlsx"],
  },
  // The native engine (container/, issue 12): after the WebAssembly rows, so it takes what they cannot.
  {
    ...nativeRow("ghostscript"),
    offers: { operations: ["pdf/a", "pdf/x", "optimize"], formats: [{ input: "pdf", output: "pdf" }] },
    // issue 49: inputs over 64 MiB (a 1 GB scan) stream to Ghostscript's folder and its outputs back, up to the largest
    // import (the PDF family's limit, as qpdf's): Ghostscript and qpdf read the PDF from disk by its cross-reference
    // table, their memory bounded by the tools' RLIMIT_AS, not the file's size; the time by the task's timeout
    budget: { maxBytes: NATIVE_STREAM_MAX_BYTES, streamOver: NATIVE_MAX_BYTES },
    aliases: ["gs"],
  },
  {
    ...nativeRow("qpdf"),
    offers: {
      operations: [
        "merge",
        "pdf/split-pages",
        "pdf/extract-pages",
        "pdf/rotate-pages",
        "pdf/encrypt",
        "pdf/decrypt",
        "watermark",
        "convert",
      ],
      // convert pdf → pdf: the re-save (operations/pdf/resave.ts), as an extract of every page
      formatsOf: { convert: [{ input: "pdf", output: "pdf" }] },
    },
    // issue 49: every operation streams inputs over 64 MiB (a 1 GB scan) to qpdf's folder and its outputs back: the
    // native twin of each of pdf-lib's, which hands it what is over its budget (OVER_BUDGET); a watermark is drawn by
    // pdf-lib on blank pages of the document's frames and laid on by qpdf (operations/pdf/watermark.ts)
    budget: { maxBytes: NATIVE_STREAM_MAX_BYTES, streamOver: NATIVE_MAX_BYTES },
    aliases: [],
  },
  {
    ...nativeRow("libreoffice"),
    offers: {
      operations: ["convert", "thumbnail", "watermark"],
      formats: [
        ...OFFICE_INPUTS.flatMap((input) => ["pdf", "png", "jpg", "webp"].map((output) => ({ input, output }))),
        // issue 32: office ↔ office, and pdf → docx/doc/odt/rtf/emf/wmf
        ...OFFICE_CONVERSIONS,
      ],
      // HTML loaded into Writer (as html → doc): pandoc's by default, Writer's when the task pins office/libreoffice
      pinnedFormats: ["docx", "odt", "rtf", "txt"].map((output) => ({ input: "html", output })),
    },
    // issue 49: documents over 64 MiB (a 200 MB docx of pictures) stream to LibreOffice's folder and its outputs back,
    // up to OFFICE_MAX_BYTES (1 GiB: the most a zipped document may expand to; native-protocol/office.ts says why)
    budget: { maxBytes: OFFICE_MAX_BYTES, streamOver: NATIVE_MAX_BYTES },
    // pdftron-pdf2word: CloudConvert's pdf → docx engine; a pin on it is served by LibreOffice (with a warning)
    aliases: ["office", "openoffice", "pdftron-pdf2word", "pdftron"],
  },
  {
    // pandoc in WebAssembly (issue 47; its own engine Worker, wasm/pandoc, and the browser build). The native pandoc's
    // markup pairs (but → pdf) come here first: the same converter, pandoc 3.10 against Debian's 2.17, held to the
    // native pandoc's text by test/engines-heavy/pandoc-wasm.test.ts. Documents LibreOffice lays out (docx, odt, rtf;
    // txt into a document) stay LibreOffice's, whose row is above; e-book pairs stay calibre's (fallbackFormats)
    name: PANDOC_WASM_ENGINE.name,
    version: PANDOC_WASM_ENGINE.version,
    kind: "office",
    placement: "engine-worker",
    offers: {
      operations: ["convert"],
      formats: [...PANDOC_CONVERSIONS.filter((p) => p.output !== "pdf"), ...PANDOC_WASM_DOCUMENT_PAIRS],
      fallbackFormats: PANDOC_WASM_EBOOK_PAIRS,
    },
    budget: { maxBytes: DEFAULT_PANDOC_BUDGET.maxBytes },
    aliases: ["pandoc"],
  },
  {
    // poppler-utils (issue 32): pdf → txt (pdftotext), html (pdftohtml), svg/eps/ps (pdftocairo); a pdf2htmlex pin
    // is served by pdftohtml, with a warning
    ...nativeRow("poppler"),
    offers: {
      operations: ["convert"],
      formats: [
        ...POPPLER_PDF_OUTPUTS.map((output) => ({ input: "pdf", output })),
        // issue 34: PostScript distilled by Ghostscript first
        ...POPPLER_PS_OUTPUTS.map((output) => ({ input: "ps", output })),
      ],
    },
    // issue 49: documents over 64 MiB stream to poppler's folder and its outputs back, up to 1 GiB (rows.ts says why)
    budget: { maxBytes: NATIVE_POPPLER_MAX_BYTES, streamOver: NATIVE_MAX_BYTES },
    aliases: ["pdftotext", "pdftohtml", "pdftocairo", "pdf2htmlex", "mupdf"],
  },
  {
    // poppler's pdftoppm (issue 49, container/engines/poppler-raster.ts): pdf → images and thumbnail with PDFium's
    // semantics, for what PDFium hands on (OVER_BUDGET: a page over its 2.2 MP, such as A4 at 300 ppi; a PDF over its
    // 12 MiB); the PDF streamed to its folder over 64 MiB and the page PNGs answered from disk, up to 1 GiB (rows.ts)
    ...nativeRow("poppler-raster"),
    offers: {
      operations: ["convert", "thumbnail"],
      formats: ["png", "jpg", "webp", "bmp", "gif", "tiff", "ico", "psd"].map((output) => ({ input: "pdf", output })),
    },
    budget: {
      maxBytes: NATIVE_RASTER_MAX_BYTES,
      streamOver: NATIVE_MAX_BYTES,
      maxPagePixels: NATIVE_RASTER_MAX_PAGE_PIXELS,
    },
    // PDFium's aliases: a task pinned to CloudConvert's pdf → image engines still reaches this row when PDFium hands on
    aliases: ["poppler", "mupdf", "pdftocairo"],
  },
  {
    // Debian's pandoc (issue 32): markup ↔ documents; after libreoffice, so txt → html stays LibreOffice's
    ...nativeRow("pandoc"),
    offers: { operations: ["convert"], formats: PANDOC_CONVERSIONS },
    // issue 49: pandoc holds the whole document, ~200× its size: 8 MiB fits the tool's 2 GiB (rows.ts: measured), so
    // nothing streams at the default threshold; under a lowered NATIVE_STREAM_BYTES its input reaches pandoc as a file
    budget: { maxBytes: NATIVE_PANDOC_MAX_BYTES, streamOver: NATIVE_PANDOC_MAX_BYTES },
    aliases: [],
  },
  {
    // DjVuLibre (issue 32): djvu → pdf (ddjvu), one png/jpg per page, and a bundled re-save (container/engines/djvulibre.ts)
    ...nativeRow("djvulibre"),
    offers: { operations: ["convert"], formats: DJVU_OUTPUTS.map((output) => ({ input: "djvu", output })) },
    // issue 49: DjVus over 64 MiB stream to DjVuLibre's folder and its outputs back, up to 1 GiB (rows.ts says why)
    budget: { maxBytes: NATIVE_DJVU_MAX_BYTES, streamOver: NATIVE_MAX_BYTES },
    aliases: ["ddjvu", "djvu"],
  },
  {
    // PDF → DXF (issue 32): Inkscape's PDF import, every object a path, the R14 exporter, one DXF per page
    // (container/engines/pdf-dxf.ts)
    ...nativeRow("inkscape-pdf"),
    offers: { operations: ["convert"], formats: [{ input: "pdf", output: "dxf" }] },
    // issue 49: PDFs over 64 MiB stream to Inkscape's folder and the DXFs back, up to what Inkscape holds (rows.ts)
    budget: { maxBytes: NATIVE_VECTOR_MAX_BYTES, streamOver: NATIVE_MAX_BYTES },
    aliases: ["inkscape"],
  },
  {
    // libtiff's tiff2pdf (issue 49): a TIFF scan over pdf-lib's budget → pdf, its strips copied page by page (native
    // ImageMagick's policy refuses its PDF coder); before imagemagick-native, which takes what it hands on (a resize).
    // Reached by image → pdf's streamed handler (operations/pdf/from-images.ts imagePdfStreamed)
    ...nativeRow("libtiff"),
    offers: {
      operations: ["convert"],
      formats: [
        { input: "tiff", output: "pdf" },
        { input: "tif", output: "pdf" },
      ],
    },
    budget: { maxBytes: NATIVE_TIFF_MAX_BYTES, streamOver: NATIVE_MAX_BYTES },
    aliases: ["tiff2pdf"],
  },
  {
    ...nativeRow("imagemagick-native"),
    offers: {
      operations: ["convert", "thumbnail"],
      formats: [
        ...NATIVE_IMAGE_INPUTS.flatMap((input) => NATIVE_IMAGE_OUTPUTS.map((output) => ({ input, output }))).filter(
          notImagePdf,
        ),
        ...NATIVE_IMAGE_EXTRA_PAIRS,
      ],
    },
    // issue 49: convert and thumbnail stream inputs over 64 MiB (a 300 MB scan, a large PSB or PNG) to its folder and
    // their outputs back, up to what its policy can decode (rows.ts NATIVE_IMAGE_MAX_BYTES)
    budget: { maxBytes: NATIVE_IMAGE_MAX_BYTES, streamOver: NATIVE_MAX_BYTES },
    aliases: [],
  },
  {
    // camera raw photos (issue 34): LibRaw demosaics (camera white balance, orientation), native ImageMagick writes
    ...nativeRow("libraw"),
    offers: {
      operations: ["convert", "thumbnail"],
      formats: RAW_INPUTS.flatMap((input) => NATIVE_IMAGE_OUTPUTS.map((output) => ({ input, output }))),
    },
    // issue 49: raws over 64 MiB (a 100 MP medium-format camera's) stream to LibRaw's folder, outputs back (rows.ts)
    budget: { maxBytes: NATIVE_RAW_MAX_BYTES, streamOver: NATIVE_MAX_BYTES },
    aliases: ["dcraw", "ufraw"],
  },
  {
    // GIMP's own images (XCF 2.10, which only GIMP reads): GIMP merges the visible layers, native ImageMagick writes
    ...nativeRow("gimp"),
    offers: {
      operations: ["convert", "thumbnail"],
      formats: NATIVE_IMAGE_OUTPUTS.map((output) => ({ input: "xcf", output })),
    },
    // issue 49: XCFs over 64 MiB stream to GIMP's folder, outputs back (rows.ts NATIVE_XCF_MAX_BYTES)
    budget: { maxBytes: NATIVE_XCF_MAX_BYTES, streamOver: NATIVE_MAX_BYTES },
    aliases: ["gimp"],
  },
  {
    ...nativeRow("native-command"),
    offers: { operations: ["command"] },
    // issue 49: inputs over 64 MiB reach the command's folder as files, its outputs come back from disk (rows.ts)
    budget: { maxBytes: NATIVE_COMMAND_MAX_BYTES, streamOver: NATIVE_MAX_BYTES },
    aliases: ["imagemagick", "graphicsmagick"],
  },
  {
    // Debian's tesseract (issue 17): the languages the WebAssembly build lacks (OCR_LANGUAGES), and pages over its budget
    ...nativeRow("tesseract-native"),
    offers: { operations: ["pdf/ocr", "convert"] },
    budget: { maxBytes: NATIVE_MAX_BYTES },
    aliases: ["tesseract", "ocr", "ocrmypdf"],
  },
  {
    // OCRmyPDF (issue 49, container/engines/ocrmypdf.ts): pdf/ocr of a whole PDF on the native engine's disk, for what
    // the OCR rows' page-by-page path cannot hold (a PDF over pdf-lib's budget, a page over PDFium's): its own handler
    // (operations/pdf/ocr-native.ts, a fallback: tried after the OCR rows), the input streamed over 64 MiB and the
    // searchable PDF streamed back, up to the largest import (the PDF family's limit, as qpdf's: OCRmyPDF works a page
    // at a time from disk)
    ...nativeRow("ocrmypdf"),
    offers: { operations: ["pdf/ocr"], formats: [{ input: "pdf", output: "pdf" }] },
    budget: { maxBytes: NATIVE_STREAM_MAX_BYTES, streamOver: NATIVE_MAX_BYTES },
    aliases: [],
  },
  {
    ...nativeRow("ffmpeg-native"),
    offers: { operations: ["convert", "thumbnail", "watermark", "command"] },
    // issue 35: convert, thumbnail and watermark stream it inputs over 64 MiB (a multi-GB video); issue 49: command too
    // (its inputs to the command's folder as files, its outputs back from disk)
    budget: { maxBytes: NATIVE_STREAM_MAX_BYTES, streamOver: NATIVE_MAX_BYTES },
    aliases: ["ffmpeg"],
  },
  {
    // Debian's exiftool (issue 49, container/engines/exiftool.ts): metadata and metadata/write of files over the
    // WebAssembly ExifTool's budget (its OVER_BUDGET hands the task on here, after it in this table); files over 64 MiB
    // stream to its folder and the written file streams back
    ...nativeRow("exiftool-native"),
    offers: { operations: ["metadata", "metadata/write"] },
    budget: { maxBytes: NATIVE_STREAM_MAX_BYTES, streamOver: NATIVE_MAX_BYTES },
    aliases: ["exiftool"],
  },
  {
    // fonts in JavaScript (issue 47): fonteditor-core in the api Worker and the browser, before fontTools for the
    // pairs it offers (test/engines/font-engine.test.ts holds it to fontTools and fc-scan on every corpus font);
    // WOFF2, TrueType → OpenType and SVG in stay native, and its budget or an MTX-compressed EOT hands off there
    name: FONTEDITOR_ENGINE.name,
    version: FONTEDITOR_ENGINE.version,
    kind: "font",
    placement: "in-worker",
    offers: { operations: ["convert"], formats: FONTEDITOR_PAIRS },
    budget: { maxBytes: DEFAULT_FONT_BUDGET.maxBytes },
    aliases: ["fonteditor-core"],
  },
  {
    // fonts (issue 33): fontTools in the native engine (container/engines/fonts.ts); svg → fonts by FontForge
    ...nativeRow("fonttools"),
    offers: {
      operations: ["convert"],
      formats: FONT_PAIRS,
    },
    // issue 49: bytes, up to the largest real fonts (CJK faces) fontTools decompiles within its memory (rows.ts
    // NATIVE_FONT_MAX_BYTES: no font is over 64 MiB, so nothing streams)
    budget: { maxBytes: NATIVE_FONT_MAX_BYTES },
    aliases: ["fontforge"],
  },
  {
    // e-books (issue 33): calibre's ebook-convert in the native engine (container/engines/calibre.ts)
    ...nativeRow("calibre"),
    // issue 32: and docx/odt/rtf/txt/html/pdf → azw3 epub lrf mobi oeb pdb (EBOOK_DOCUMENT_INPUTS)
    offers: { operations: ["convert"], formats: EBOOK_PAIRS },
    // issue 49: books over 64 MiB (a comic, a scanned PDF) stream to calibre's folder and its output back, up to 1 GiB
    budget: { maxBytes: NATIVE_EBOOK_MAX_BYTES, streamOver: NATIVE_MAX_BYTES },
    aliases: ["ebook-convert"],
  },
  {
    // CAD drawings (issue 33): DXF (and DWG through LibreDWG's DXF) through Inkscape's DXF import and exports in the native engine (container/engines/cad.ts)
    ...nativeRow("inkscape-cad"),
    offers: {
      operations: ["convert"],
      formats: CAD_PAIRS,
    },
    // issue 49: its engine takes files, yet Inkscape's memory bounds a DXF below 64 MiB (rows.ts NATIVE_CAD_MAX_BYTES),
    // so drawings stream only where NATIVE_STREAM_BYTES is lower
    budget: { maxBytes: NATIVE_CAD_MAX_BYTES, streamOver: NATIVE_MAX_BYTES },
    aliases: ["inkscape", "cadconverter"],
  },
  {
    // DXF in JavaScript (issue 47): the npm `dxf` library draws lines, polylines, arcs, circles, ellipses and splines
    // as SVG, and resvg rasterises that SVG; it draws NO text (TEXT, MTEXT… counted in result.warnings), so it comes
    // after Inkscape: the fallback where the native engine is unavailable, and the browser's CAD engine. Not pdf: the
    // edge would only wrap a raster in it (ImageMagick's PDF writer), where Inkscape's PDF keeps vectors and text
    name: DXF_ENGINE.name,
    version: DXF_ENGINE.version,
    kind: "cad",
    placement: "in-worker",
    offers: { operations: ["convert"], formats: DXF_PAIRS },
    budget: { maxBytes: DEFAULT_DXF_BUDGET.maxBytes },
    aliases: [],
  },
  {
    // archives 7-Zip in WebAssembly does not decode (issue 34): lzip, lzop, rzip, unalz, nomarch and Debian's 7-Zip 26
    // in the native engine (container/engines/archive.ts); also tar.lzo from disk images; and (issue 49) zip, 7z and
    // tar → files over the WebAssembly engine's budget, after it in this table
    ...nativeRow("archive-native"),
    // issue 49: and `archive` of files over the WebAssembly 7-Zip's budget (its OVER_BUDGET hands the task on here, after
    // it in this table), each streamed from the store to the native folder, the archive written there and streamed back
    offers: {
      operations: ["convert", "archive"],
      formats: [...NATIVE_ARCHIVE_CONVERSIONS, ...NATIVE_ARCHIVE_CREATES],
      formatsOf: { convert: NATIVE_ARCHIVE_CONVERSIONS, archive: NATIVE_ARCHIVE_CREATES },
    },
    // issue 49: archives over 64 MiB travel streamed both ways (a 1.5 GB zip → files), up to the streamed limit
    budget: { maxBytes: NATIVE_STREAM_MAX_BYTES, streamOver: NATIVE_MAX_BYTES },
    aliases: ["archivetool", "lzip", "lzop", "rzip", "unalz", "nomarch"],
  },
  {
    // Inkscape 1.2 (issue 33): vector drawings; eps/ps through Ghostscript, cgm through LibreOffice Draw, sk/sk1 through
    // the engine's own Skencil/sK1 reader (container/engines/inkscape.ts, sketch/). svg → raster is resvg's first (its row above), this one takes pins and the rest
    ...nativeRow("inkscape"),
    offers: { operations: ["convert"], formats: VECTOR_PAIRS },
    // issue 49: drawings over 64 MiB (an Illustrator or EPS file of large pictures) stream to Inkscape's folder and the
    // output back, up to what Inkscape holds (rows.ts NATIVE_VECTOR_MAX_BYTES)
    budget: { maxBytes: NATIVE_VECTOR_MAX_BYTES, streamOver: NATIVE_MAX_BYTES },
    aliases: [],
  },
] as const satisfies readonly EngineRow[];

type Rows = (typeof ENGINES)[number];

/** Name of an engine in the table. */
export type EngineName = Rows["name"];

/** The engine objects a host provides, by name, each typed by its row's kind. Absent = not reachable here. */
export type EngineInstances = { [R in Rows as R["name"]]?: EngineKinds[R["kind"]] };

/** The row of engine `name`, or undefined. */
export function engineRow(name: string): EngineRow | undefined {
  return ENGINES.find((e) => e.name === name);
}

/**
 * The (input, output) pairs the rows of `kind` (of `placement`, when given) list for `operation` (a row's
 * `formatsOf[operation]`, else its `formats`), once each, in row order. A row that lists no pairs adds none: it takes whatever its handler offers. An
 * operation's catalogue reads its rows here, so a row with new inputs (a native engine of an existing kind) needs no
 * edit of the operation.
 */
export function listedPairs(kind: EngineKind, operation: string, placement?: EngineRow["placement"]): FormatPair[] {
  const seen = new Set<string>();
  const out: FormatPair[] = [];
  for (const row of ENGINES as readonly EngineRow[]) {
    if (row.kind !== kind || (row.offers.operations && !row.offers.operations.includes(operation))) continue;
    if (placement && row.placement !== placement) continue;
    for (const p of [
      ...(row.offers.formatsOf?.[operation] ?? row.offers.formats ?? []),
      ...(row.offers.fallbackFormats ?? []),
    ]) {
      const key = `${p.input}>${p.output}`;
      if (!seen.has(key)) (seen.add(key), out.push(p));
    }
  }
  return out;
}

// The formats the rows above claim, for operations that list format pairs in their catalogue entry or
// check a format before routing. Operations read them here, never from an engine's folder, so adding
// an engine touches no operation file.

/** Image formats the WebAssembly image engine (row "imagemagick") reads. */
export const IMAGE_INPUTS = READABLE_FORMATS;
/** Image formats the WebAssembly image engine (row "imagemagick") writes. */
export const IMAGE_OUTPUTS = WRITABLE_FORMATS;
/** Raster outputs an SVG input is converted to (rows "resvg" and "imagemagick" rasterise SVG). */
export const IMAGE_SVG_OUTPUTS: readonly ImageFormat[] = [...new Set([...RESVG_OUTPUTS, ...SVG_OUTPUTS])];
/** Image formats the native image engine (row "imagemagick-native") reads through convert and thumbnail. */
export { NATIVE_IMAGE_INPUTS, NATIVE_IMAGE_EXTRA_PAIRS };
/** Image formats the native image engine (row "imagemagick-native") writes through convert and thumbnail. */
export { NATIVE_IMAGE_OUTPUTS };
/** Vector drawings the vector engine (row "inkscape") reads, and the pairs it converts. */
export { VECTOR_INPUTS, VECTOR_PAIRS };
/** Camera raw formats the native LibRaw engine (row "libraw") reads through convert and thumbnail. */
export { RAW_INPUTS };
/** Image inputs only native rows read (issue 34: ppm, tga, jp2 by ImageMagick; the camera raws by LibRaw; xcf by GIMP). */
export const NATIVE_ONLY_IMAGE_INPUTS = [
  ...new Set(
    listedPairs("image", "convert", "native")
      // images → pdf are pdf-lib's pairs, the libtiff row's (tif, tiff → pdf) only over its budget
      .filter((p) => p.output !== "pdf" || !(IMAGE_PDF_INPUTS as readonly string[]).includes(p.input))
      .map((p) => p.input as ImageFormat),
  ),
].filter((f) => !READABLE_FORMATS.includes(f));
/** Office formats the office engine (row "libreoffice") reads. */
export { OFFICE_INPUTS };
/** Spreadsheet formats the SheetJS engine (row "sheetjs") reads; it writes each of them as html (every sheet a table). */
export { SHEETJS_INPUTS };
/** Largest SVG in bytes an svgz may inflate to (the resvg row's budget, which the Chrome route of svgz keeps too). */
export const SVG_MAX_BYTES = DEFAULT_SVG_BUDGET.maxBytes;
/** Image formats convert → pdf takes (row "pdflib"'s `formatsOf.convert`; aliases jpeg and tif included, as extensions come). */
export { IMAGE_PDF_INPUTS };
/** Font formats the font engine (row "fonttools") reads and writes (native-protocol/font.ts). */
export { FONT_INPUTS, FONT_OUTPUTS, FONT_PAIRS };
/** E-book formats the e-book engine (row "calibre") reads and writes, and the pairs it converts (native-protocol/ebook.ts). */
export { EBOOK_INPUTS, EBOOK_OUTPUTS, EBOOK_PAIRS };
/** CAD formats the CAD engine (row "inkscape-cad") reads and writes, and its pairs (native-protocol/cad.ts). */
export { CAD_INPUTS, CAD_OUTPUTS, CAD_PAIRS };

/**
 * The pairs office-kind rows (libreoffice, poppler, pandoc, djvulibre) convert (issue 32): what convert between
 * documents (operations/office/convert.ts) lists. → pdf and → images of the formats LibreOffice reads (and of pdf) have
 * their own handlers (office/index.ts, via-pdf.ts, pdf/rasterize.ts); those of other inputs (djvu, rst, tex) are here.
 */
export const DOCUMENT_PAIRS: readonly FormatPair[] = (() => {
  const seen = new Set<string>();
  const out: FormatPair[] = [];
  for (const row of ENGINES as readonly EngineRow[]) {
    if (row.kind !== "office") continue;
    for (const f of [...(row.offers.formats ?? []), ...(row.offers.fallbackFormats ?? [])]) {
      const key = `${f.input}>${f.output}`;
      const ownHandler =
        ["pdf", "png", "jpg", "webp"].includes(f.output) &&
        (f.input === "pdf" || (OFFICE_INPUTS as readonly string[]).includes(f.input));
      if (ownHandler || seen.has(key)) continue;
      seen.add(key);
      out.push({ input: f.input, output: f.output });
    }
  }
  return out;
})();
