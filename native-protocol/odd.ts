/**
 * The parts of the `odd` image output (issue 34; CloudConvert's catalogue lists it beside the raster formats): an
 * OpenDocument Drawing (ODF 1.2, application/vnd.oasis.opendocument.graphics, what LibreOffice Draw opens) of one
 * page the picture's own size, the picture placed on it whole and embedded as PNG. Shared by the native engine
 * (container/engines/odd.ts zips them with its stored-zip writer) and the WebAssembly image engine
 * (src/engines/imagemagick/odd.ts, issue 47, with fflate): both write the same package. Pure.
 */

/** The media type an odd is (its `mimetype` member). */
export const ODD_MIME = "application/vnd.oasis.opendocument.graphics";

const enc = new TextEncoder();
const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ' +
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" ' +
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.2"';

/**
 * The members, in package order (`mimetype` first, to be stored uncompressed: ODF 1.2 part 3 §3.3), of the odd of
 * one PNG picture of `width`×`height` pixels at `dpi` pixels per inch: one page of exactly that size in inches, no
 * margins, the picture filling it.
 */
export function oddMembers(
  png: Uint8Array,
  width: number,
  height: number,
  dpi = 96,
): { name: string; data: Uint8Array }[] {
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
  return [
    { name: "mimetype", data: enc.encode(ODD_MIME) },
    { name: "content.xml", data: enc.encode(content) },
    { name: "styles.xml", data: enc.encode(styles) },
    { name: "Pictures/image.png", data: png },
    { name: "META-INF/manifest.xml", data: enc.encode(manifest) },
  ];
}
