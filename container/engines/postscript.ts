/**
 * PostScript and PDF around native ImageMagick (issue 34). Debian's ImageMagick 6 policy refuses its
 * PS, EPS and PDF coders (policy.xml: rights none), so the native engine does not go through them:
 * - eps/ps inputs are rendered by Ghostscript itself (-dSAFER: no file or device access beyond its
 *   own; -dEPSCrop: an EPS at its bounding box), first page, to PNG, which ImageMagick then reads;
 * - eps/ps outputs are written here: the picture ImageMagick wrote as PPM, Flate-compressed and
 *   ASCII85-encoded in one Level 3 `image` operator, one pixel per point (DSC comments, a
 *   BoundingBox, an EPSF header for eps, a PageSize for ps);
 * - pdf outputs are that PostScript distilled by Ghostscript's pdfwrite with lossless (Flate) images.
 */
import { deflateSync } from "node:zlib";

/** The raster formats of the native engine written through PostScript rather than ImageMagick's coders. */
export const POSTSCRIPT_OUTPUTS = new Set(["eps", "ps", "pdf"]);
/** The inputs Ghostscript renders before ImageMagick reads them. */
export const POSTSCRIPT_INPUTS = new Set(["eps", "ps"]);

/**
 * What every Ghostscript run here starts with: -dSAFER (no file or device access beyond its own), batch mode without
 * pauses or chatter, and an EPS at its bounding box.
 */
const GS_SAFE_BATCH = ["-dSAFER", "-dBATCH", "-dNOPAUSE", "-dQUIET", "-dEPSCrop"];

/** Ghostscript's arguments rendering the first page of `input` (eps/ps) to a PNG with alpha at `dpi`. */
export function renderArgs(input: string, output: string, dpi: number): string[] {
  return [
    ...GS_SAFE_BATCH,
    "-dFirstPage=1",
    "-dLastPage=1",
    "-dTextAlphaBits=4",
    "-dGraphicsAlphaBits=4",
    `-r${dpi}`,
    "-sDEVICE=pngalpha",
    `-sOutputFile=${output}`,
    "-f",
    input,
  ];
}

/** Ghostscript's arguments distilling `input` (our PostScript) to a PDF whose images stay lossless. */
export function distillArgs(input: string, output: string): string[] {
  return [
    ...GS_SAFE_BATCH,
    "-sDEVICE=pdfwrite",
    "-dAutoFilterColorImages=false",
    "-dColorImageFilter=/FlateEncode",
    "-dDownsampleColorImages=false",
    `-sOutputFile=${output}`,
    "-f",
    input,
  ];
}

/** A binary PPM (P6, maxval 255) read: size and RGB bytes. @throws Error when it is not one */
export function readPpm(ppm: Uint8Array): { width: number; height: number; rgb: Uint8Array } {
  const fields: string[] = [];
  let i = 0;
  while (fields.length < 4 && i < ppm.length) {
    while (i < ppm.length && /\s/.test(String.fromCharCode(ppm[i]!))) i++;
    if (ppm[i] === 0x23) {
      while (i < ppm.length && ppm[i] !== 0x0a) i++;
      continue;
    }
    let tok = "";
    while (i < ppm.length && !/\s/.test(String.fromCharCode(ppm[i]!))) tok += String.fromCharCode(ppm[i++]!);
    fields.push(tok);
  }
  const [magic, w, h, max] = fields;
  const width = Number(w);
  const height = Number(h);
  if (magic !== "P6" || max !== "255" || !(width > 0) || !(height > 0)) throw new Error("not an 8-bit binary PPM");
  const rgb = ppm.subarray(i + 1, i + 1 + width * height * 3);
  if (rgb.length !== width * height * 3) throw new Error("truncated PPM");
  return { width, height, rgb };
}

/** ASCII85 (Adobe's base-85, `~>` terminated), lines of at most 76 characters. */
export function ascii85(data: Uint8Array): string {
  let out = "";
  let line = 0;
  const push = (s: string) => {
    for (const c of s) {
      out += c;
      if (++line === 76) {
        out += "\n";
        line = 0;
      }
    }
  };
  for (let i = 0; i < data.length; i += 4) {
    const n = Math.min(4, data.length - i);
    let v = 0;
    for (let k = 0; k < 4; k++) v = v * 256 + (k < n ? data[i + k]! : 0);
    if (v === 0 && n === 4) {
      push("z");
      continue;
    }
    const digits: string[] = [];
    for (let k = 0; k < 5; k++) {
      digits.unshift(String.fromCharCode(33 + (v % 85)));
      v = Math.floor(v / 85);
    }
    push(digits.slice(0, n + 1).join(""));
  }
  return `${out}~>\n`;
}

/**
 * A PostScript (or EPS) document of one RGB picture, one pixel per point, drawn by one Level 3
 * `image` with its samples Flate-compressed and ASCII85-encoded.
 */
export function postScriptOf(ppm: Uint8Array, kind: "eps" | "ps"): Uint8Array {
  const { width: w, height: h, rgb } = readPpm(ppm);
  const head = [
    kind === "eps" ? "%!PS-Adobe-3.0 EPSF-3.0" : "%!PS-Adobe-3.0",
    `%%BoundingBox: 0 0 ${w} ${h}`,
    `%%HiResBoundingBox: 0 0 ${w} ${h}`,
    "%%LanguageLevel: 3",
    "%%Creator: edge-convert (native engine)",
    ...(kind === "ps" ? ["%%Pages: 1", `%%DocumentMedia: image ${w} ${h} 0 () ()`] : []),
    "%%EndComments",
    ...(kind === "ps"
      ? ["%%BeginSetup", `<< /PageSize [${w} ${h}] >> setpagedevice`, "%%EndSetup", "%%Page: 1 1"]
      : []),
    "gsave",
    `${w} ${h} scale`,
    "/DeviceRGB setcolorspace",
    `<< /ImageType 1 /Width ${w} /Height ${h} /BitsPerComponent 8 /Decode [0 1 0 1 0 1]`,
    `   /ImageMatrix [${w} 0 0 -${h} 0 ${h}] /DataSource currentfile /ASCII85Decode filter /FlateDecode filter >>`,
    "image",
  ].join("\n");
  const tail = ["grestore", ...(kind === "ps" ? ["showpage", "%%Trailer"] : ["showpage"]), "%%EOF", ""].join("\n");
  return new TextEncoder().encode(`${head}\n${ascii85(deflateSync(rgb, { level: 6 }))}${tail}`);
}
