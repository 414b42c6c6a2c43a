/**
 * A generated GIMP XCF for the large-image tests (issue 49): the oldest XCF version ("gimp xcf file", v0, which GIMP
 * 2.10 still reads), RGB, one visible RGBA layer of the canvas's size, its tiles stored uncompressed (PROP_COMPRESSION
 * 0), so the file is as large as its pixels (4 bytes each) and a big one is written in a second. The layer's left half
 * is opaque red, its right half opaque blue (native-oracles.ts expectRedLeftBlueRight reads that back). Layout after
 * GIMP's own docs (devel-docs/xcf.txt): header, image properties, layer pointers, channel pointers, the layer (its
 * properties, hierarchy pointer), the hierarchy (one level), the level (64 × 64 tiles, row by row). Written to a file
 * tile row by tile row: never more than one tile row in memory.
 */
import { closeSync, openSync, writeSync } from "node:fs";

const TILE = 64;

/** Big-endian 32-bit words. */
const words = (...ns: number[]) => {
  const b = Buffer.alloc(ns.length * 4);
  ns.forEach((n, i) => b.writeUInt32BE(n >>> 0, i * 4));
  return b;
};

/**
 * Writes a width × height red-left, blue-right XCF to `path`.
 * @returns its size in bytes
 */
export function writeHalvesXcf(path: string, width: number, height: number): number {
  const cols = Math.ceil(width / TILE);
  const rows = Math.ceil(height / TILE);
  const name = Buffer.from("halves\0", "latin1");
  // image: magic, size, RGB; PROP_COMPRESSION (17) none; PROP_END; one layer pointer; no channel
  const imageHead = 14 + 12 + 9 + 8;
  const layerAt = imageHead + 8 + 4;
  const layerLength = 12 + 4 + name.length + (8 + 4) + (8 + 8) + 8 + 8;
  const hierarchyAt = layerAt + layerLength;
  const levelAt = hierarchyAt + 12 + 8;
  const tilesAt = levelAt + 8 + cols * rows * 4 + 4;
  const tileBytes = (c: number, r: number) => Math.min(TILE, width - c * TILE) * Math.min(TILE, height - r * TILE) * 4;
  const fd = openSync(path, "w");
  let at = 0;
  const put = (b: Buffer) => {
    writeSync(fd, b);
    at += b.length;
  };
  try {
    put(Buffer.from("gimp xcf file\0", "latin1"));
    put(words(width, height, 0));
    put(Buffer.concat([words(17, 1), Buffer.from([0])]));
    put(words(0, 0));
    put(words(layerAt, 0)); // layers, then the channels' terminator
    put(words(0));
    // the layer: RGBA (type 1), its name, PROP_VISIBLE (8), PROP_OFFSETS (15) 0,0, PROP_END; hierarchy, no mask
    put(words(width, height, 1, name.length));
    put(name);
    put(words(8, 4, 1));
    put(words(15, 8, 0, 0));
    put(words(0, 0));
    put(words(hierarchyAt, 0));
    // the hierarchy: 4 bytes a pixel, one level, terminator
    put(words(width, height, 4, levelAt, 0));
    // the level: its tiles' offsets, row by row, terminator
    put(words(width, height));
    let offset = tilesAt;
    const offsets: number[] = [];
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < cols; c++) {
        offsets.push(offset);
        offset += tileBytes(c, r);
      }
    put(words(...offsets, 0));
    if (at !== tilesAt) throw new Error(`XCF layout: tiles at ${at}, not ${tilesAt}`);
    for (let r = 0; r < rows; r++) {
      const row: Buffer[] = [];
      for (let c = 0; c < cols; c++) {
        const w = Math.min(TILE, width - c * TILE);
        const h = Math.min(TILE, height - r * TILE);
        const tile = Buffer.alloc(w * h * 4);
        for (let y = 0; y < h; y++)
          for (let x = 0; x < w; x++) {
            const red = c * TILE + x < width / 2;
            tile.set(red ? [255, 0, 0, 255] : [0, 0, 255, 255], (y * w + x) * 4);
          }
        row.push(tile);
      }
      put(Buffer.concat(row));
    }
  } finally {
    closeSync(fd);
  }
  return at;
}
