/**
 * A small PNG encoder for rendered pages (ISO/IEC 15948): 8-bit RGB, or 8-bit grey when every
 * pixel is grey (most text pages: a third of the data to compress), "Up" filter on every row,
 * zlib stream from the platform's CompressionStream("deflate") (native zlib in workerd, Node and
 * browsers; 3–4× faster than deflate in JS or libpng in WASM, measured on pdf.js's tracemonkey.pdf).
 *
 * Split in two steps so the caller can free the WASM bitmap before awaiting the compression:
 * {@link filterRows} (synchronous, reads the bitmap) then {@link encodePng} (async).
 */

/** Filtered scanlines ready for zlib, and the PNG header facts. */
export interface FilteredImage {
  width: number;
  height: number;
  /** PNG colour type: 0 grey, 2 RGB. */
  colorType: 0 | 2;
  /** Rows, each a filter byte (2 = Up) followed by the row's filtered samples. */
  rows: Uint8Array;
}

/**
 * Filters an RGBA bitmap (bytes R,G,B,A; `stride` bytes per row; alpha ignored: pages are rendered
 * on opaque white) into PNG scanlines. `heap` and `offset` address the bitmap (offset divisible by 4).
 */
export function filterRows(
  heap: Uint8Array,
  offset: number,
  width: number,
  height: number,
  stride: number,
): FilteredImage {
  const px = new Uint32Array(heap.buffer, heap.byteOffset + offset, (stride * height) >> 2);
  const perRow = stride >> 2;
  let gray = true;
  outer: for (let y = 0; y < height; y++) {
    for (let i = y * perRow, end = i + width; i < end; i++) {
      const v = px[i];
      if (((v ^ (v >>> 8)) & 0xffff) !== 0) {
        gray = false;
        break outer;
      }
    }
  }
  const bpp = gray ? 1 : 3;
  const rowLen = width * bpp + 1;
  const rows = new Uint8Array(rowLen * height);
  for (let y = 0; y < height; y++) {
    let o = y * rowLen;
    rows[o++] = 2; // Up
    const row = y * perRow;
    const prev = row - perRow;
    for (let x = 0; x < width; x++) {
      const v = px[row + x];
      const p = y > 0 ? px[prev + x] : 0;
      rows[o++] = v - p; // Uint8Array keeps the low byte: (R - Rprev) mod 256
      if (!gray) {
        rows[o++] = (v >>> 8) - (p >>> 8);
        rows[o++] = (v >>> 16) - (p >>> 16);
      }
    }
  }
  return { width, height, colorType: gray ? 0 : 2, rows };
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function zlib(data: Uint8Array): Promise<Uint8Array> {
  const cs = new CompressionStream("deflate");
  const writer = cs.writable.getWriter();
  const written = Promise.all([writer.write(data as Uint8Array<ArrayBuffer>), writer.close()]);
  const out = new Uint8Array(await new Response(cs.readable).arrayBuffer());
  await written;
  return out;
}

/** Encodes filtered rows as a PNG file, with a pHYs chunk for `density` pixels per inch when given. */
export async function encodePng(img: FilteredImage, density?: number): Promise<Uint8Array> {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, img.width);
  v.setUint32(4, img.height);
  ihdr.set([8, img.colorType, 0, 0, 0], 8); // depth 8, colour type, deflate, adaptive filtering, no interlace
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr)];
  if (density) {
    const phys = new Uint8Array(9);
    const ppm = Math.round(density / 0.0254);
    new DataView(phys.buffer).setUint32(0, ppm);
    new DataView(phys.buffer).setUint32(4, ppm);
    phys[8] = 1; // metre
    parts.push(chunk("pHYs", phys));
  }
  parts.push(chunk("IDAT", await zlib(img.rows)), chunk("IEND", new Uint8Array(0)));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
