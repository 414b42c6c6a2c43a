/**
 * The native tools this engine can run, found on PATH at start-up with their versions (GET /health).
 * A tool that is missing is reported with the Debian packages that provide it; the Worker then
 * leaves its operations out of GET /v2/operations and a task that needs it ends in
 * ENGINE_UNAVAILABLE naming the packages (issue 12).
 */
import { execFile } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolStatus } from "../native-protocol/wire.ts";

/** A tool found on this host: its executable and version. */
export interface Tool {
  name: string;
  /** Absolute path of the executable. */
  path: string;
  version: string;
}

interface ToolSpec {
  name: string;
  /** Executable names, first found wins (IM7's `magick` before IM6's `convert`). */
  bins: string[];
  versionArgs: string[];
  /** Extracts the version from the tool's output. */
  version: RegExp;
  packages: string[];
  /** An extra check (LibreOffice also needs Python's UNO bridge). */
  extra?: () => Promise<boolean>;
  /** Another executable of the same package that prints the version (dcraw_emu prints none; simple_dcraw names LibRaw's). */
  versionBin?: string;
}

/** Debian's python3 with the UNO bridge (the pool's bridge process, container/office). */
export const UNO_PYTHON = "/usr/bin/python3";

const SPECS: ToolSpec[] = [
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
    name: "ffmpeg",
    bins: ["ffmpeg"],
    versionArgs: ["-version"],
    version: /ffmpeg version (\d+\.\d+(?:\.\d+)?)/,
    packages: ["ffmpeg"],
    extra: async () => !!which("ffprobe"),
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
    name: "libreoffice",
    bins: ["soffice"],
    versionArgs: ["--version"],
    version: /LibreOffice (\d+\.\d+\.\d+)/,
    packages: ["libreoffice-writer-nogui", "libreoffice-calc-nogui", "libreoffice-impress-nogui", "python3-uno"],
    extra: () => new Promise((ok) => execFile(UNO_PYTHON, ["-c", "import uno"], { timeout: 10_000 }, (e) => ok(!e))),
  },
  {
    // fonts (issue 33): Debian's python3 with fontTools and Brotli (WOFF2), running container/engines/fonts/font_convert.py
    name: "fonttools",
    bins: ["/usr/bin/python3"],
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
    bins: ["/usr/bin/python3"],
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
    // Apple icons (issue 34, container/engines/image-extra.ts): icns2png reads them, png2icns writes them; neither
    // prints a version, so dpkg says which package it is
    name: "icnsutils",
    bins: ["icns2png"],
    versionBin: "dpkg-query",
    versionArgs: ["-W", "-f=${Version}", "icnsutils"],
    version: /^(\d+\.\d+(?:\.\d+)?)/,
    packages: ["icnsutils"],
    extra: async () => !!which("png2icns"),
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
    // CAD drawings (issue 33): Inkscape with its DXF import extension (container/engines/cad.ts), run by Debian's python3
    name: "inkscape-cad",
    bins: ["inkscape"],
    versionArgs: ["--version"],
    version: /Inkscape (\d+\.\d+(?:\.\d+)?)/,
    packages: ["inkscape"],
    extra: async () => existsSync("/usr/share/inkscape/extensions/dxf_input.py"),
  },
  {
    // DWG drawings (issue 33): LibreDWG in WebAssembly (npm @mlightcad/libredwg-web, not a Debian package), run by
    // this server's own Node as container/engines/cad/dwg_to_dxf.ts, which prints the package's version
    name: "libredwg",
    bins: [process.execPath],
    versionArgs: [fileURLToPath(new URL("./engines/cad/dwg_to_dxf.ts", import.meta.url)), "--version"],
    version: /libredwg-web (\S+)/,
    packages: ["@mlightcad/libredwg-web (npm, in package.json)"],
  },
  {
    // dxf → dxf (issue 33): Debian's python3 with ezdxf, running container/engines/cad/dxf_resave.py
    name: "ezdxf",
    bins: [UNO_PYTHON],
    versionArgs: [fileURLToPath(new URL("./engines/cad/dxf_resave.py", import.meta.url)), "--version"],
    version: /ezdxf (\S+)/,
    packages: ["python3-ezdxf"],
  },
];

/** The first executable named `bin` on PATH (or `bin` itself when it is an absolute path), or undefined. */
export function which(bin: string): string | undefined {
  if (bin.startsWith("/")) {
    try {
      accessSync(bin, constants.X_OK);
      return bin;
    } catch {
      return undefined;
    }
  }
  for (const dir of (process.env.PATH ?? "").split(":").filter(Boolean)) {
    const p = join(dir, bin);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** Runs `path args` and returns its output (stdout + stderr), or "" when it fails to run. */
function output(path: string, args: string[]): Promise<string> {
  return new Promise((ok) =>
    execFile(path, args, { timeout: 30_000, env: { ...process.env, HOME: "/tmp" } }, (_e, out, err) =>
      ok(`${out}\n${err}`),
    ),
  );
}

/** The tools of this host, probed once (each probe runs its tool with a version flag). */
export async function probeTools(): Promise<{ found: Map<string, Tool>; status: ToolStatus[] }> {
  const found = new Map<string, Tool>();
  const status = await Promise.all(
    SPECS.map(async (s): Promise<ToolStatus> => {
      const path = s.bins.map(which).find(Boolean);
      const versionPath = s.versionBin ? which(s.versionBin) : path;
      const version = path && versionPath ? s.version.exec(await output(versionPath, s.versionArgs))?.[1] : undefined;
      const ok = !!path && !!version && (!s.extra || (await s.extra()));
      if (ok) found.set(s.name, { name: s.name, path: path!, version: version! });
      return { name: s.name, version: ok ? version! : null, packages: s.packages };
    }),
  );
  return { found, status };
}

/** The Debian install line for a missing tool, for messages. */
export function installHint(name: string): string {
  const spec = SPECS.find((s) => s.name === name);
  return spec ? `apt-get install ${spec.packages.join(" ")}` : `install ${name}`;
}
