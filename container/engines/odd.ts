/**
 * The `odd` image output (issue 34; CloudConvert's catalogue lists it beside the raster formats): an
 * OpenDocument Drawing (ODF 1.2, application/vnd.oasis.opendocument.graphics, what LibreOffice Draw opens)
 * of one page the picture's own size, the picture placed on it whole and embedded as PNG. Written here as
 * a package (a stored zip, the `mimetype` first and uncompressed as ODF requires) rather than by Draw:
 * nothing of the user's runs in LibreOffice to make it, and the test reads it back with LibreOffice.
 * Pure apart from zlib's CRC-32.
 */
import { crc32 } from "node:zlib";

/** The media type an odd is. */
export const ODD_MIME = "application/vnd.oasis.opendocument.graphics";

const enc = new TextEncoder();
const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ' +
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" ' +
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.2"';

/**
 * A zip of `entries` in order, every one stored (method 0): local headers, the central directory and its end
 * record (APPNOTE.TXT 4.3). Names are ASCII; sizes under 4 GiB (no zip64).
 */
export function storedZip(entries: { name: string; data: Uint8Array }[]): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const crc = crc32(e.data) >>> 0;
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true); // version needed: 2.0
    local.setUint32(14, crc, true);
    local.setUint32(18, e.data.byteLength, true);
    local.setUint32(22, e.data.byteLength, true);
    local.setUint16(26, name.byteLength, true);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, 20, true);
    central.setUint16(6, 20, true);
    central.setUint32(16, crc, true);
    central.setUint32(20, e.data.byteLength, true);
    central.setUint32(24, e.data.byteLength, true);
    central.setUint16(28, name.byteLength, true);
    central.setUint32(42, offset, true);
    locals.push(new Uint8Array(local.buffer), name, e.data);
    centrals.push(new Uint8Array(central.buffer), name);
    offset += 30 + name.byteLength + e.data.byteLength;
  }
  const size = centrals.reduce((n, c) => n + c.byteLength, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, size, true);
  end.setUint32(16, offset, true);
  const parts = [...locals, ...centrals, new Uint8Array(end.buffer)];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/**
 * The odd (OpenDocument Drawing) of one PNG picture of `width`×`height` pixels at `dpi` pixels per inch: one
 * page of exactly that size in inches, no margins, the picture filling it.
 */
export function oddOfPng(png: Uint8Array, width: number, height: number, dpi = 96): Uint8Array {
  const w = `${(width / dpi).toFixed(4)}in`;
  const h = `${(height / dpi).toFixed(4)}in`;
  const styles =
    // LibreOffice 7.4 applies the page layout only when the document has an office:styles element, even an empty one
    `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${NS}><office:styles/><office:automatic-styles>` +
    `<style:page-layout style:name="PM1"><style:page-layout-properties fo:margin-top="0in" fo:margin-bottom="0in" ` +
    `fo:margin-left="0in" fo:margin-right="0in" fo:page-width="${w}" fo:page-height="${h}" ` +
    `style:print-orientation="${width > height ? "landscape" : "portrait"}"/></style:page-layout>` +
    `<style:style style:name="dp1" style:family="drawing-page"><style:drawing-page-properties draw:fill="none"/></style:style>` +
    `</office:automatic-styles><office:master-styles><style:master-page style:name="Default" style:page-layout-name="PM1" ` +
    `draw:style-name="dp1"/></office:master-styles></office:document-styles>`;
  const content =
    `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS}><office:automatic-styles>` +
    `<style:style style:name="gr1" style:family="graphic"><style:graphic-properties draw:stroke="none" draw:fill="none"/></style:style>` +
    `</office:automatic-styles><office:body><office:drawing><draw:page draw:name="page1" draw:master-page-name="Default">` +
    `<draw:frame draw:style-name="gr1" draw:name="image" svg:x="0in" svg:y="0in" svg:width="${w}" svg:height="${h}">` +
    `<draw:image xlink:href="Pictures/image.png" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/>` +
    `</draw:frame></draw:page></office:drawing></office:body></office:document-content>`;
  const manifest =
    `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">` +
    `<manifest:file-entry manifest:full-path="/" manifest:version="1.2" manifest:media-type="${ODD_MIME}"/>` +
    `<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>` +
    `<manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/>` +
    `<manifest:file-entry manifest:full-path="Pictures/image.png" manifest:media-type="image/png"/>` +
    `</manifest:manifest>`;
  return storedZip([
    { name: "mimetype", data: enc.encode(ODD_MIME) },
    { name: "content.xml", data: enc.encode(content) },
    { name: "styles.xml", data: enc.encode(styles) },
    { name: "Pictures/image.png", data: png },
    { name: "META-INF/manifest.xml", data: enc.encode(manifest) },
  ]);
}
