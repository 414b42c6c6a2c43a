/**
 * The native engine's rows of the engine table (registry.ts): each names the native tool it needs
 * (GET /health of the native engine says which are installed, container/tools.ts) and what it
 * offers. They come after the WebAssembly rows, so routing tries WebAssembly first and hands work
 * over budget (OVER_BUDGET is a hand-off code, routing.ts) to the native engine; operations only
 * native tools do (pdf/a, pdf/x, PDF optimize, office documents, command) route here directly.
 */

import { imageFormatsOf } from "../image-formats";
import type { ImageFormat } from "../../../native-protocol/image";
import { NATIVE_ENGINES, type NativeEngineName, type NativeKindOf } from "../../../native-protocol/engines";

/**
 * Formats LibreOffice opens in Writer (issue 32: each checked on the corpus's office files — MS Works wps, WordPerfect,
 * AbiWord and gzipped AbiWord, HWP 97 (HWP 5 it cannot read), Apple Pages; lwp by its filter, libreoffice-writer's
 * liblwpftlo, with no corpus file).
 */
export const WRITER_INPUTS = [
  "doc",
  "docx",
  "docm",
  "dot",
  "dotx",
  "odt",
  "ott",
  "fodt",
  "rtf",
  "txt",
  "wpd",
  "wps",
  "lwp",
  "abw",
  "zabw",
  "hwp",
  "pages",
  // issue 32: StarWriter 3–5, through LibreOffice's libstaroffice import (test/fixtures/staroffice)
  "sdw",
] as const;
/** Formats LibreOffice opens in Calc (et: WPS Office's spreadsheet, an Excel 97 file; numbers: Apple Numbers 2013+). */
export const CALC_INPUTS = [
  "xls",
  "xlsx",
  "xlsm",
  "xlt",
  "xltx",
  "ods",
  "ots",
  "fods",
  "csv",
  // issue 44: tab-separated text, through the same CSV import (container/office/delimited.ts)
  "tsv",
  "et",
  "numbers",
  // issue 32: StarCalc 3–5 (libstaroffice import)
  "sdc",
] as const;
/** Formats LibreOffice opens in Impress (dps: WPS Office's presentation, a PowerPoint 97 file; key: Apple Keynote 2013+). */
export const IMPRESS_INPUTS = [
  "ppt",
  "pptx",
  "pptm",
  "pps",
  "ppsx",
  "pot",
  "potx",
  "odp",
  "otp",
  "fodp",
  "dps",
  "key",
  // issue 32: StarImpress 3–5 (libstaroffice import); a StarDraw .sda opens in Draw and has only pdf/images
  "sda",
] as const;
/** Formats LibreOffice opens in Draw. */
export const DRAW_INPUTS = ["odg"] as const;

/** Office formats LibreOffice reads (Writer, Calc, Impress, Draw and their templates and flat XML forms). */
export const OFFICE_INPUTS = [...WRITER_INPUTS, ...CALC_INPUTS, ...IMPRESS_INPUTS, ...DRAW_INPUTS] as const;

/**
 * What the libreoffice row writes besides pdf and images, by the kind of document (issue 32; CloudConvert's
 * catalogue lists): LibreOffice's own export filters (container/office/uno_bridge.py EXPORTS), and through its PDF
 * txt/html of presentations (poppler), eps (pdftocairo, one file per page), xps (Ghostscript's xpswrite), swf of
 * presentations (the slides as JPEG frames muxed by ffmpeg: LibreOffice 7 has no Flash export; slides-swf.ts).
 */
export const OFFICE_OUTPUTS = {
  writer: ["doc", "docx", "odt", "rtf", "txt", "html", "xps"],
  calc: ["xls", "xlsx", "ods", "csv", "html", "xps"],
  impress: ["ppt", "pptx", "odp", "html", "txt", "eps", "emf", "xps", "swf"],
  draw: ["odg", "svg", "emf", "wmf", "eps"],
} as const;

/**
 * PDF → editable documents by LibreOffice (issue 32): docx, doc, odt, rtf (pdftohtml's HTML laid out by Writer, chosen
 * over writer_pdf_import by measurement), emf/wmf one file per page and odd (CloudConvert's name for an OpenDocument
 * drawing, written as ODG) by Draw's PDF import.
 */
export const LIBREOFFICE_PDF_OUTPUTS = ["docx", "doc", "odt", "rtf", "emf", "wmf", "odd"] as const;

/**
 * Markup ↔ documents by pandoc (container/engines/pandoc.ts, always --sandbox), the catalogue's pairs: md, rst, tex,
 * html and txt (read as Markdown) in; docx, odt, html, md, rst, rtf, tex, txt out (not a format to itself).
 */
export const PANDOC_CONVERSIONS: readonly { input: string; output: string }[] = [
  ...["docx", "html", "odt", "rst", "rtf", "tex", "txt"].map((output) => ({ input: "md", output })),
  ...["docx", "html", "md", "odt", "rtf", "txt"].map((output) => ({ input: "rst", output })),
  ...["md", "txt", "html"].map((output) => ({ input: "tex", output })),
  // issue 32: rst and tex → pdf, pandoc's ODT laid out by LibreOffice (container/engines/pandoc.ts says why)
  { input: "rst", output: "pdf" },
  { input: "tex", output: "pdf" },
  ...["docx", "odt", "rtf", "txt", "md", "tex", "rst"].map((output) => ({ input: "html", output })),
  ...["md", "tex", "html"].map((output) => ({ input: "txt", output })),
];

/** PDF → text and markup by poppler (container/engines/poppler.ts): pdftotext, pdftohtml, pdftocairo. */
export const POPPLER_PDF_OUTPUTS = ["txt", "html", "svg", "eps", "ps"] as const;

/** PostScript → text and HTML by poppler after Ghostscript's pdfwrite (issue 34; the catalogue's ps → txt, html). */
export const POPPLER_PS_OUTPUTS = ["txt", "html"] as const;

/** Every (input, output) pair the libreoffice row converts besides → pdf and → images (html → doc included, issue 32). */
export const OFFICE_CONVERSIONS: readonly { input: string; output: string }[] = [
  ...WRITER_INPUTS.flatMap((input) => OFFICE_OUTPUTS.writer.map((output) => ({ input, output }))),
  ...CALC_INPUTS.flatMap((input) => OFFICE_OUTPUTS.calc.map((output) => ({ input, output }))),
  ...IMPRESS_INPUTS.flatMap((input) => OFFICE_OUTPUTS.impress.map((output) => ({ input, output }))),
  ...DRAW_INPUTS.flatMap((input) => OFFICE_OUTPUTS.draw.map((output) => ({ input, output }))),
  ...LIBREOFFICE_PDF_OUTPUTS.map((output) => ({ input: "pdf", output })),
  // HTML loaded into Writer (uno_bridge.py) and saved as Word 97; html's other documents are pandoc's
  { input: "html", output: "doc" },
  // issue 34: PostScript → slides (Ghostscript's PDF through Impress's PDF import)
  ...["odp", "ppt", "pptx"].map((output) => ({ input: "ps", output })),
];

/**
 * Image formats the native ImageMagick (Debian 12's ImageMagick 6.9.11 with libheif 1.15.1) reads
 * and writes through image convert and thumbnail: container/engines/imagemagick.ts CODER (a test
 * checks they agree). Verified by test/unit/image-outputs-native.test.ts with identify and exiftool:
 * HEIC is written (libheif's x265 encoder; libheif1 depends on libx265 in bookworm), without alpha,
 * so the server flattens it on white like JPEG and AVIF; PSD is written. No JXL: Debian's ImageMagick
 * 6 has no JXL coder (`convert in.png out.jxl` silently writes a PNG), so JXL stays with the WASM engine. Both
 * lists come from the one table of image formats, engines/image-formats.ts (native "r" here; it reads all the
 * WebAssembly engine reads).
 */
export const NATIVE_IMAGE_INPUTS: readonly ImageFormat[] = imageFormatsOf("native", "r");
/** Image formats the native ImageMagick writes through image convert and thumbnail (engines/image-formats.ts: native "w"). */
export const NATIVE_IMAGE_OUTPUTS: readonly ImageFormat[] = imageFormatsOf("native", "w");

/** Pairs the native image row converts besides inputs × outputs: xps → svg by MuPDF (issue 34). */
export const NATIVE_IMAGE_EXTRA_PAIRS: readonly { input: string; output: string }[] = [{ input: "xps", output: "svg" }];

/**
 * Camera raw formats LibRaw reads (row "libraw", issue 34): demosaiced by LibRaw 0.20's dcraw_emu,
 * then written by native ImageMagick in any of {@link NATIVE_IMAGE_OUTPUTS}.
 */
export { RAW_FORMATS as RAW_INPUTS } from "../../../native-protocol/image";

/**
 * The largest input the api Worker hands the native engine as bytes. The bytes pass through the
 * Worker's memory on their way (128 MB isolate in production), so this is the Worker's limit, not
 * the container's. Rows that stream (NATIVE_STREAM_MAX_BYTES) send larger inputs as streams instead.
 */
export const NATIVE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The largest input of a native row that streams (issue 35: the media row, `budget.streamOver`): its inputs over
 * NATIVE_MAX_BYTES travel R2 → native engine → R2 on the framed wire (native-protocol/frame.ts) without passing
 * whole through the Worker's memory, so the bound is the largest file an import stores by default
 * (src/settings.ts DEFAULT_MAX_IMPORT_BYTES, 5 GiB; test/unit/large-media-routing.test.ts holds them equal),
 * which the native server's disk-bounded limit (NATIVE_MAX_STREAM_MB) takes.
 */
export const NATIVE_STREAM_MAX_BYTES = 5 * 1024 ** 3;

/**
 * The largest book the native calibre row takes (issue 49; over NATIVE_MAX_BYTES as a stream): 1 GiB, what the e-book
 * engine lets a zipped book (epub, cbz, docx…) unpack to (container/engines/calibre.ts MAX_UNPACKED): a larger zip
 * holds more than calibre may unpack, so it could only end OVER_BUDGET after its upload. calibre reads every book into
 * its own memory (bounded by the tool's limit, NATIVE_MEMORY_MB), not the Worker's.
 */
export const NATIVE_EBOOK_MAX_BYTES = 1024 ** 3;

/**
 * The largest PDF or PostScript document the native poppler row (pdftotext, pdftohtml, pdftocairo) takes (issue 49;
 * over NATIVE_MAX_BYTES as a stream): 1 GiB. Poppler reads a PDF from its file by the cross-reference table, a page at
 * a time (an 80 MB PDF of 1,120 pages: pdftotext 17 MB resident, pdftohtml 39 MB, pdftocairo -ps 109 MB, under a
 * 2 GiB address-space limit), so its memory does not bound it; its outputs do: the ps of that PDF was 170 MB (2.1×),
 * an html carries the pages' images base64-encoded and an svg or eps page its images decoded, and they are written to
 * the call's folder beside the input, which reserves twice the input on the native engine's disk
 * (container/disk-budget.ts). Time bounds the rest: each poppler run stops at POPPLER_MAX_MS (60 s): pdftotext read
 * the 1,120 pages in ~20 s on a loaded machine, while its html (~5 pages/s) and ps (223 s) ran past it (TIMEOUT).
 */
export const NATIVE_POPPLER_MAX_BYTES = 1024 ** 3;

/**
 * Largest PDF the native pdftoppm rasterizes (issue 49, row "poppler-raster"): {@link NATIVE_POPPLER_MAX_BYTES}, 1 GiB,
 * for the same reason — poppler reads the file from disk by its cross-reference table a page at a time, so the input's
 * size does not bound its memory (one page's bitmap does: native-protocol/pdf.ts NATIVE_RASTER_MAX_PAGE_PIXELS); the
 * page PNGs are written to the call's folder and streamed back, and each run stops at POPPLER_MAX_MS.
 */
export const NATIVE_RASTER_MAX_BYTES = NATIVE_POPPLER_MAX_BYTES;

/**
 * The largest DjVu the native DjVuLibre row takes (issue 49; over NATIVE_MAX_BYTES as a stream): 1 GiB. DjVuLibre
 * reads a bundled DjVu from its file a page at a time (a 69 MB DjVu of 120 photo pages: djvused listed every page's
 * size in 5.6 MB resident, djvmcvt re-saved it in 5.6 MB, ddjvu rendered a page in 29 MB), so its memory does not bound
 * it; its outputs do: every page decoded (a TIFF, then a PNG or JPEG; a PDF page's JPEG), many times the page's bytes
 * in a DjVu (IW44 and JB2 compress a scan 10–100×), written to the call's folder within the disk budget. The engine's
 * own limits (2,000 pages, 150 million pixels a page: container/engines/djvulibre.ts) still apply.
 */
export const NATIVE_DJVU_MAX_BYTES = 1024 ** 3;

/**
 * The largest document the native pandoc row takes (issue 49): 8 MiB, below NATIVE_MAX_BYTES, so none streams at the
 * default threshold. Pandoc holds the whole document as its AST, many times the file: measured (GNU time's maximum
 * resident size; the corpus's MANIFEST.md repeated, pandoc under `+RTS -M1664m`, all under a 2 GiB RLIMIT_AS), reading
 * markdown peaked at 177 MB for 1 MB, 431 MB for 4 MB and 754 MB for 8 MB; the image guard (python3) at 600 MB for the
 * 8 MB document's 36 MB AST; writing docx at 859 MB for 4 MB and 1,376 MB for 8 MB; the read's CPU time grows faster
 * than the size (2 s, 11 s, 31 s). So 8 MiB stays within the tool's 2 GiB address space (NATIVE_MEMORY_MB's default),
 * and a document over it would need more than that (pandoc's heap is held by `+RTS -M` instead of RLIMIT_AS, which
 * GHC's runtime does not bear: container/engines/pandoc.ts pandocRun; "Heap exhausted" is OVER_BUDGET); refused before
 * its upload instead.
 */
export const NATIVE_PANDOC_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The largest image the native ImageMagick row takes (issue 49; over NATIVE_MAX_BYTES as a stream): 1 GiB. Its
 * policy (/etc/ImageMagick-6/policy.xml, Debian 12) decodes at most 128 megapixels a picture and 1 GiB of pixel cache
 * on disk (8 bytes a pixel at Q16: ~134 megapixels decoded at once), and 128 megapixels of 16-bit RGBA, the fattest
 * common layout uncompressed, is 1 GiB: a larger single-image file holds more pixels than ImageMagick may decode, so
 * it would only end OVER_BUDGET after the upload to the native engine. (A multi-page TIFF larger than this is the
 * libtiff row's for → pdf, one page at a time: {@link NATIVE_TIFF_MAX_BYTES}.)
 */
export const NATIVE_IMAGE_MAX_BYTES = 1024 ** 3;

/**
 * The largest TIFF the libtiff row (tiff2pdf, issue 49) turns into a PDF: 4 GiB, a classic TIFF's 32-bit offsets'
 * reach (BigTIFF aside: scanners write classic TIFF). tiff2pdf holds one page at a time (its -m allocation limit is
 * half the tool's memory limit), and the call's disk reservation (2 × the input: input and PDF) bounds the rest.
 */
export const NATIVE_TIFF_MAX_BYTES = 4 * 1024 ** 3;

/**
 * The largest drawing the native Inkscape rows take (issue 49; "inkscape": vector convert, "inkscape-pdf": pdf → dxf;
 * over NATIVE_MAX_BYTES as a stream): 128 MiB. Inkscape holds the whole drawing in memory, and what that costs depends
 * on what it draws, measured with Inkscape 1.2.2 (peak RSS): a drawing that is mostly an embedded picture ~8× its size
 * (a 64 MB SVG holding a 48 MB PNG → pdf: 535 MB; a 72 MB Illustrator/PDF file of one 4900² picture → png: 585 MB),
 * long paths ~30× (a 30 MB SVG of 10 paths of 300 000 points → pdf: 890 MB), many small objects ~150× (a 6.5 MB SVG of
 * 50 000 paths → pdf: 1.04 GB; 26 MB of 200 000 paths: 3.97 GB, std::bad_alloc under the tool's 2 GiB address-space
 * limit, OVER_BUDGET). So 128 MiB is what the cheapest drawings (pictures) reach at half the default tool limit
 * (NATIVE_MEMORY_MB 2048): far below the 1 GiB of the image rows, and a dense drawing fails long before it (its
 * OVER_BUDGET comes from Inkscape's allocation failure). An SVG is also read as text into the server to be made safe:
 * at most 64 MiB of it (container/engines/inkscape.ts MAX_SVG_BYTES).
 */
export const NATIVE_VECTOR_MAX_BYTES = 128 * 1024 * 1024;

/**
 * The largest drawing the native CAD row takes ("inkscape-cad": DXF, DWG; issue 49): 64 MiB, NATIVE_MAX_BYTES, so it
 * takes no input as a stream by default (only where NATIVE_STREAM_BYTES is lower; its engine takes files either way).
 * Inkscape draws a DXF's entities as SVG objects, the costliest kind measured: a 3.6 MB DXF R12 of 50 000 LINEs took
 * 87 MB in Inkscape's DXF import (python3) and 946 MB in Inkscape's pdf export (~260× the DXF), so a dense drawing over
 * ~8 MB already fails under the default 2 GiB tool limit (OVER_BUDGET from Inkscape's allocation failure); a larger
 * limit would only admit uploads that cannot convert.
 */
export const NATIVE_CAD_MAX_BYTES = NATIVE_MAX_BYTES;

/**
 * The largest camera raw the native LibRaw row takes (issue 49; over NATIVE_MAX_BYTES as a stream): 256 MiB. A raw holds
 * one sensor sample a pixel, 12–16 bits, packed or losslessly compressed (a 24 MP cr3 is ~30 MB, a 100 MP medium-format
 * raw 100–200 MB), and native ImageMagick, which writes LibRaw's picture, decodes at most 128 megapixels (its policy's
 * area, NATIVE_IMAGE_MAX_BYTES): 128 MP of uncompressed 16-bit samples is 256 MiB, so a larger raw holds more pixels than
 * the row can write and could only end OVER_BUDGET after its upload. LibRaw itself holds ~10 bytes a pixel (a generated
 * 36 MP DNG of 72 MB: 371 MB peak, 3.3 s), ~1.3 GB at 128 MP, within the tool's memory limit (NATIVE_MEMORY_MB, 2 GiB).
 */
export const NATIVE_RAW_MAX_BYTES = 256 * 1024 * 1024;

/**
 * The largest GIMP XCF the native gimp row takes (issue 49; over NATIVE_MAX_BYTES as a stream): 1 GiB. The engine opens
 * at most a 100-megapixel canvas (container/engines/gimp.ts MAX_CANVAS_PIXELS, from the header, before GIMP runs); an
 * XCF stores each layer's tiles RLE- or zlib-compressed, a 100 MP 8-bit RGBA layer 400 MB raw, so 1 GiB holds a
 * full-canvas image of two or three such layers. GIMP keeps its tiles in GEGL's cache and swaps past it to the call's
 * folder.
 */
export const NATIVE_XCF_MAX_BYTES = 1024 ** 3;

/**
 * The largest input of the `command` operation's native rows (issue 49: "native-command", ImageMagick/GraphicsMagick;
 * ffmpeg-native's command takes the media row's NATIVE_STREAM_MAX_BYTES): 1 GiB, as NATIVE_IMAGE_MAX_BYTES — Debian's
 * ImageMagick policy decodes at most 128 megapixels and 1 GiB of pixel cache, which 128 MP of 16-bit RGBA fills, and
 * the command runs under the same limits (container/engines/command.ts, magickEnv). Inputs over NATIVE_MAX_BYTES reach
 * the command's folder as files, its outputs come back from disk.
 */
export const NATIVE_COMMAND_MAX_BYTES = 1024 ** 3;

/**
 * The largest font the native fontTools row takes (issue 49): 32 MiB, bytes only (no stream: every font is under
 * NATIVE_MAX_BYTES). An sfnt holds at most 65 535 glyphs, and the largest single fonts are CJK faces of 16–30 MB (Noto
 * Sans CJK's OTFs); fontTools decompiles the whole font into Python objects, measured at ~40× the file with its time
 * growing alike (an 8.4 MB CJK OpenType → woff2: 321 MB, 2 min on a loaded host; → ttf through cu2qu: 342 MB, 29 s),
 * so 32 MiB (~1.3 GB) fits the default 2 GiB tool limit and a 64 MiB "font" would not. Streaming it would save the
 * Worker ≤ 32 MiB once and add a file path to fonts.ts and a stream check to fonteditor-core's row for no font that
 * exists, so the row keeps bytes.
 */
export const NATIVE_FONT_MAX_BYTES = 32 * 1024 * 1024;

/** Engine-table row name → the native tools that serve it, any one suffices (native-protocol/engines.ts). */
export const NATIVE_TOOL_OF: Record<string, readonly string[]> = Object.fromEntries(
  NATIVE_ENGINES.map((r) => [r.name, r.tools]),
);

/**
 * What the engine table's row of native engine `name` takes from native-protocol/engines.ts: its name, kind, the
 * version reported until the engine answers with its own, and its placement; the row adds its offers, budget and
 * aliases (registry.ts).
 */
export function nativeRow<N extends NativeEngineName>(
  name: N,
): { name: N; version: string; kind: NativeKindOf<N>; placement: "native" } {
  const row = NATIVE_ENGINES.find((r) => r.name === name)!;
  return { name, version: row.version, kind: row.kind as NativeKindOf<N>, placement: "native" };
}
