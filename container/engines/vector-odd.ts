/**
 * The `odd` output of vector drawings (issue 33; CloudConvert's name for an OpenDocument Drawing, the
 * package LibreOffice Draw opens, media type application/vnd.oasis.opendocument.graphics): one page the
 * drawing's size holding the drawing as an SVG picture, with a PNG of it as the fallback picture for
 * readers without SVG (ODF 1.2 §10.4.2: a frame's later draw:image elements are alternatives), as
 * LibreOffice itself stores SVG pictures. Inkscape writes both pictures (container/engines/inkscape.ts);
 * this file only packs them. The images helper's image → odd writer (issue 34, odd.ts) is separate on
 * purpose; the two share only the stored zip (container/lib/stored-zip.ts).
 */
import { storedZip } from "../lib/stored-zip.ts";

/** The media type of an odd. */
export const ODG_MIME = "application/vnd.oasis.opendocument.graphics";

const enc = new TextEncoder();

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
