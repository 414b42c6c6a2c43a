/**
 * Cheap header readers, part two: TIFF (TIFF 6.0 IFD chain), ICO (ICONDIR entries), HEIF/AVIF
 * (ISO/IEC 23008-12 `ispe` property boxes), SVG (root element width/height/viewBox, CSS units at
 * 96 px/in), Netpbm (P1–P6 header) and Photoshop (PSD/PSB file header). Same contract as sniff.ts:
 * null when the signature does not match, no pixel decoding.
 */
import { ascii, u16be, u16le, u32be, u32le, type ImageHeader } from "./sniff";

/** TIFF: largest ImageWidth/ImageLength (tags 256/257) over the IFD chain; frames = IFD count. */
export function sniffTiff(b: Uint8Array, frameCap: number): ImageHeader | null {
  const le = b[0] === 0x49 && b[1] === 0x49 && b[2] === 42 && b[3] === 0;
  const be = b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && b[3] === 42;
  if (b.length < 8 || (!le && !be)) return null;
  const r16 = le ? u16le : u16be,
    r32 = le ? u32le : u32be;
  const h: ImageHeader = { format: "tiff", width: 0, height: 0, frames: 0 };
  const seen = new Set<number>();
  for (let ifd = r32(b, 4); ifd > 0 && ifd + 2 <= b.length && !seen.has(ifd);) {
    seen.add(ifd);
    const n = r16(b, ifd);
    for (let i = 0; i < n; i++) {
      const e = ifd + 2 + 12 * i;
      if (e + 12 > b.length) break;
      const tag = r16(b, e),
        type = r16(b, e + 2);
      const value = type === 3 ? r16(b, e + 8) : r32(b, e + 8);
      if (tag === 256) h.width = Math.max(h.width, value);
      if (tag === 257) h.height = Math.max(h.height, value);
    }
    if (++h.frames > frameCap) {
      h.capped = true;
      break;
    }
    const next = ifd + 2 + 12 * n;
    ifd = next + 4 <= b.length ? r32(b, next) : 0;
  }
  h.frames = Math.max(1, h.frames);
  return h;
}

/** ICO/CUR: ICONDIR (reserved 0, type 1|2, count) then 16-byte entries; a 0 size byte means 256. */
export function sniffIco(b: Uint8Array): ImageHeader | null {
  if (b.length < 6 || u16le(b, 0) !== 0 || (u16le(b, 2) !== 1 && u16le(b, 2) !== 2)) return null;
  const count = u16le(b, 4);
  if (count === 0 || 6 + 16 * count > b.length) return null;
  const h: ImageHeader = { format: "ico", width: 0, height: 0, frames: count };
  for (let i = 0; i < count; i++) {
    const e = 6 + 16 * i;
    h.width = Math.max(h.width, b[e] || 256);
    h.height = Math.max(h.height, b[e + 1] || 256);
    const offset = u32le(b, e + 12); // an embedded PNG may declare more than the entry's byte says
    if (offset + 24 <= b.length && b[offset] === 0x89 && ascii(b, offset + 12, 4) === "IHDR") {
      h.width = Math.max(h.width, u32be(b, offset + 16));
      h.height = Math.max(h.height, u32be(b, offset + 20));
    }
  }
  return h;
}

/** HEIF/AVIF: `ftyp` brand, then the largest `ispe` (image spatial extents) box in the first MiB. */
export function sniffHeif(b: Uint8Array): ImageHeader | null {
  if (b.length < 16 || ascii(b, 4, 4) !== "ftyp") return null;
  const brands = ascii(b, 8, Math.min(u32be(b, 0), 64) - 8);
  const format = /avif|avis/.test(brands) ? "avif" : /hei[cxms]|hev[cx]|mif1|msf1/.test(brands) ? "heic" : null;
  if (!format) return null;
  const h: ImageHeader = { format, width: 0, height: 0, frames: 1 };
  const end = Math.min(b.length - 20, 1 << 20);
  for (let o = 4; o < end; o++) {
    // box: size(4) 'ispe' version+flags(4) width(4) height(4)
    if (b[o] === 0x69 && b[o + 1] === 0x73 && b[o + 2] === 0x70 && b[o + 3] === 0x65 && u32be(b, o - 4) === 20) {
      h.width = Math.max(h.width, u32be(b, o + 8));
      h.height = Math.max(h.height, u32be(b, o + 12));
    }
  }
  return h;
}

const UNIT_PX: Record<string, number> = {
  "": 1,
  px: 1,
  pt: 96 / 72,
  pc: 16,
  in: 96,
  cm: 96 / 2.54,
  mm: 96 / 25.4,
  em: 16,
  ex: 8,
};

/** SVG: the root `<svg>` element's width/height (CSS units → px), else its viewBox size. */
export function sniffSvg(b: Uint8Array): ImageHeader | null {
  const head = new TextDecoder().decode(b.subarray(0, 64 * 1024));
  const root = /<svg\b([^>]*)>/i.exec(head);
  if (!root) return null;
  const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, "i").exec(root[1])?.[1];
  const length = (v: string | undefined) => {
    const m = v ? /^\s*([0-9.eE+-]+)\s*([a-z]*)\s*$/i.exec(v) : null;
    return m && m[2].toLowerCase() in UNIT_PX ? Number(m[1]) * UNIT_PX[m[2].toLowerCase()] : undefined;
  };
  const box = attr("viewBox")
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  const vw = box && box.length === 4 ? box[2] : undefined,
    vh = box && box.length === 4 ? box[3] : undefined;
  let width = length(attr("width")),
    height = length(attr("height"));
  if (width === undefined && height !== undefined && vw && vh) width = (height * vw) / vh;
  if (height === undefined && width !== undefined && vw && vh) height = (width * vh) / vw;
  return { format: "svg", width: Math.ceil(width ?? vw ?? 0), height: Math.ceil(height ?? vh ?? 0), frames: 1 };
}

/**
 * Netpbm (PBM/PGM/PPM, P1–P6; Netpbm's own pnm(5)/ppm(5) pages): the magic, then width, height and
 * (except for bitmaps, P1/P4) maxval as ASCII decimals separated by whitespace, `#` comments to the
 * end of a line. Only the first image is read (the engine decodes no more), so frames is 1.
 */
export function sniffPnm(b: Uint8Array): ImageHeader | null {
  if (b.length < 3 || b[0] !== 0x50 || b[1] < 0x31 || b[1] > 0x36) return null; // "P1".."P6"
  const fields: number[] = [];
  const want = b[1] === 0x31 || b[1] === 0x34 ? 2 : 3;
  const space = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d);
  let o = 2;
  if (!space(b[o]) && b[o] !== 0x23) return null; // "P6x…" is not Netpbm
  const end = Math.min(b.length, 4096); // comments may sit between the fields; a header longer than this is not one
  while (fields.length < want && o < end) {
    if (space(b[o])) o++;
    else if (b[o] === 0x23) while (o < end && b[o] !== 0x0a && b[o] !== 0x0d) o++;
    else {
      let digits = "";
      while (o < end && b[o] >= 0x30 && b[o] <= 0x39 && digits.length < 16) digits += String.fromCharCode(b[o++]);
      if (!digits || (o < end && !space(b[o]) && b[o] !== 0x23)) return null;
      fields.push(Number(digits));
    }
  }
  if (fields.length < want) return null;
  return { format: "ppm", width: fields[0], height: fields[1], frames: 1 };
}

/**
 * Photoshop (PSD, version 1; PSB "large document", version 2): the 26-byte file header of Adobe's
 * "Photoshop File Formats Specification": "8BPS", version u16, 6 reserved bytes, channels u16 (1–56),
 * height u32 @14, width u32 @18, depth u16 (1, 8, 16, 32), colour mode u16. The engine decodes the
 * merged (composite) image only, not the layers, so frames is 1.
 */
export function sniffPsd(b: Uint8Array): ImageHeader | null {
  if (b.length < 26 || ascii(b, 0, 4) !== "8BPS") return null;
  const version = u16be(b, 4);
  const channels = u16be(b, 12);
  const depth = u16be(b, 22);
  if ((version !== 1 && version !== 2) || channels < 1 || channels > 56 || ![1, 8, 16, 32].includes(depth)) {
    return { format: "psd", width: 0, height: 0, frames: 1 }; // the signature but a corrupt header: OPEN_FAILED
  }
  return { format: "psd", width: u32be(b, 18), height: u32be(b, 14), frames: 1 };
}
