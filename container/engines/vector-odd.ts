/**
 * The `odd` output of vector drawings (issue 33; CloudConvert's name for an OpenDocument Drawing, the
 * package LibreOffice Draw opens, media type application/vnd.oasis.opendocument.graphics): one page the
 * drawing's size holding the drawing as an SVG picture, with a PNG of it as the fallback picture for
 * readers without SVG (ODF 1.2 §10.4.2: a frame's later draw:image elements are alternatives), as
 * LibreOffice itself stores SVG pictures. Inkscape writes both pictures (container/engines/inkscape.ts);
 * this file only packs them. The images helper's image → odd writer (issue 34) is separate on purpose.
 */
import { crc32 } from "node:zlib";

/** The media type of an odd. */
export const ODG_MIME = "application/vnd.oasis.opendocument.graphics";

const enc = new TextEncoder();

/** A zip of `entries` in order, each stored (method 0), as ODF wants the `mimetype` first (APPNOTE.TXT 4.3). */
function storedZip(entries: { name: string; data: Uint8Array }[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const crc = crc32(e.data) >>> 0;
    const local = new Uint8Array(30 + name.length);
    const v = new DataView(local.buffer);
    v.setUint32(0, 0x04034b50, true);
    v.setUint16(4, 20, true);
    v.setUint32(14, crc, true);
    v.setUint32(18, e.data.length, true);
    v.setUint32(22, e.data.length, true);
    v.setUint16(26, name.length, true);
    local.set(name, 30);
    const c = new Uint8Array(46 + name.length);
    const w = new DataView(c.buffer);
    w.setUint32(0, 0x02014b50, true);
    w.setUint16(4, 20, true);
    w.setUint16(6, 20, true);
    w.setUint32(16, crc, true);
    w.setUint32(20, e.data.length, true);
    w.setUint32(24, e.data.length, true);
    w.setUint16(28, name.length, true);
    w.setUint32(42, offset, true);
    c.set(name, 46);
    parts.push(local, e.data);
    central.push(c);
    offset += local.length + e.data.length;
  }
  const size = central.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22);
  const d = new DataView(end.buffer);
  d.setUint32(0, 0x06054b50, true);
  d.setUint16(8, entries.length, true);
  d.setUint16(10, entries.length, true);
  d.setUint32(12, size, true);
  d.setUint32(16, offset, true);
  const all = [...parts, ...central, end];
  const out = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of all) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The odd of a drawing: `svg` (plain SVG) and `png` (its rendering) on one page of `widthCm` × `heightCm`.
 * Sizes are centimetres (> 0).
 */
export function oddOfDrawing(svg: Uint8Array, png: Uint8Array, widthCm: number, heightCm: number): Uint8Array {
  const w = `${widthCm.toFixed(3)}cm`;
  const h = `${heightCm.toFixed(3)}cm`;
  const ns =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ' +
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" ' +
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.2"';
  const styles = `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${ns}><office:automatic-styles><style:page-layout style:name="PM1"><style:page-layout-properties fo:margin-top="0cm" fo:margin-bottom="0cm" fo:margin-left="0cm" fo:margin-right="0cm" fo:page-width="${w}" fo:page-height="${h}" style:print-orientation="${widthCm > heightCm ? "landscape" : "portrait"}"/></style:page-layout></office:automatic-styles><office:master-styles><style:master-page style:name="Default" style:page-layout-name="PM1"/></office:master-styles></office:document-styles>`;
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ns}><office:body><office:drawing><draw:page draw:name="page1" draw:master-page-name="Default"><draw:frame draw:name="drawing" svg:x="0cm" svg:y="0cm" svg:width="${w}" svg:height="${h}"><draw:image xlink:href="Pictures/drawing.svg" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad" draw:mime-type="image/svg+xml"/><draw:image xlink:href="Pictures/drawing.png" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad" draw:mime-type="image/png"/></draw:frame></draw:page></office:drawing></office:body></office:document-content>`;
  const manifest = `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:version="1.2" manifest:media-type="${ODG_MIME}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="Pictures/drawing.svg" manifest:media-type="image/svg+xml"/><manifest:file-entry manifest:full-path="Pictures/drawing.png" manifest:media-type="image/png"/></manifest:manifest>`;
  return storedZip([
    { name: "mimetype", data: enc.encode(ODG_MIME) },
    { name: "content.xml", data: enc.encode(content) },
    { name: "styles.xml", data: enc.encode(styles) },
    { name: "Pictures/drawing.svg", data: svg },
    { name: "Pictures/drawing.png", data: png },
    { name: "META-INF/manifest.xml", data: enc.encode(manifest) },
  ]);
}
