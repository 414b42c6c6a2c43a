/**
 * Issue 45's sandbox, a hole found 2026-11-29: documents whose pictures or sections link a local file. LibreOffice
 * reads regular files (not the FIFOs of the egress sweep's probe) and, even with the hardened profile, embedded a
 * linked local picture in the PDF of an .odg. Every document LibreOffice opens now loses such links first
 * (container/office/links.ts). The probe here is a regular file a test owns: a 211×199 red PNG and a text file
 * holding a random secret. Oracles from outside our code: poppler's pdfimages (no image of the probe's size in the
 * output) and pdftotext (the secret nowhere), on the PDF the native engine returns; the document's own words are
 * still there, so the conversion did run.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isStreamed } from "../../native-protocol/frame";
import { execute } from "../../src/runner/execute";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { bytesInput, testContext } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";

const TMP = mkdtempSync(join(tmpdir(), "office-links-"));
const PICTURE = join(TMP, "probe.png");
const SECRET = `LOCALSECRET${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
const TEXT = join(TMP, "probe.txt");
let native: NativeServer;

beforeAll(async () => {
  execFileSync("convert", ["-size", "211x199", "xc:red", PICTURE]);
  writeFileSync(TEXT, `${SECRET}\n`);
  native = await startNativeEngine();
}, scaled(120_000));
afterAll(async () => {
  await native?.stop();
  rmSync(TMP, { recursive: true, force: true });
});

const enc = new TextEncoder();
const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" ' +
  'xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:q="http://www.w3.org/1999/xlink" office:version="1.2"';
const image = (href: string, attr = "xlink:href", before = "") =>
  `<draw:frame svg:width="3cm" svg:height="3cm"><draw:image${before} ${attr}="${href}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame>`;
const odfZip = (mime: string, body: string) =>
  zipSync({
    mimetype: [enc.encode(mime), { level: 0 }],
    "content.xml": enc.encode(
      `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS}><office:body>${body}</office:body></office:document-content>`,
    ),
    "META-INF/manifest.xml": enc.encode(
      `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mime}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
    ),
  });
const WORDS = "Own words of the document";
/** A drawing (Draw follows picture links; Writer, under the profile's "update links: never", did not here). */
const odg = (inner: string) =>
  odfZip(
    "application/vnd.oasis.opendocument.graphics",
    `<office:drawing><draw:page draw:name="p1"><draw:frame svg:x="1cm" svg:y="12cm" svg:width="10cm" svg:height="1cm"><draw:text-box><text:p>${WORDS}</text:p></draw:text-box></draw:frame>${inner}</draw:page></office:drawing>`,
  );
const odt = (inner: string) =>
  odfZip("application/vnd.oasis.opendocument.text", `<office:text><text:p>${WORDS}</text:p>${inner}</office:text>`);
const docx = (rels: string, body: string) =>
  zipSync({
    "[Content_Types].xml": enc.encode(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    "_rels/.rels": enc.encode(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    "word/_rels/document.xml.rels": enc.encode(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`,
    ),
    "word/document.xml": enc.encode(
      `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><w:body><w:p><w:r><w:t>${WORDS}</w:t></w:r></w:p>${body}</w:body></w:document>`,
    ),
  });
const linkedPicture =
  '<w:p><w:r><w:drawing><wp:inline><wp:extent cx="1905000" cy="1800000"/><wp:docPr id="1" name="p"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="p"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:link="rIdL"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1905000" cy="1800000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>';

/** Each case: what it is, the file name, its bytes, and the output asked of LibreOffice (pdf unless said). */
const CASES: [string, string, () => Uint8Array, ("pdf" | "docx")?][] = [
  [
    "an odg whose pictures link the probe by absolute path and file: URL",
    "links.odg",
    () => odg(image(PICTURE) + image(`file://${PICTURE}`)),
  ],
  [
    "an odp whose slide's picture links the probe",
    "slides.odp",
    () =>
      odfZip(
        "application/vnd.oasis.opendocument.presentation",
        `<office:presentation><draw:page draw:name="s1"><draw:frame svg:x="1cm" svg:y="12cm" svg:width="10cm" svg:height="1cm"><draw:text-box><text:p>${WORDS}</text:p></draw:text-box></draw:frame>${image(`file://${PICTURE}`)}</draw:page></office:presentation>`,
      ),
  ],
  [
    "an odg whose picture links the probe under another prefix bound to XLink, after a value holding '>'",
    "prefix.odg",
    () => odg(image(`file://${PICTURE}`, "q:href", ' draw:filter-name="a&gt;b>c"')),
  ],
  [
    "an odg whose picture's link is written with character references (&#102;ile:)",
    "refs.odg",
    () => odg(image(`&#102;ile://${PICTURE}`)),
  ],
  [
    "an odt whose section's source is the probe text (text:section-source)",
    "section.odt",
    () =>
      odt(
        `<text:section text:name="S1"><text:section-source xlink:href="file://${TEXT}" text:filter-name="Text"/><text:p>cached</text:p></text:section>`,
      ),
  ],
  [
    "a flat odt (fodt) whose picture links the probe",
    "flat.fodt",
    () =>
      enc.encode(
        `<?xml version="1.0" encoding="UTF-8"?><office:document ${NS} office:mimetype="application/vnd.oasis.opendocument.text"><office:body><office:text><text:p>${WORDS}</text:p><text:p>${image(`file://${PICTURE}`)}</text:p></office:text></office:body></office:document>`,
      ),
  ],
  [
    "a docx whose picture is an external relationship to the probe (r:link)",
    "linked.docx",
    () =>
      docx(
        `<Relationship Id="rIdL" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="file://${PICTURE}" TargetMode="External"/>`,
        linkedPicture,
      ),
  ],
  [
    "an html page whose img and background name the probe",
    "page.html",
    () =>
      enc.encode(
        `<!DOCTYPE html><html><body background="file://${PICTURE}"><p>${WORDS}</p><img src="file://${PICTURE}"><img src='${PICTURE}'></body></html>`,
      ),
    // html → pdf is Chrome's; LibreOffice's HTML import is html → docx with the office engine
    "docx",
  ],
  [
    "an rtf whose INCLUDEPICTURE and INCLUDETEXT fields name the probes",
    "fields.rtf",
    () =>
      enc.encode(
        `{\\rtf1\\ansi ${WORDS}\\par{\\field{\\*\\fldinst{INCLUDEPICTURE "${PICTURE}" \\\\d}}{\\fldrslt{}}}\\par{\\field{\\*\\fldinst{INCLUDETEXT "${TEXT}"}}{\\fldrslt{cached}}}\\par}`,
      ),
  ],
];

let n = 0;
describe.each([
  ["", false],
  // issue 49: the document streamed to LibreOffice's folder (a 1-byte threshold), its links cut from the file on disk
  [" (streamed: the document reaches LibreOffice as a file on the framed wire)", true],
] as const)("documents linking local files: nothing of the files reaches the output%s", (_how, streamed) => {
  it.each(CASES)(
    "%s",
    async (_what, name, build, output = "pdf") => {
      const r = await execute(
        "convert",
        { output_format: output, engine: "libreoffice" },
        [bytesInput(name, build())],
        streamed
          ? testContext({ engines: native.engines({ streamOver: 1 }), settings: { nativeStreamBytes: 1 } as never })
          : testContext({ engines: native.engines() }),
      );
      expect(r.engine.name).toBe("libreoffice");
      const out = join(TMP, `out-${n++}.${output}`);
      const data = r.out.files[0]!.data;
      // a streamed call answers a stream (a buffered one, bytes)
      expect(isStreamed(data)).toBe(streamed);
      writeFileSync(
        out,
        data instanceof Uint8Array ? data : new Uint8Array(await new Response(data.stream).arrayBuffer()),
      );
      let text: string;
      let images: string[];
      if (output === "pdf") {
        text = execFileSync("pdftotext", [out, "-"], { encoding: "utf8" });
        images = execFileSync("pdfimages", ["-list", out], { encoding: "utf8" })
          .split("\n")
          .slice(2)
          .filter((l) => l.trim())
          .map((l) => l.trim().split(/\s+/).slice(3, 5).join("x"));
      } else {
        // a docx: its text by unzip, each picture it embeds measured by identify
        text = execFileSync("unzip", ["-p", out, "word/document.xml"], { encoding: "utf8" });
        const media = execFileSync("unzip", ["-Z1", out], { encoding: "utf8" })
          .split("\n")
          .filter((m) => m.startsWith("word/media/"));
        images = media.map((m) =>
          execFileSync("identify", ["-format", "%wx%h", "-"], {
            input: execFileSync("unzip", ["-p", out, m]),
          }).toString(),
        );
      }
      expect(text).toContain(WORDS.split(" ")[0]);
      expect(text).not.toContain(SECRET);
      expect(images).not.toContain("211x199");
      expect(readFileSync(PICTURE).byteLength).toBeGreaterThan(0); // the probe is still there to be read
    },
    scaled(120_000),
  );
});
