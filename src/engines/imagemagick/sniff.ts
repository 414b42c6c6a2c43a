/**
 * Cheap header readers: declared width, height and frame count of an image WITHOUT decoding pixels,
 * so budgets are enforced before ImageMagick allocates anything (issue 3: "budgets are checked
 * before decoding"). Each reader returns null when the bytes do not carry that format's signature,
 * and never reads past the buffer. Rules from the format specs: PNG (ISO 15948 IHDR/acTL), JPEG
 * (ITU T.81 SOFn markers), GIF89a (logical screen + image descriptors), WebP (RIFF VP8/VP8L/VP8X/ANMF),
 * BMP (BITMAPINFOHEADER / OS/2 core header).
 */
import type { ImageFormat } from "../kinds/image";

/** What a header declares. `frames` stops counting at the caller's cap + 1 (`capped` then true). */
export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
  frames: number;
  capped?: boolean;
}

const u16be = (b: Uint8Array, o: number) => (b[o] << 8) | b[o + 1];
const u16le = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
const u24le = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8) | (b[o + 2] << 16);
const u32be = (b: Uint8Array, o: number) => ((b[o] << 24) >>> 0) + ((b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]);
const u32le = (b: Uint8Array, o: number) => ((b[o + 3] << 24) >>> 0) + ((b[o + 2] << 16) | (b[o + 1] << 8) | b[o]);
const ascii = (b: Uint8Array, o: number, n: number) => String.fromCharCode(...b.subarray(o, o + n));
export { u16be, u16le, u32be, u32le, ascii };

/** PNG: IHDR width/height; frames from an APNG acTL chunk (before IDAT) else 1. */
export function sniffPng(b: Uint8Array): ImageHeader | null {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (b.length < 24 || sig.some((v, i) => b[i] !== v) || ascii(b, 12, 4) !== "IHDR") return null;
  const h: ImageHeader = { format: "png", width: u32be(b, 16), height: u32be(b, 20), frames: 1 };
  for (let o = 8; o + 8 <= b.length;) {
    const len = u32be(b, o),
      type = ascii(b, o + 4, 4);
    if (type === "IDAT" || type === "IEND") break;
    if (type === "acTL" && o + 12 <= b.length) h.frames = Math.max(1, u32be(b, o + 8));
    o += 12 + len;
  }
  return h;
}

/** JPEG: the first SOFn marker's width/height (markers walked by segment length). */
export function sniffJpeg(b: Uint8Array): ImageHeader | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  for (let o = 2; o + 4 <= b.length;) {
    if (b[o] !== 0xff) return { format: "jpg", width: 0, height: 0, frames: 1 };
    const m = b[o + 1];
    if (m === 0xff) {
      o++;
      continue;
    } // fill bytes
    if (m === 0x01 || (m >= 0xd0 && m <= 0xd8)) {
      o += 2;
      continue;
    } // standalone markers
    const len = u16be(b, o + 2);
    const isSof = m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;
    if (isSof && o + 9 <= b.length)
      return { format: "jpg", height: u16be(b, o + 5), width: u16be(b, o + 7), frames: 1 };
    if (m === 0xd9 || m === 0xda) break; // EOI or scan data before any SOF
    o += 2 + len;
  }
  return { format: "jpg", width: 0, height: 0, frames: 1 }; // signature but no SOF: decoder will fail
}

/** GIF: logical screen and every image descriptor (the largest extent wins); counts frames up to cap+1. */
export function sniffGif(b: Uint8Array, frameCap: number): ImageHeader | null {
  const sig = ascii(b, 0, 6);
  if (b.length < 13 || (sig !== "GIF87a" && sig !== "GIF89a")) return null;
  const h: ImageHeader = { format: "gif", width: u16le(b, 6), height: u16le(b, 8), frames: 0 };
  let o = 13 + (b[10] & 0x80 ? 3 * (2 << (b[10] & 7)) : 0);
  const skipSubBlocks = (p: number) => {
    while (p < b.length && b[p] !== 0) p += b[p] + 1;
    return p + 1;
  };
  while (o < b.length) {
    const t = b[o];
    if (t === 0x3b) break; // trailer
    if (t === 0x21) {
      o = skipSubBlocks(o + 2);
      continue;
    } // extension
    if (t !== 0x2c || o + 10 > b.length) break; // junk after the last frame: stop, the decoder decides
    h.width = Math.max(h.width, u16le(b, o + 1) + u16le(b, o + 5));
    h.height = Math.max(h.height, u16le(b, o + 3) + u16le(b, o + 7));
    const flags = b[o + 9];
    o += 10 + (flags & 0x80 ? 3 * (2 << (flags & 7)) : 0);
    o = skipSubBlocks(o + 1); // LZW minimum code size byte, then image data sub-blocks
    if (++h.frames > frameCap) {
      h.capped = true;
      break;
    }
  }
  h.frames = Math.max(1, h.frames);
  return h;
}

/** WebP: VP8 / VP8L / VP8X canvas size; frames = ANMF chunks (animated) else 1. */
export function sniffWebp(b: Uint8Array, frameCap: number): ImageHeader | null {
  if (b.length < 30 || ascii(b, 0, 4) !== "RIFF" || ascii(b, 8, 4) !== "WEBP") return null;
  const kind = ascii(b, 12, 4);
  const h: ImageHeader = { format: "webp", width: 0, height: 0, frames: 1 };
  if (kind === "VP8 ") {
    h.width = u16le(b, 26) & 0x3fff;
    h.height = u16le(b, 28) & 0x3fff;
  } else if (kind === "VP8L") {
    const bits = u32le(b, 21);
    h.width = (bits & 0x3fff) + 1;
    h.height = ((bits >>> 14) & 0x3fff) + 1;
  } else if (kind === "VP8X") {
    h.width = u24le(b, 24) + 1;
    h.height = u24le(b, 27) + 1;
    let frames = 0;
    for (let o = 12; o + 8 <= b.length; o += 8 + u32le(b, o + 4) + (u32le(b, o + 4) & 1)) {
      if (ascii(b, o, 4) === "ANMF" && ++frames > frameCap) {
        h.capped = true;
        break;
      }
    }
    h.frames = Math.max(1, frames);
  }
  return h;
}

/** BMP: BITMAPINFOHEADER (signed 32-bit, negative height = top-down) or OS/2 core header (16-bit). */
export function sniffBmp(b: Uint8Array): ImageHeader | null {
  if (b.length < 26 || b[0] !== 0x42 || b[1] !== 0x4d) return null;
  const dib = u32le(b, 14);
  if (dib === 12) return { format: "bmp", width: u16le(b, 18), height: u16le(b, 20), frames: 1 };
  const height = u32le(b, 22) | 0;
  return { format: "bmp", width: u32le(b, 18) | 0, height: Math.abs(height), frames: 1 };
}
