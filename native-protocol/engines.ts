/**
 * The native engine list (issue 46): every engine container/server.ts serves, one row each, and the tools they run
 * with the Debian packages that provide them. Read by the container (server.ts loads each row's engine file and
 * routes /invoke/<wire>/<method> to it; tools.ts probes the tools), by the Worker (src/engines/native/: the engine
 * objects, which rows GET /health makes available, the native rows of the engine table) and by
 * test/unit/native-engines.test.ts (container/debian-packages.txt lists every package named here). Adding a native
 * engine of an existing kind: its file under container/engines/, its row here, its row's offers in
 * src/engines/registry.ts (and its packages in container/debian-packages.txt). Imports types only.
 */
import type { NativeKind } from "./kinds.ts";

/** How a tool is found and its version read (container/tools.ts probes it at start-up; GET /health reports it). */
export interface NativeToolSpec {
  /** The tool's name in GET /health and in a row's `tools`/`uses`. */
  readonly name: string;
  /** Executable names, first found wins (IM7's `magick` before IM6's `convert`); absolute paths allowed. */
  readonly bins: readonly string[];
  readonly versionArgs: readonly string[];
  /** Extracts the version from the tool's output. */
  readonly version: RegExp;
  /** Another executable of the same package that prints the version (dcraw_emu prints none). */
  readonly versionBin?: string;
  /** The Debian packages that provide it (container/debian-packages.txt lists each). */
  readonly packages: readonly string[];
  /** An npm package that provides it instead of Debian (package.json), reported as its install hint. */
  readonly npm?: string;
}

/** Debian's python3 (with the UNO bridge, fontTools, FontForge and ezdxf modules). */
const PYTHON = "/usr/bin/python3";

/** The tools, in GET /health's order. container/tools.ts adds the checks that need Node (files, a second binary). */
export const NATIVE_TOOLS = [
  {
    name: "ghostscript",
    bins: ["gs"],
    versionArgs: ["--version"],
    version: /^(\d+\.\d+\.\d+)/,
    packages: ["ghostscript"],
  },
  { name: "qpdf", bins: ["qpdf"], versionArgs: ["--version"], version: /qpdf version (\S+)/, packages: ["qpdf"] },
  {
    name: "imagemagick",
    bins: ["magick", "convert"],
    versionArgs: ["-version"],
    version: /ImageMagick (\S+)/,
    packages: ["imagemagick"],
  },
  {
    // and ffprobe (container/tools.ts)
    name: "ffmpeg",
    bins: ["ffmpeg"],
    versionArgs: ["-version"],
    version: /ffmpeg version (\d+\.\d+(?:\.\d+)?)/,
    packages: ["ffmpeg"],
  },
  {
    name: "tesseract",
    bins: ["tesseract"],
    versionArgs: ["--version"],
    version: /tesseract v?(\d+\.\d+\.\d+)/,
    // the OCR languages (src/engines/kinds/ocr-languages.ts OCR_LANGUAGES["tesseract-native"]) and osd for orientation
    packages: [
      "tesseract-ocr",
      "tesseract-ocr-eng",
      "tesseract-ocr-osd",
      "tesseract-ocr-deu",
      "tesseract-ocr-fra",
      "tesseract-ocr-spa",
      "tesseract-ocr-ita",
      "tesseract-ocr-por",
      "tesseract-ocr-nld",
      "tesseract-ocr-chi-sim",
      "tesseract-ocr-chi-tra",
      "tesseract-ocr-jpn",
      "tesseract-ocr-rus",
      "tesseract-ocr-ara",
    ],
  },
  {
    // pdf/ocr of whole PDFs (issue 49, container/engines/ocrmypdf.ts): OCRmyPDF 14 (MPL-2.0), which runs the tesseract,
    // Ghostscript and qpdf (pikepdf) of this image; its version is the Debian package's ("14.0.1+dfsg1")
    name: "ocrmypdf",
    bins: ["ocrmypdf"],
    versionArgs: ["--version"],
    version: /^(\d+\.\d+\.\d+)/,
    packages: ["ocrmypdf"],
  },
  {
    // vector drawings (issue 33): container/engines/inkscape.ts
    name: "inkscape",
    bins: ["inkscape"],
    versionArgs: ["--version"],
    version: /Inkscape (\d+\.\d+(?:\.\d+)?)/,
    packages: ["inkscape"],
  },
  {
    // camera raw photos (issue 34): LibRaw's dcraw emulator (container/engines/libraw.ts)
    name: "libraw",
    bins: ["dcraw_emu"],
    versionBin: "simple_dcraw",
    versionArgs: [],
    version: /LibRaw (\d+\.\d+\.\d+)/,
    packages: ["libraw-bin"],
  },
  {
    // TIFF scans → PDF (issue 49): libtiff's tiff2pdf copies each page's strips (container/engines/libtiff.ts); its usage
    // (no arguments, exit 1) names the library's version; tiffinfo of the same package counts the pages
    name: "tiff2pdf",
    bins: ["tiff2pdf"],
    versionArgs: [],
    version: /LIBTIFF, Version (\d+\.\d+\.\d+)/,
    packages: ["libtiff-tools"],
  },
  {
    // GIMP's XCF images (issue 46's example of a native engine in four files): container/engines/gimp.ts
    name: "gimp",
    bins: ["gimp-console-2.10"],
    versionArgs: ["--version"],
    version: /version (\d+\.\d+\.\d+)/,
    packages: ["gimp"],
  },
  {
    // XPS pages (issue 34): libgxps's xpstopng renders the first page for native ImageMagick; it prints no
    // version of its own, so dpkg says which package it is
    name: "gxps",
    bins: ["xpstopng"],
    versionBin: "dpkg-query",
    versionArgs: ["-W", "-f=${Version}", "libgxps-utils"],
    version: /^(\d+\.\d+\.\d+)/,
    packages: ["libgxps-utils"],
  },
  {
    name: "graphicsmagick",
    bins: ["gm"],
    versionArgs: ["version"],
    version: /GraphicsMagick (\S+)/,
    packages: ["graphicsmagick"],
  },
  {
    // issue 32: markup ↔ documents, always --sandbox (container/engines/pandoc.ts)
    name: "pandoc",
    bins: ["pandoc"],
    versionArgs: ["--version"],
    version: /pandoc (\d+\.\d+(?:\.\d+)*)/,
    packages: ["pandoc"],
  },
  {
    // issue 32: pdftotext, pdftohtml, pdftocairo, pdfinfo (PDF → txt/html/svg/eps/ps, and office → them through PDF)
    name: "poppler",
    bins: ["pdftotext"],
    versionArgs: ["-v"],
    version: /pdftotext version (\S+)/,
    packages: ["poppler-utils"],
  },
  {
    // and Python's UNO bridge (container/tools.ts)
    name: "libreoffice",
    bins: ["soffice"],
    versionArgs: ["--version"],
    version: /LibreOffice (\d+\.\d+\.\d+)/,
    packages: ["libreoffice-writer-nogui", "libreoffice-calc-nogui", "libreoffice-impress-nogui", "python3-uno"],
  },
  {
    // fonts (issue 33): Debian's python3 with fontTools and Brotli (WOFF2), running container/engines/fonts/font_convert.py
    name: "fonttools",
    bins: [PYTHON],
    versionArgs: ["-c", "import fontTools, brotli; print('fonttools', fontTools.version)"],
    version: /fonttools (\S+)/,
    packages: ["python3-fonttools", "python3-brotli"],
  },
  {
    // issue 32: DjVu → pdf and images (ddjvu), page count and sizes (djvused), bundled re-save (djvmcvt)
    name: "djvulibre",
    bins: ["ddjvu"],
    versionArgs: ["--help"],
    version: /DjVuLibre-(\d+\.\d+\.\d+)/,
    packages: ["djvulibre-bin"],
  },
  {
    // svg → fonts (issue 33): Debian's python3 with FontForge's module, running container/engines/fonts/svg_font.py
    name: "fontforge",
    bins: [PYTHON],
    versionArgs: ["-c", "import fontforge; print('fontforge', fontforge.version())"],
    version: /fontforge (\d+)/,
    packages: ["python3-fontforge"],
  },
  {
    // e-books (issue 33): calibre's ebook-convert (container/engines/calibre.ts)
    name: "calibre",
    bins: ["ebook-convert"],
    versionArgs: ["--version"],
    version: /calibre (\d+\.\d+(?:\.\d+)?)/,
    packages: ["calibre"],
  },
  {
    // XPS → SVG (issue 34, container/engines/image-extra.ts): MuPDF's mutool
    name: "mupdf",
    bins: ["mutool"],
    versionArgs: ["-v"],
    version: /mutool version (\d+\.\d+(?:\.\d+)?)/,
    packages: ["mupdf-tools"],
  },
  {
    // Apple icons (issue 34, container/engines/image-extra.ts): icns2png reads them, png2icns (container/tools.ts)
    // writes them; neither prints a version, so dpkg says which package it is
    name: "icnsutils",
    bins: ["icns2png"],
    versionBin: "dpkg-query",
    versionArgs: ["-W", "-f=${Version}", "icnsutils"],
    version: /^(\d+\.\d+(?:\.\d+)?)/,
    packages: ["icnsutils"],
  },
  {
    // archives 7-Zip in WebAssembly does not decode (issue 34, container/engines/archive.ts): Debian's 7-Zip 26 reads
    // the tars inside and the disk images, and writes zip/7z/tar/tar.gz/tar.bz2
    name: "7z",
    bins: ["7z"],
    versionArgs: [],
    version: /7-Zip (?:\[\d+\] )?(\d+\.\d+)/,
    packages: ["p7zip-full"],
  },
  { name: "lzip", bins: ["lzip"], versionArgs: ["--version"], version: /lzip (\d+\.\d+)/, packages: ["lzip"] },
  { name: "lzop", bins: ["lzop"], versionArgs: ["--version"], version: /lzop (\d+\.\d+)/, packages: ["lzop"] },
  { name: "rzip", bins: ["rzip"], versionArgs: ["-V"], version: /rzip version (\d+\.\d+)/, packages: ["rzip"] },
  { name: "unalz", bins: ["unalz"], versionArgs: [], version: /unalz v(\d+\.\d+)/, packages: ["unalz"] },
  { name: "nomarch", bins: ["nomarch"], versionArgs: ["-v"], version: /nomarch (\d+\.\d+)/, packages: ["nomarch"] },
  {
    // metadata (issue 49, container/engines/exiftool.ts): Debian's exiftool for files over the WebAssembly ExifTool's
    // budget; Archive::Zip, without which it reads DOCX/XLSX/EPUB as plain ZIP (the WebAssembly build bundles it)
    name: "exiftool",
    bins: ["exiftool"],
    versionArgs: ["-ver"],
    version: /^(\d+\.\d+)/,
    packages: ["libimage-exiftool-perl", "libarchive-zip-perl"],
  },
  {
    // CAD drawings (issue 33): Inkscape with its DXF import extension (container/tools.ts checks it is there),
    // run by Debian's python3 (container/engines/cad.ts)
    name: "inkscape-cad",
    bins: ["inkscape"],
    versionArgs: ["--version"],
    version: /Inkscape (\d+\.\d+(?:\.\d+)?)/,
    // its DXF input is a Python extension: inkex imports numpy, only a Recommends of inkscape
    packages: ["inkscape", "python3-numpy"],
  },
  {
    // DWG drawings (issue 33): LibreDWG in WebAssembly, run by the server's own Node as
    // container/engines/cad/dwg_to_dxf.ts, which prints the package's version (container/tools.ts sets both)
    name: "libredwg",
    bins: [],
    versionArgs: [],
    version: /libredwg-web (\S+)/,
    packages: [],
    npm: "@mlightcad/libredwg-web",
  },
  {
    // dxf → dxf (issue 33): Debian's python3 with ezdxf, running container/engines/cad/dxf_resave.py --version
    // (container/tools.ts adds the script's path)
    name: "ezdxf",
    bins: [PYTHON],
    versionArgs: ["--version"],
    version: /ezdxf (\S+)/,
    packages: ["python3-ezdxf"],
  },
] as const satisfies readonly NativeToolSpec[];

/** The name of a native tool. */
export type NativeToolName = (typeof NATIVE_TOOLS)[number]["name"];

/** One native engine: a row of the engine table served by container/server.ts. */
export interface NativeEngineSpec {
  /** The row's name in the engine table (GET /v2/operations, a task's `engine`). */
  readonly name: string;
  /** Its kind (src/engines/kinds/): the methods it offers and their requests (kinds.ts). */
  readonly kind: NativeKind;
  /**
   * The tools that serve it, any one suffices (GET /health makes the row available). With one, the server checks it
   * is installed before a call; with several, the request's `engine` names the one it runs.
   */
  readonly tools: readonly NativeToolName[];
  /** Other tools it calls for some formats (each call checks its own). */
  readonly uses?: readonly NativeToolName[];
  /** The version reported until the engine answers with its own (Debian 12's package). */
  readonly version: string;
  /**
   * Its name on the wire (/invoke/<wire>/<method>) when not `name`: a name the protocol had before the row was
   * renamed, kept so a Worker and a container of different releases still agree.
   */
  readonly wire?: string;
  /** Its file under container/engines/ (without .ts) when not `<name>.ts`; it default-exports the engine. */
  readonly file?: string;
}

/** The native engines, in no particular order (the engine table, src/engines/registry.ts, orders the rows). */
export const NATIVE_ENGINES = [
  { name: "ghostscript", kind: "pdf", tools: ["ghostscript"], uses: ["qpdf"], version: "10.00.0" },
  // poppler: pdfinfo, the page frames a watermark is drawn for (issue 49)
  { name: "qpdf", kind: "pdf", tools: ["qpdf"], uses: ["poppler"], version: "11.3.0" },
  { name: "libreoffice", kind: "office", tools: ["libreoffice"], uses: ["ghostscript", "ffmpeg"], version: "7.4.7" },
  {
    name: "imagemagick-native",
    kind: "image",
    tools: ["imagemagick"],
    uses: ["ghostscript", "gxps", "mupdf", "icnsutils", "libreoffice"],
    version: "6.9.11-60",
    file: "imagemagick",
  },
  { name: "libraw", kind: "image", tools: ["libraw"], uses: ["imagemagick"], version: "0.20.2" },
  { name: "gimp", kind: "image", tools: ["gimp"], uses: ["imagemagick"], version: "2.10.34" },
  { name: "libtiff", kind: "image", tools: ["tiff2pdf"], version: "4.5.0" },
  {
    name: "native-command",
    kind: "command",
    tools: ["imagemagick", "graphicsmagick"],
    version: "6.9.11-60",
    wire: "command",
    file: "command",
  },
  { name: "ffmpeg-native", kind: "media", tools: ["ffmpeg"], version: "5.1.8", file: "ffmpeg" },
  { name: "tesseract-native", kind: "ocr", tools: ["tesseract"], version: "5.3.0", file: "tesseract" },
  // issue 49: pdf/ocr of a whole PDF on disk (a PDF over pdf-lib's budget, a page over PDFium's); qpdf decrypts first
  { name: "ocrmypdf", kind: "pdf", tools: ["ocrmypdf"], uses: ["tesseract", "qpdf"], version: "14.0.1" },
  { name: "fonttools", kind: "font", tools: ["fonttools"], uses: ["fontforge"], version: "4.38.0", file: "fonts" },
  { name: "calibre", kind: "ebook", tools: ["calibre"], uses: ["libreoffice"], version: "6.13.0" },
  {
    name: "inkscape-cad",
    kind: "cad",
    tools: ["inkscape-cad"],
    uses: ["libredwg", "ezdxf", "imagemagick"],
    version: "1.2.2",
    file: "cad",
  },
  {
    name: "inkscape",
    kind: "vector",
    tools: ["inkscape"],
    uses: ["ghostscript", "imagemagick", "libreoffice"],
    version: "1.2.2",
  },
  // issue 49: pdf → images of what is over PDFium's budget (a page over 2.2 MP, a PDF over 12 MiB): pdftoppm
  { name: "poppler-raster", kind: "pdf", tools: ["poppler"], version: "22.12.0" },
  { name: "poppler", kind: "office", tools: ["poppler"], uses: ["ghostscript", "qpdf"], version: "22.12.0" },
  { name: "pandoc", kind: "office", tools: ["pandoc"], uses: ["libreoffice"], version: "2.17.1.1" },
  { name: "djvulibre", kind: "office", tools: ["djvulibre"], uses: ["imagemagick"], version: "3.5.28" },
  { name: "inkscape-pdf", kind: "office", tools: ["inkscape"], version: "1.2.2", file: "pdf-dxf" },
  {
    name: "archive-native",
    kind: "archive",
    tools: ["7z"],
    uses: ["lzip", "lzop", "rzip", "unalz", "nomarch"],
    version: "26.02",
    file: "archive",
  },
  { name: "exiftool-native", kind: "metadata", tools: ["exiftool"], version: "12.57", file: "exiftool" },
] as const satisfies readonly NativeEngineSpec[];

/** One row of {@link NATIVE_ENGINES}. */
export type NativeEngineRow = (typeof NATIVE_ENGINES)[number];

/** The name of a native engine (its row in the engine table). */
export type NativeEngineName = NativeEngineRow["name"];

/** The kind of native engine `N`. */
export type NativeKindOf<N extends NativeEngineName> = Extract<NativeEngineRow, { name: N }>["kind"];

/** The native engine named `name` (its row name), or undefined. */
export function nativeEngineRow(name: string): NativeEngineSpec | undefined {
  return NATIVE_ENGINES.find((r) => r.name === name);
}

/** The name of native engine `row` on the wire (/invoke/<wire>/<method>). */
export function wireName(row: NativeEngineSpec): string {
  return row.wire ?? row.name;
}

/** The file under container/engines/ that default-exports native engine `row`, without .ts. */
export function engineFile(row: NativeEngineSpec): string {
  return row.file ?? row.name;
}

/** The tool spec named `name`, or undefined. */
export function nativeTool(name: string): NativeToolSpec | undefined {
  return NATIVE_TOOLS.find((t) => t.name === name);
}

/** The Debian packages native engine `row` needs: those of its tools and of the tools it uses. */
export function nativePackagesOf(row: NativeEngineSpec): string[] {
  const names = [...row.tools, ...(row.uses ?? [])];
  return [...new Set(names.flatMap((n) => nativeTool(n)?.packages ?? []))];
}
