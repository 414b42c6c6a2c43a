/**
 * Global setup of the projects that call Debian's tools (engines, native, corpus, worker, e2e, browser): checks every
 * tool the tests run as an oracle or the native engine runs is on PATH, and fails the run at once with one message
 * naming the missing Debian packages (and the command that installs them) instead of a spawn stack trace in the first
 * test that calls one. The packages are those of container/debian-packages.txt, which `npm install` installs as root on
 * Debian/Ubuntu (scripts/setup-native.mjs).
 */
import { spawnSync } from "node:child_process";

/** Command the tests or the native engine run → the Debian package that provides it. */
export const TOOL_PACKAGES: Readonly<Record<string, string>> = {
  pdftotext: "poppler-utils",
  pdfinfo: "poppler-utils",
  pdftoppm: "poppler-utils",
  pdfimages: "poppler-utils",
  pdffonts: "poppler-utils",
  pdfdetach: "poppler-utils",
  pdfsig: "poppler-utils",
  pdftohtml: "poppler-utils",
  pdftocairo: "poppler-utils",
  iconv: "libc-bin",
  pandoc: "pandoc",
  qpdf: "qpdf",
  gs: "ghostscript",
  convert: "imagemagick",
  identify: "imagemagick",
  compare: "imagemagick",
  gm: "graphicsmagick",
  exiftool: "libimage-exiftool-perl",
  ffmpeg: "ffmpeg",
  ffprobe: "ffmpeg",
  tesseract: "tesseract-ocr",
  soffice: "libreoffice-writer-nogui",
  "fc-match": "fontconfig",
  prlimit: "util-linux",
  unzip: "unzip",
  zipinfo: "unzip",
  "7z": "p7zip-full",
  bsdtar: "libarchive-tools",
  lzip: "lzip",
  icns2png: "icnsutils",
  mutool: "mupdf-tools",
  png2icns: "icnsutils",
  lzop: "lzop",
  rzip: "rzip",
  unalz: "unalz",
  nomarch: "nomarch",
  arc: "arc",
  xz: "xz-utils",
  bzip2: "bzip2",
  dcraw_emu: "libraw-bin",
  simple_dcraw: "libraw-bin",
  tiff2pdf: "libtiff-tools",
  tiffinfo: "libtiff-tools",
  xpstopng: "libgxps-utils",
  tar: "tar",
  chromium: "chromium",
  "rsvg-convert": "librsvg2-bin",
  inkscape: "inkscape",
  // issue 33: dxf → dxf is written by ezdxf (container/engines/cad/dxf_resave.py, Debian python3-ezdxf)
  ezdxf: "python3-ezdxf",
  curl: "curl",
  jq: "jq",
  "fc-scan": "fontconfig",
  "ebook-convert": "calibre",
  // issue 32: documents → e-books are read back by calibre's ebook-meta; DjVu by DjVuLibre's ddjvu/djvused/djvudump
  "ebook-meta": "calibre",
  ddjvu: "djvulibre-bin",
  djvused: "djvulibre-bin",
  djvudump: "djvulibre-bin",
  // issue 32: docutils' own renderer is the oracle of rst → pdf (test/native/markup-pdf.test.ts)
  rst2html: "python3-docutils",
  // issue 32: the SWF of slides is told by its magic (test/native/slides-swf.test.ts)
  file: "file",
  // issue 32: libstaroffice's own readers are the StarOffice fixtures' oracles (test/native/staroffice.test.ts)
  sdw2html: "libstaroffice-tools",
  sd2text: "libstaroffice-tools",
  // issue 33: Survex writes the Skencil fixture again from its survey (test/native/native-sketch.test.ts)
  cavern: "survex",
  survexport: "survex-aven",
  zip: "zip",
  php: "php-cli",
  phpunit: "phpunit",
  // the storage tests' servers (issue 35, test/support/stores/)
  "swift-proxy-server": "swift-proxy",
  "swift-object-server": "swift-object",
  "swift-container-server": "swift-container",
  "swift-account-server": "swift-account",
  "swift-ring-builder": "swift-proxy",
  memcached: "memcached",
  "keystone-manage": "python3-keystone",
  "keystone-wsgi-public": "python3-keystone",
  sshd: "openssh-server",
  sftp: "openssh-client",
  "ssh-keygen": "openssh-client",
};

/** The Debian packages whose command is not on PATH, each once, in table order. */
export function missingPackages(): string[] {
  const absent = Object.entries(TOOL_PACKAGES).filter(
    ([cmd]) => spawnSync("/bin/sh", ["-c", `command -v '${cmd}'`], { stdio: "ignore" }).status !== 0,
  );
  return [...new Set(absent.map(([, pkg]) => pkg))];
}

/** @throws Error naming the missing packages and the command that installs them */
export default function setup(): void {
  const missing = missingPackages();
  if (missing.length === 0) return;
  throw new Error(
    `These tests need Debian tools that are not installed: ${missing.join(", ")}.\n` +
      `Install them with \`npm install\` as root on Debian/Ubuntu (scripts/setup-native.mjs installs container/debian-packages.txt), ` +
      `or: sudo apt-get install -y --no-install-recommends ${missing.join(" ")}`,
  );
}
