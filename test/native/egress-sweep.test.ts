/**
 * The egress sweep (issue 45 item 2): for every engine row that parses a document format, inputs that name a loopback
 * counting server (test/support/hostile-probes.ts) in the ways the format allows — linked images, stylesheets,
 * XInclude, external entities, fields, OLE links, WEBSERVICE(), playlists, CSS url(), SVG <use>/<image>/<feImage>,
 * EPUB remote resources, TeX \input/\includegraphics, font src() — and, where the format names files rather than URLs,
 * a regular file whose reading the test sees by its access time (readWatchedFile; a FIFO, the earlier probe, is
 * never opened by LibreOffice, which reads regular files only). Each input is converted by its row (pinned with the task's
 * `engine`) to the row's main outputs. The oracle is outside the engines: the counting server sees no request and no
 * TCP connection from any case, no watched file is read, and the output still arrives — or, where the reference was the
 * document's only content (a playlist), a coded TaskError.
 *
 * The table {@link EGRESS_CASES} is checked against the engine table (src/engines/registry.ts ENGINES): every row that
 * reads documents has ≥ 3 reference kinds here, so a new row without egress cases fails; the rows that read no format
 * able to name another file are listed in {@link EGRESS_EXEMPT} with the reason.
 *
 * Runs the native engine (container/server.ts), the WebAssembly engines in Node (nodeEngines) and Debian's Chromium
 * with the Chrome engine's own guard and rendering (test/support/chrome-node.ts).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type EngineRow } from "../../src/engines/registry";
import { TaskError } from "../../src/engines/errors";
import { execute } from "../../src/runner/execute";
import { nodeEngines } from "../../src/runtime/node/engines";
import { launchNodeChrome, type NodeChrome } from "../support/chrome-node";
import { epub } from "../support/hostile-documents";
import { readWatchedFile, startCountingServer, type CountingServer } from "../support/hostile-probes";
import { nativeEngineForFile } from "../support/native-engine";
import { bytesInput, dataOf, testContext } from "../support/pdf-helpers";
import { fetchVectors } from "../support/script-vectors";
import { scaled } from "../support/time-scale";

/** What a case's input builder is handed: addresses on the counting server of its own, and watched local files. */
export interface EgressRefs {
  /** `http://127.0.0.1:PORT/<case>/<name>`: a URL on the counting server only this case names. */
  url(name: string): string;
  /** `127.0.0.1:PORT`. */
  host: string;
  /** An absolute path to a FIFO the case watches: a tool that opens it (to read the file it names) fails the case. */
  file(name: string): string;
}

/** One egress case: a row, a way its input format names something outside the document, and where it goes. */
export interface EgressCase {
  /** The engine-table row (ENGINES[].name), pinned with the task's `engine` unless `pin` says otherwise. */
  row: string;
  /** The reference kind, e.g. "linked image", "XInclude", "HLS segment". */
  kind: string;
  /** The input document naming the counting server (and/or a watched file), as file name and bytes. */
  input: (r: EgressRefs) => { name: string; data: Uint8Array | string };
  /** Output formats (convert's `output_format`); one conversion each. */
  outputs: readonly string[];
  /** The operation (default convert). */
  operation?: string;
  /** Extra task parameters. */
  params?: Record<string, unknown>;
  /** The task's `engine` (default `row`): an alias where the row's own name is another row's too. */
  pin?: string;
  /**
   * What the conversion must end in: an output (default), a TaskError of this code (the reference was the document's
   * only content), or either ("any": an output or a coded error other than INTERNAL_ERROR).
   */
  expect?: "output" | "any" | string;
  /**
   * A known leak, not fixed yet (why, in words): TCP connections to the counting server without a request are logged
   * instead of failing the case. HTTP requests still fail it.
   */
  knownConnection?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// input builders
// ---------------------------------------------------------------------------------------------------------------

const utf8 = (s: string) => new TextEncoder().encode(s);

/** An SVG of 120 × 60 with a white background and a black square (so every case has something to draw) and `body`. */
const svg = (body: string, doctype = "", defs = "") =>
  `<?xml version="1.0" encoding="UTF-8"?>${doctype}<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:xi="http://www.w3.org/2001/XInclude" width="120" height="60" viewBox="0 0 120 60">${defs}<rect width="120" height="60" fill="white"/><rect x="10" y="10" width="40" height="40" fill="black"/>${body}</svg>`;

/** The ways an SVG names another resource, each a case of its own for every SVG-reading row. */
const SVG_KINDS: [string, (r: EgressRefs) => string, EgressCase["expect"]?][] = [
  [
    "<image href> (http and file)",
    (r) =>
      svg(
        `<image x="60" y="0" width="60" height="60" href="${r.url("image.png")}"/><image x="60" y="0" width="60" height="60" xlink:href="file://${r.file("image.png")}"/>`,
      ),
  ],
  [
    "<use href> into another document",
    (r) => svg(`<use href="${r.url("use.svg")}#g"/><use xlink:href="${r.file("use.svg")}#g"/>`),
  ],
  [
    "<feImage href> in a filter",
    (r) =>
      svg(
        `<filter id="f"><feImage href="${r.url("feimage.png")}"/></filter><rect x="60" width="60" height="60" filter="url(#f)"/>`,
      ),
  ],
  [
    "CSS @import, url() and @font-face src()",
    (r) =>
      svg(
        `<text x="60" y="40" font-family="Remote" font-size="20">Ab</text>`,
        "",
        `<style>@import url("${r.url("import.css")}"); rect { fill: url("${r.url("fill.svg")}#p") } @font-face { font-family: Remote; src: url("${r.url("font.ttf")}") }</style>`,
      ),
  ],
  [
    "external entities (http and file) and XInclude",
    (r) =>
      svg(
        `<text x="60" y="40" font-size="10">[&web;][&local;]</text><xi:include href="${r.url("xinclude.svg")}" parse="xml"/>`,
        `<!DOCTYPE svg [<!ENTITY web SYSTEM "${r.url("entity.txt")}"><!ENTITY local SYSTEM "file://${r.file("entity.txt")}">]>`,
      ),
    // resvg, Inkscape and FontForge refuse an SVG declaring an external entity (OPEN_FAILED), ImageMagick renders it
    "any",
  ],
];

/** Cases for an SVG-reading row: one per {@link SVG_KINDS} entry. */
const svgCases = (row: string, outputs: readonly string[], extra: Partial<EgressCase> = {}): EgressCase[] =>
  SVG_KINDS.map(([kind, build, expect]) => ({
    row,
    kind,
    input: (r) => ({ name: "refs.svg", data: build(r) }),
    outputs,
    ...(expect ? { expect } : {}),
    ...extra,
  }));

/**
 * A one-page PDF saying "Egress probe" whose objects `extra` (numbered from 6, "N 0 obj" added here) and whose
 * catalogue and page entries (`catalog`, `page`) carry the references; `drawn` is appended to the page's content.
 */
function pdf(parts: {
  catalog?: string;
  page?: string;
  resources?: string;
  drawn?: string;
  extra?: string[];
}): Uint8Array {
  const content = `BT /F1 24 Tf 72 720 Td (Egress probe) Tj ET ${parts.drawn ?? ""}`;
  const objects = [
    `<< /Type /Catalog /Pages 2 0 R ${parts.catalog ?? ""} >>`,
    `<< /Type /Pages /Kids [3 0 R] /Count 1 >>`,
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> ${parts.resources ?? ""} >> ${parts.page ?? ""} >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>`,
    ...(parts.extra ?? []),
  ];
  let out = "%PDF-1.7\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return utf8(out);
}

/** The ways a PDF names something outside itself. */
const PDF_KINDS: [string, (r: EgressRefs) => Uint8Array][] = [
  [
    "an image XObject whose data is an external file (/F /FS /URL, and a local path)",
    (r) =>
      pdf({
        resources: "/XObject << /Im1 6 0 R /Im2 7 0 R >>",
        drawn: "q 100 0 0 100 72 500 cm /Im1 Do Q q 100 0 0 100 200 500 cm /Im2 Do Q",
        extra: [
          `<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 0 /F << /FS /URL /F (${r.url("external-stream")}) >> >>\nstream\n\nendstream`,
          `<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 0 /F (${r.file("external-stream")}) >>\nstream\n\nendstream`,
        ],
      }),
  ],
  [
    "open actions: URI, remote go-to (GoToR to a URL), SubmitForm, ImportData, Launch",
    (r) =>
      pdf({
        catalog: "/OpenAction 6 0 R",
        extra: [
          `<< /S /URI /URI (${r.url("open-uri")}) /Next [7 0 R 8 0 R 9 0 R 10 0 R] >>`,
          `<< /S /GoToR /F << /FS /URL /F (${r.url("gotor.pdf")}) >> /D [0 /Fit] >>`,
          `<< /S /SubmitForm /F << /FS /URL /F (${r.url("submit")}) >> >>`,
          `<< /S /ImportData /F (${r.file("import.fdf")}) >>`,
          `<< /S /Launch /F (${r.file("launch")}) >>`,
        ],
      }),
  ],
  [
    "document JavaScript and an XFA form naming URLs",
    (r) =>
      pdf({
        catalog: "/Names << /JavaScript << /Names [(a) 6 0 R] >> >> /AcroForm << /Fields [] /XFA 7 0 R >>",
        extra: [
          `<< /S /JavaScript /JS (app.launchURL\\("${r.url("js-launch")}"\\); this.submitForm\\("${r.url("js-submit")}"\\); this.importDataObject\\("x", "${r.file("js-import")}"\\);) >>`,
          (() => {
            const xfa = `<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><template xmlns="http://www.xfa.org/schema/xfa-template/3.3/"><subform><field><value><image href="${r.url("xfa-image.png")}"/></value></field></subform></template><xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="${r.url("xfa-include")}"/></xdp:xdp>`;
            return `<< /Length ${xfa.length} >>\nstream\n${xfa}\nendstream`;
          })(),
        ],
      }),
  ],
  [
    "link annotations (URI, remote go-to) and an embedded-file spec naming a URL",
    (r) =>
      pdf({
        page: "/Annots [6 0 R 7 0 R]",
        catalog: "/Names << /EmbeddedFiles << /Names [(x) 8 0 R] >> >>",
        extra: [
          `<< /Type /Annot /Subtype /Link /Rect [72 700 300 740] /A << /S /URI /URI (${r.url("link")}) >> >>`,
          `<< /Type /Annot /Subtype /Link /Rect [72 600 300 640] /A << /S /GoToR /F << /FS /URL /F (${r.url("link.pdf")}) >> /D [0 /Fit] >> >>`,
          `<< /Type /Filespec /FS /URL /F (${r.url("embedded")}) /UF (${r.url("embedded-uf")}) >>`,
        ],
      }),
  ],
];

/** Cases for a PDF-reading row: one per {@link PDF_KINDS} entry. */
const pdfCases = (row: string, outputs: readonly string[], extra: Partial<EgressCase> = {}): EgressCase[] =>
  PDF_KINDS.map(([kind, build]) => ({
    row,
    kind,
    input: (r) => ({ name: "refs.pdf", data: build(r) }),
    outputs,
    ...extra,
  }));

/** A flat ODF text document (.fodt) with `body` after a paragraph of its own; `doctype` before the root. */
const fodt = (body: string, doctype = "") => `<?xml version="1.0" encoding="UTF-8"?>${doctype}
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:xi="http://www.w3.org/2001/XInclude" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:body><office:text><text:p>Own words of the document</text:p>${body}</office:text></office:body></office:document>`;

/** A picture frame of ODF linking `href` (xlink:show embed, loaded on open). */
const odfImage = (href: string) =>
  `<text:p><draw:frame svg:width="2cm" svg:height="2cm"><draw:image xlink:href="${href}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>`;

/** A flat ODF spreadsheet (.fods) whose cells are `cells` (table:table-cell elements). */
const fods = (cells: string) => `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:body><office:spreadsheet><table:table table:name="Sheet1"><table:table-row><table:table-cell office:value-type="string"><text:p>Own cell</text:p></table:table-cell>${cells}</table:table-row></table:table></office:spreadsheet></office:body></office:document>`;

/**
 * A minimal xlsx whose one sheet's XML has `cells` in row 1 after an own cell, and `after` after its sheetData; `rels`
 * adds sheet relationships, `workbookRels` and `parts` an external link part (xl/externalLinks/…) or others.
 */
const xlsxBook = (
  cells: string,
  opts: { after?: string; rels?: string; workbookRels?: string; parts?: Record<string, string> } = {},
) => {
  const ns = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
  const rels = (body: string) =>
    utf8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${body}</Relationships>`,
    );
  return zipSync({
    "[Content_Types].xml": utf8(
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/externalLinks/externalLink1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.externalLink+xml"/></Types>`,
    ),
    "_rels/.rels": rels(
      `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>`,
    ),
    "xl/workbook.xml": utf8(
      `<?xml version="1.0" encoding="UTF-8"?><workbook ${ns}><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets>${opts.workbookRels ? `<externalReferences><externalReference r:id="rIdX"/></externalReferences>` : ""}</workbook>`,
    ),
    "xl/_rels/workbook.xml.rels": rels(
      `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>${opts.workbookRels ?? ""}`,
    ),
    "xl/worksheets/sheet1.xml": utf8(
      `<?xml version="1.0" encoding="UTF-8"?><worksheet ${ns}><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Own cell</t></is></c>${cells}</row></sheetData>${opts.after ?? ""}</worksheet>`,
    ),
    ...(opts.rels ? { "xl/worksheets/_rels/sheet1.xml.rels": rels(opts.rels) } : {}),
    ...Object.fromEntries(Object.entries(opts.parts ?? {}).map(([k, v]) => [k, utf8(v)])),
  });
};

/** A minimal DOCX whose body XML is `body` and whose document relationships add `rels`. */
const docx = (body: string, rels: string) =>
  zipSync({
    "[Content_Types].xml": utf8(
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    ),
    "_rels/.rels": utf8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    "word/_rels/document.xml.rels": utf8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`,
    ),
    "word/document.xml": utf8(
      `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"><w:body><w:p><w:r><w:t>Own words of the document</w:t></w:r></w:p>${body}</w:body></w:document>`,
    ),
  });

/** A DrawingML picture whose blip is the relationship `rId` (linked, not embedded). */
const docxLinkedPicture = (rId: string) =>
  `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="P"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="P"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:link="${rId}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="914400" cy="914400"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;

/** A Word field `instr` with a cached result, as complex-field runs. */
const docxField = (instr: string) =>
  `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${instr} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>cached</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`;

/** An XPS package (one page) whose page markup is `page`, its document `fdoc` and its sequence `fdseq` overridable. */
function xps(page: string, refs?: { fdseq?: string; fdoc?: string }): Uint8Array {
  const x = (s: string) => utf8(`<?xml version="1.0" encoding="UTF-8"?>${s}`);
  return zipSync({
    "[Content_Types].xml": x(
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="fdseq" ContentType="application/vnd.ms-package.xps-fixeddocumentsequence+xml"/><Default Extension="fdoc" ContentType="application/vnd.ms-package.xps-fixeddocument+xml"/><Default Extension="fpage" ContentType="application/vnd.ms-package.xps-fixedpage+xml"/></Types>`,
    ),
    "_rels/.rels": x(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.microsoft.com/xps/2005/06/fixedrepresentation" Target="/FixedDocSeq.fdseq"/></Relationships>`,
    ),
    "FixedDocSeq.fdseq": x(
      `<FixedDocumentSequence xmlns="http://schemas.microsoft.com/xps/2005/06">${refs?.fdseq ?? ""}<DocumentReference Source="/Documents/1/FixedDoc.fdoc"/></FixedDocumentSequence>`,
    ),
    "Documents/1/FixedDoc.fdoc": x(
      `<FixedDocument xmlns="http://schemas.microsoft.com/xps/2005/06">${refs?.fdoc ?? ""}<PageContent Source="/Documents/1/Pages/1.fpage"/></FixedDocument>`,
    ),
    "Documents/1/Pages/1.fpage": x(
      `<FixedPage xmlns="http://schemas.microsoft.com/xps/2005/06" xmlns:x="http://schemas.microsoft.com/xps/2005/06/resourcedictionary-key" Width="200" Height="100" xml:lang="en"><Path Data="M 10,10 L 90,10 90,90 10,90 Z" Fill="#FF000000"/>${page}</FixedPage>`,
    ),
  });
}

/** An IFF chunk of DjVu: id, big-endian length, data, padded to even. */
function djvuChunk(id: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + data.length + (data.length % 2));
  out.set(utf8(id), 0);
  new DataView(out.buffer).setUint32(4, data.length);
  out.set(data, 8);
  return out;
}
const cat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
};
/** A FORM of DjVu of type `type` ("DJVU", "DJVM") holding `chunks`, with the AT&T prefix. */
const djvuForm = (type: string, chunks: Uint8Array[]) =>
  cat(utf8("AT&T"), djvuChunk("FORM", cat(utf8(type), ...chunks)));
/** A blank 100 × 50 page's INFO chunk (300 dpi, version 24). */
const djvuInfo = () => djvuChunk("INFO", new Uint8Array([0, 100, 0, 50, 24, 0, 0x2c, 0x01, 22, 1]));
/** `data` compressed by DjVuLibre's BZZ (`bzz -e`), as DIRM and NAVM chunks hold it. */
function bzz(data: Uint8Array): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), "egress-bzz-"));
  try {
    writeFileSync(join(dir, "in"), data);
    execFileSync("bzz", ["-e", join(dir, "in"), join(dir, "out")]);
    return new Uint8Array(readFileSync(join(dir, "out")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A DXF (R12 sections) whose tables, blocks, entities and objects are given as group-code/value lines. */
const dxf = (p: { tables?: string[]; blocks?: string[]; entities?: string[]; objects?: string[] }) =>
  [
    ...(p.tables ? ["0", "SECTION", "2", "TABLES", ...p.tables, "0", "ENDSEC"] : []),
    ...(p.blocks ? ["0", "SECTION", "2", "BLOCKS", ...p.blocks, "0", "ENDSEC"] : []),
    "0",
    "SECTION",
    "2",
    "ENTITIES",
    ...["0", "LINE", "8", "0", "10", "0", "20", "0", "30", "0", "11", "100", "21", "100", "31", "0"],
    ...(p.entities ?? []),
    "0",
    "ENDSEC",
    ...(p.objects ? ["0", "SECTION", "2", "OBJECTS", ...p.objects, "0", "ENDSEC"] : []),
    "0",
    "EOF",
    "",
  ].join("\n");

/** An HLS media playlist whose one segment is `segment`, with extra tag lines `tags`. */
const hls = (segment: string, tags = "") =>
  `#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:3\n${tags}#EXTINF:2.0,\n${segment}\n#EXT-X-ENDLIST\n`;

/** The ways a media input names other files (each disguised as an .mp3: ffmpeg picks its demuxer by content). */
const MEDIA_KINDS: [string, (r: EgressRefs) => string][] = [
  ["HLS segment (http and a local path)", (r) => hls(r.url("segment.ts")) + `#EXTINF:2.0,\n${r.file("segment.ts")}\n`],
  [
    "HLS key and init section (EXT-X-KEY, EXT-X-MAP)",
    (r) => hls("seg.ts", `#EXT-X-KEY:METHOD=AES-128,URI="${r.url("key")}"\n#EXT-X-MAP:URI="${r.url("init.mp4")}"\n`),
  ],
  [
    "HLS master playlist naming a variant",
    (r) => `#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\n${r.url("variant.m3u8")}\n`,
  ],
  [
    "ffconcat list (http and a local path)",
    (r) => `ffconcat version 1.0\nfile ${r.url("concat.mp3")}\nfile ${r.file("concat.mp3")}\n`,
  ],
  [
    "DASH manifest (BaseURL, SegmentTemplate)",
    (r) =>
      `<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT2S" minBufferTime="PT1S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011"><BaseURL>${r.url("dash/")}</BaseURL><Period><AdaptationSet mimeType="audio/mp4"><Representation id="a" bandwidth="1000" codecs="mp4a.40.2"><SegmentTemplate initialization="${r.url("dash-init.mp4")}" media="${r.url("dash-$Number$.m4s")}" duration="2" startNumber="1"/></Representation></AdaptationSet></Period></MPD>`,
  ],
];

/** Cases for a media row: each {@link MEDIA_KINDS} playlist as x.mp3 → `outputs`, refused with a code. */
const mediaCases = (row: string, outputs: readonly string[]): EgressCase[] =>
  MEDIA_KINDS.map(([kind, build]) => ({
    row,
    kind,
    input: (r) => ({ name: "x.mp3", data: build(r) }),
    outputs,
    expect: "any",
  }));

/** A tar (GNU tar, run here) of `members` under a scratch folder, with a symlink and a hard link to `target`. */
function tarWithLinks(target: string, extra: (dir: string) => void = () => {}): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), "egress-tar-"));
  try {
    writeFileSync(join(dir, "own.txt"), "own member\n");
    execFileSync("ln", ["-s", target, join(dir, "symlink-out")]);
    extra(dir);
    execFileSync("tar", ["-cf", join(dir, "a.tar"), "-C", dir, "own.txt", "symlink-out"]);
    return new Uint8Array(readFileSync(join(dir, "a.tar")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A ustar tar written here byte by byte: `own.txt` and entries of `type` ("1" hard link, "2" symlink, "0" a file)
 * named `name` with link target `link` (tar can't write a hard link to a file outside its folder, or an absolute name).
 */
function tarEntries(entries: { name: string; type: string; link?: string; data?: string }[]): Uint8Array {
  const blocks: Uint8Array[] = [];
  const header = (name: string, type: string, size: number, link = "") => {
    const h = new Uint8Array(512);
    const put = (s: string, at: number) => h.set(utf8(s), at);
    put(name, 0);
    put("0000644\0", 100);
    put("0000000\0", 108);
    put("0000000\0", 116);
    put(size.toString(8).padStart(11, "0") + "\0", 124);
    put("00000000000\0", 136);
    put("        ", 148);
    put(type, 156);
    put(link, 157);
    put("ustar\0", 257);
    put("00", 263);
    const sum = h.reduce((a, b) => a + b, 0);
    put(sum.toString(8).padStart(6, "0") + "\0 ", 148);
    return h;
  };
  for (const e of [{ name: "own.txt", type: "0", data: "own member\n" }, ...entries]) {
    const data = utf8(e.data ?? "");
    blocks.push(header(e.name, e.type, data.length, e.link));
    if (data.length) {
      const b = new Uint8Array(Math.ceil(data.length / 512) * 512);
      b.set(data);
      blocks.push(b);
    }
  }
  blocks.push(new Uint8Array(1024));
  return cat(...blocks);
}

/** The ways an archive names something outside itself: links and member names that point out, and shortcut files. */
const ARCHIVE_KINDS: [string, (r: EgressRefs) => Uint8Array][] = [
  ["a symbolic link member to a local file", (r) => tarWithLinks(r.file("symlink-target"))],
  [
    "a hard link member to a local file",
    (r) => tarEntries([{ name: "hardlink-out", type: "1", link: r.file("hardlink-target") }]),
  ],
  [
    "member names that leave the folder (absolute, ../) over a local file",
    (r) =>
      tarEntries([
        { name: r.file("absolute-member"), type: "0", data: "overwritten" },
        { name: `../../../../../..${r.file("dotdot-member")}`, type: "0", data: "overwritten" },
      ]),
  ],
  [
    "shortcut members naming the server (.url, .webloc, .desktop)",
    (r) =>
      tarEntries([
        { name: "link.url", type: "0", data: `[InternetShortcut]\nURL=${r.url("shortcut.url")}\n` },
        {
          name: "link.webloc",
          type: "0",
          data: `<?xml version="1.0"?><plist version="1.0"><dict><key>URL</key><string>${r.url("webloc")}</string></dict></plist>`,
        },
        { name: "link.desktop", type: "0", data: `[Desktop Entry]\nType=Link\nURL=${r.url("desktop")}\n` },
      ]),
  ],
];

/** `data` compressed by `tool -c` (lzip, lzop…) run here. */
function compressed(tool: string, data: Uint8Array): Uint8Array {
  return new Uint8Array(execFileSync(tool, ["-c"], { input: data }));
}

// ---------------------------------------------------------------------------------------------------------------
// the table
// ---------------------------------------------------------------------------------------------------------------

/** HTML whose head and body are given, as the Chrome engine gets a task's file. */
const page = (head: string, body: string) =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>T</title>${head}</head><body><p>Own words of the page</p>${body}</body></html>`;

/**
 * KNOWN LEAK (issue 45, found by this sweep): every navigation Chromium starts — a frame's (`<iframe>`, `<object>`,
 * `<embed>`) or the page's own (meta refresh, a form submitted, `location`) — opens a TCP connection to the target host
 * although the guard's request interception refuses the request itself, so no HTTP request is ever sent: Chromium
 * preconnects at navigation start, below DevTools' Fetch interception. Measured with Debian's Chromium: neither
 * `Network.setBlockedURLs` nor `--disable-features=LoadingPredictorUseLocalPredictions,NavigationPredictor` nor
 * `--dns-prefetch-disable` stops it. A page can thus make a bare TCP connect to a private address (a port probe; no byte
 * is sent). Cases carrying this mark still require zero HTTP requests; their connections are logged, not asserted.
 */
const NAVIGATION_PRECONNECT =
  "Chromium preconnects to a navigation's host before the guard's interception refuses the request (no HTTP request is sent)";

/** The ways markup names another file or address, read by pandoc (the native row's cases; pandoc-wasm's the same). */
const PANDOC_CASES: EgressCase[] = [
  {
    row: "pandoc",
    kind: "Markdown images (inline, reference, raw HTML img and iframe) by URL and local path",
    input: (r) => ({
      name: "refs.md",
      data: `# Title\n\nOwn words of the document\n\n![a](${r.url("md-image.png")})\n\n![b][ref]\n\n![c](${r.file("md-image.png")})\n\n<img src="${r.url("raw-img.png")}"><iframe src="${r.url("raw-iframe")}"></iframe>\n\n[ref]: ${r.url("md-ref.png")}\n`,
    }),
    outputs: ["docx", "odt", "html"],
  },
  {
    row: "pandoc",
    kind: "TeX \\input, \\include, \\includegraphics (URL and local path)",
    input: (r) => ({
      name: "refs.tex",
      data: `\\documentclass{article}\\begin{document}\nOwn words of the document\n\n\\input{${r.file("input.tex")}}\n\\include{${r.file("include")}}\n\\includegraphics{${r.url("graphic.png")}}\n\\includegraphics{${r.file("graphic.png")}}\n\\input{${r.url("input.tex")}}\n\\end{document}\n`,
    }),
    outputs: ["html", "pdf"],
  },
  {
    row: "pandoc",
    kind: "reStructuredText image/figure directives, include and raw :url:",
    input: (r) => ({
      name: "refs.rst",
      data: `Title\n=====\n\nOwn words of the document\n\n.. image:: ${r.url("rst-image.png")}\n\n.. figure:: ${r.file("rst-figure.png")}\n\n.. include:: ${r.file("rst-include.rst")}\n\n.. raw:: html\n   :url: ${r.url("rst-raw")}\n`,
    }),
    outputs: ["docx", "html", "pdf"],
  },
  {
    row: "pandoc",
    kind: "reStructuredText csv-table :url: (its table is the reference)",
    input: (r) => ({
      name: "table.rst",
      data: `Title\n=====\n\nOwn words\n\n.. csv-table:: T\n   :url: ${r.url("rst-csv")}\n`,
    }),
    outputs: ["html"],
    // pandoc looks the URL up in its resource path only ("not found in resource path"): the table is required
    expect: "CONVERSION_FAILED",
  },
  {
    row: "pandoc",
    kind: "HTML img, stylesheet link and iframe",
    input: (r) => ({
      name: "page.html",
      data: page(
        `<link rel="stylesheet" href="${r.url("style.css")}">`,
        `<img src="${r.url("img.png")}"><img src="file://${r.file("img.png")}"><iframe src="${r.url("iframe")}"></iframe>`,
      ),
    }),
    outputs: ["docx", "md"],
  },
];

/** Every egress case, by row. */
/** The DXF inputs of the CAD rows' cases (inkscape-cad, dxf), by the reference they make. */
const CAD_INPUTS: Record<string, EgressCase["input"]> = {
  XREF: (r) => ({
    name: "xref.dxf",
    data: dxf({
      blocks: [
        "0",
        "BLOCK",
        "2",
        "XREFBLK",
        "70",
        "4",
        "1",
        r.url("xref.dwg"),
        "10",
        "0",
        "20",
        "0",
        "30",
        "0",
        "0",
        "ENDBLK",
        "0",
        "BLOCK",
        "2",
        "XREFLOCAL",
        "70",
        "4",
        "1",
        r.file("xref.dxf"),
        "10",
        "0",
        "20",
        "0",
        "30",
        "0",
        "0",
        "ENDBLK",
      ],
      entities: [
        "0",
        "INSERT",
        "8",
        "0",
        "2",
        "XREFBLK",
        "10",
        "0",
        "20",
        "0",
        "30",
        "0",
        "0",
        "INSERT",
        "8",
        "0",
        "2",
        "XREFLOCAL",
        "10",
        "0",
        "20",
        "0",
        "30",
        "0",
      ],
    }),
  }),
  IMAGE: (r) => ({
    name: "image.dxf",
    data: dxf({
      entities: [
        "0",
        "IMAGE",
        "8",
        "0",
        "340",
        "ABC",
        "10",
        "0",
        "20",
        "0",
        "30",
        "0",
        "0",
        "PDFUNDERLAY",
        "8",
        "0",
        "340",
        "ABD",
        "10",
        "0",
        "20",
        "0",
        "30",
        "0",
      ],
      objects: [
        "0",
        "IMAGEDEF",
        "5",
        "ABC",
        "1",
        r.url("raster.png"),
        "0",
        "PDFDEFINITION",
        "5",
        "ABD",
        "1",
        r.file("underlay.pdf"),
        "2",
        "1",
      ],
    }),
  }),
  STYLE: (r) => ({
    name: "style.dxf",
    data: dxf({
      tables: [
        "0",
        "TABLE",
        "2",
        "STYLE",
        "70",
        "2",
        "0",
        "STYLE",
        "2",
        "REMOTE",
        "70",
        "0",
        "40",
        "0",
        "41",
        "1",
        "50",
        "0",
        "71",
        "0",
        "42",
        "2.5",
        "3",
        r.url("font.shx"),
        "4",
        r.file("bigfont.shx"),
        "0",
        "ENDTAB",
      ],
      entities: ["0", "TEXT", "8", "0", "7", "REMOTE", "10", "10", "20", "10", "30", "0", "40", "5", "1", "Own words"],
    }),
  }),
};

export const EGRESS_CASES: EgressCase[] = [
  // --- chrome: HTML → pdf (and png) in Chromium behind the engine's guard
  ...(
    [
      [
        "resource hints: link rel prefetch, prerender, preconnect, dns-prefetch, preload, modulepreload",
        (r: EgressRefs) =>
          page(
            `<link rel="prefetch" href="${r.url("prefetch")}"><link rel="prerender" href="${r.url("prerender")}"><link rel="preconnect" href="http://${r.host}"><link rel="dns-prefetch" href="http://${r.host}"><link rel="preload" as="image" href="${r.url("preload.png")}"><link rel="modulepreload" href="${r.url("module.js")}">`,
            "",
          ),
      ],
      [
        "speculation rules (list and document rules, prefetch and prerender, inline and script-inserted)",
        (r: EgressRefs) =>
          page(
            `<script type="speculationrules">{"prefetch":[{"source":"list","urls":["${r.url("spec-prefetch")}"]}],"prerender":[{"source":"list","urls":["${r.url("spec-prerender")}"]},{"source":"document","where":{"href_matches":"/*"},"eagerness":"immediate"}]}</script>`,
            `<a href="${r.url("spec-doc-link")}">link</a><script>const s=document.createElement("script");s.type="speculationrules";s.textContent=JSON.stringify({prerender:[{source:"list",urls:["${r.url("spec-inserted")}"]}]});document.head.append(s);</script>`,
          ),
      ],
      [
        "<a ping> clicked by a script",
        (r: EgressRefs) =>
          page(
            "",
            `<a id="a" href="#here" ping="${r.url("ping")}">ping</a><script>document.getElementById("a").click()</script>`,
          ),
      ],
      [
        "<meta http-equiv=refresh> to the server",
        (r: EgressRefs) => page(`<meta http-equiv="refresh" content="0; url=${r.url("refresh")}">`, ""),
        NAVIGATION_PRECONNECT,
      ],
      [
        "subresources (test/support/script-vectors.ts fetchVectors: img, srcset, stylesheet, CSS url(), @import, image-set, print media, poster, background, SVG image, @font-face)",
        (r: EgressRefs) =>
          page(
            "",
            fetchVectors(r.url("v"))
              .map((v) => v.html)
              .join("\n"),
          ),
      ],
      [
        "<iframe>, <object> and <embed> naming the server",
        (r: EgressRefs) =>
          page(
            "",
            `<iframe src="${r.url("iframe")}"></iframe><object data="${r.url("object")}"></object><embed src="${r.url("embed")}">`,
          ),
        NAVIGATION_PRECONNECT,
      ],
      [
        "SVG <use> and <feImage> naming the server",
        (r: EgressRefs) =>
          page(
            "",
            `<svg width="40" height="40"><filter id="f"><feImage href="${r.url("feimage")}"/></filter><rect width="40" height="40" filter="url(#f)"/><use href="${r.url("use.svg")}#g"/></svg>`,
          ),
      ],
      [
        "script requests: fetch, XMLHttpRequest, WebSocket, sendBeacon, EventSource, dynamic import, Image",
        (r: EgressRefs) =>
          page(
            "",
            `<script>
try { fetch("${r.url("fetch")}").catch(() => {}); } catch {}
try { const x = new XMLHttpRequest(); x.open("GET", "${r.url("xhr")}"); x.send(); } catch {}
try { new WebSocket("ws://${r.host}/ws"); } catch {}
try { navigator.sendBeacon("${r.url("beacon")}", "x"); } catch {}
try { new EventSource("${r.url("sse")}"); } catch {}
try { import("${r.url("import.js")}").catch(() => {}); } catch {}
try { new Image().src = "${r.url("new-image")}"; } catch {}
try { navigator.serviceWorker && navigator.serviceWorker.register("${r.url("sw.js")}").catch(() => {}); } catch {}
</script>`,
          ),
      ],
      [
        "navigations: a script setting location, a form submitted, window.open",
        (r: EgressRefs) =>
          page(
            "",
            `<form id="f" action="${r.url("form")}" method="post"><input name="a" value="b"></form><script>window.open("${r.url("window-open")}"); document.getElementById("f").submit(); setTimeout(() => { location.href = "${r.url("location")}"; }, 10);</script>`,
          ),
        NAVIGATION_PRECONNECT,
      ],
    ] as [string, (r: EgressRefs) => string, string?][]
  ).map(([kind, build, knownConnection]): EgressCase => ({
    row: "chrome",
    kind,
    input: (r) => ({ name: "page.html", data: build(r) }),
    outputs: ["pdf", "png"],
    // a navigation away from the document is refused by the guard; the page may then have nothing left to print
    expect: knownConnection ? "any" : "output",
    knownConnection,
  })),

  // --- libreoffice: Writer, Calc and the HTML import
  {
    row: "libreoffice",
    kind: "linked pictures in ODF (http and a local file)",
    input: (r) => ({
      name: "pictures.fodt",
      data: fodt(odfImage(r.url("picture.png")) + odfImage(`file://${r.file("picture.png")}`)),
    }),
    outputs: ["pdf", "docx"],
  },
  {
    row: "libreoffice",
    kind: "linked section (text:section-source), OLE object link and XInclude in ODF",
    input: (r) => ({
      name: "links.fodt",
      data: fodt(
        `<text:section text:name="S1"><text:section-source xlink:href="${r.url("section.odt")}" xlink:type="simple"/><text:p>section</text:p></text:section><text:p><draw:frame svg:width="2cm" svg:height="2cm"><draw:object xlink:href="${r.url("ole.odg")}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p><xi:include href="${r.url("xinclude.xml")}"/>`,
      ),
    }),
    outputs: ["pdf", "odt"],
  },
  {
    row: "libreoffice",
    kind: "external entities in ODF (http and a local file)",
    input: (r) => ({
      name: "entities.fodt",
      data: fodt(
        "<text:p>[&web;][&local;]</text:p>",
        `<!DOCTYPE office:document [<!ENTITY web SYSTEM "${r.url("entity")}"><!ENTITY local SYSTEM "file://${r.file("entity")}">]>`,
      ),
    }),
    outputs: ["pdf"],
    expect: "any",
  },
  {
    row: "libreoffice",
    kind: "RTF fields INCLUDEPICTURE and INCLUDETEXT",
    input: (r) => ({
      name: "fields.rtf",
      data: `{\\rtf1\\ansi Own words of the document\\par{\\field{\\*\\fldinst{INCLUDEPICTURE "${r.url("includepicture.png")}" \\\\d}}{\\fldrslt{}}}\\par{\\field{\\*\\fldinst{INCLUDETEXT "${r.file("includetext.txt")}"}}{\\fldrslt{cached}}}\\par{\\field{\\*\\fldinst{INCLUDETEXT "${r.url("includetext.txt")}"}}{\\fldrslt{cached}}}\\par}`,
    }),
    outputs: ["pdf", "docx"],
  },
  {
    row: "libreoffice",
    kind: "DOCX linked picture (TargetMode External), INCLUDEPICTURE/INCLUDETEXT fields and a VML image",
    input: (r) => ({
      name: "linked.docx",
      data: docx(
        docxLinkedPicture("rIdImg") +
          docxField(`INCLUDEPICTURE "${r.url("field-picture.png")}" \\d`) +
          docxField(`INCLUDETEXT "${r.url("field-text.docx")}"`) +
          `<w:p><w:r><w:pict><v:shape style="width:20pt;height:20pt"><v:imagedata r:id="rIdVml" o:title=""/></v:shape></w:pict></w:r></w:p>`,
        `<Relationship Id="rIdImg" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="${r.url("linked.png")}" TargetMode="External"/><Relationship Id="rIdVml" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="${r.url("vml.png")}" TargetMode="External"/>`,
      ),
    }),
    outputs: ["pdf", "odt"],
  },
  {
    row: "libreoffice",
    kind: "spreadsheet WEBSERVICE(), an external cell link and a linked sheet",
    input: (r) => ({
      name: "web.fods",
      data: fods(
        `<table:table-cell table:formula="of:=WEBSERVICE(&quot;${r.url("webservice")}&quot;)" office:value-type="string"><text:p>cached</text:p></table:table-cell><table:table-cell table:formula="of:=['${r.url("external.ods")}'#$Sheet1.A1]" office:value-type="string"><text:p>cached</text:p></table:table-cell><table:table-cell table:formula="of:=FILTERXML(WEBSERVICE(&quot;${r.url("filterxml")}&quot;);&quot;//a&quot;)" office:value-type="string"><text:p>cached</text:p></table:table-cell>`,
      ).replace(
        '<table:table table:name="Sheet1">',
        `<table:table table:name="Sheet1"><table:table-source xlink:type="simple" xlink:href="${r.url("table-source.ods")}" table:mode="copy-all" table:refresh-delay="PT1S"/>`,
      ),
    }),
    outputs: ["pdf", "xlsx"],
  },
  {
    row: "libreoffice",
    kind: "HTML in Writer: img, stylesheet link, @import, iframe",
    input: (r) => ({
      name: "page.html",
      data: page(
        `<link rel="stylesheet" href="${r.url("style.css")}"><style>@import url("${r.url("import.css")}"); p { background: url("${r.url("bg.png")}") }</style>`,
        `<img src="${r.url("img.png")}"><iframe src="${r.url("iframe")}"></iframe>`,
      ),
    }),
    outputs: ["doc", "docx"],
    pin: "libreoffice",
  },

  // --- sheetjs: spreadsheets in JavaScript (issue 47); SheetJS evaluates no formula and resolves no link
  {
    row: "sheetjs",
    kind: "xlsx external workbook link (externalLink part, TargetMode External) and a formula into it",
    input: (r) => ({
      name: "external.xlsx",
      data: xlsxBook(`<c r="B1"><f>[1]Sheet1!A1</f><v>1</v></c>`, {
        workbookRels: `<Relationship Id="rIdX" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLink" Target="externalLinks/externalLink1.xml"/>`,
        parts: {
          "xl/externalLinks/externalLink1.xml": `<?xml version="1.0" encoding="UTF-8"?><externalLink xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><externalBook r:id="rId1"><sheetNames><sheetName val="Sheet1"/></sheetNames></externalBook></externalLink>`,
          "xl/externalLinks/_rels/externalLink1.xml.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLinkPath" Target="${r.url("book.xlsx")}" TargetMode="External"/></Relationships>`,
        },
      }),
    }),
    outputs: ["csv", "xlsx", "ods"],
  },
  {
    row: "sheetjs",
    kind: "xlsx WEBSERVICE() and HYPERLINK() formulas and sheet hyperlinks (http and a local file)",
    input: (r) => ({
      name: "web.xlsx",
      data: xlsxBook(
        `<c r="B1" t="str"><f>WEBSERVICE("${r.url("webservice")}")</f><v>cached</v></c><c r="C1" t="str"><f>HYPERLINK("${r.url("hyperlink")}","go")</f><v>go</v></c><c r="D1" t="inlineStr"><is><t>file</t></is></c>`,
        {
          after: `<hyperlinks><hyperlink ref="A1" r:id="rIdH"/><hyperlink ref="D1" r:id="rIdF"/></hyperlinks>`,
          rels: `<Relationship Id="rIdH" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="${r.url("link")}" TargetMode="External"/><Relationship Id="rIdF" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="file://${r.file("linked.xlsx")}" TargetMode="External"/>`,
        },
      ),
    }),
    outputs: ["html", "csv", "xls"],
  },
  {
    row: "sheetjs",
    kind: "ods WEBSERVICE(), an external cell reference and a linked sheet (table:table-source)",
    input: (r) => ({
      name: "linked.ods",
      data: zipSync({
        mimetype: [utf8("application/vnd.oasis.opendocument.spreadsheet"), { level: 0 }],
        "content.xml": utf8(
          fods(
            `<table:table-cell table:formula="of:=WEBSERVICE(&quot;${r.url("webservice")}&quot;)" office:value-type="string"><text:p>cached</text:p></table:table-cell><table:table-cell table:formula="of:=['${r.url("external.ods")}'#$Sheet1.A1]" office:value-type="string"><text:p>cached</text:p></table:table-cell>`,
          )
            .replace("<office:document ", "<office:document-content ")
            .replace("</office:document>", "</office:document-content>")
            .replace(
              '<table:table table:name="Sheet1">',
              `<table:table table:name="Sheet1"><table:table-source xlink:type="simple" xlink:href="${r.url("table-source.ods")}" table:mode="copy-all" table:refresh-delay="PT1S"/>`,
            ),
        ),
        "styles.xml": utf8(
          `<?xml version="1.0" encoding="UTF-8"?><office:document-styles xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" office:version="1.3"/>`,
        ),
        "META-INF/manifest.xml": utf8(
          `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
        ),
      }),
    }),
    outputs: ["csv", "xlsx", "html"],
  },

  // --- pandoc: markdown, reStructuredText, TeX and HTML, by Debian's pandoc and by pandoc in WebAssembly (issue 47)
  ...PANDOC_CASES,
  ...PANDOC_CASES.map((c) => ({ ...c, row: "pandoc-wasm", outputs: c.outputs.filter((o) => o !== "pdf") })),
  {
    row: "pandoc-wasm",
    kind: "FB2 external entities (pandoc's FB2 reader, after calibre)",
    input: (r) => ({
      name: "entities.fb2",
      data: `<?xml version="1.0" encoding="utf-8"?><!DOCTYPE FictionBook [<!ENTITY web SYSTEM "${r.url("fb2-entity")}"><!ENTITY local SYSTEM "file://${r.file("fb2-entity")}">]><FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0"><description><title-info><book-title>F</book-title></title-info></description><body><section><p>Own words of the book [&web;][&local;]</p></section></body></FictionBook>`,
    }),
    outputs: ["txt"],
    // pandoc's XML parser refuses a document type declaring entities ("Invalid XML"): nothing is resolved
    expect: "CONVERSION_FAILED",
  },
  {
    row: "pandoc-wasm",
    kind: "FB2 image links by URL and local path",
    input: (r) => ({
      name: "images.fb2",
      data: `<?xml version="1.0" encoding="utf-8"?><FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0" xmlns:l="http://www.w3.org/1999/xlink"><description><title-info><book-title>F</book-title><coverpage><image l:href="${r.url("fb2-cover")}"/></coverpage></title-info></description><body><section><p>Own words of the book</p><image l:href="${r.url("fb2-image")}"/><image l:href="${r.file("fb2-image")}"/><image l:href="file://${r.file("fb2-image")}"/></section></body></FictionBook>`,
    }),
    outputs: ["txt", "rtf"],
  },

  // --- calibre: EPUB, FB2 and HTML books
  {
    row: "calibre",
    kind: "EPUB remote stylesheet: link, @import, url() and @font-face src()",
    input: (r) => ({
      name: "css.epub",
      data: epub(
        `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title><link rel="stylesheet" href="${r.url("style.css")}"/><style>@import url("${r.url("import.css")}"); body { background: url("${r.url("bg.png")}") } @font-face { font-family: X; src: url("${r.url("font.ttf")}") } p { font-family: X }</style></head><body><p>Own words of the book</p></body></html>`,
      ),
    }),
    outputs: ["epub", "mobi"],
  },
  {
    row: "calibre",
    kind: "EPUB remote resources: manifest items, img and object",
    input: (r) => ({
      name: "remote.epub",
      data: epub(
        `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title></head><body><p>Own words of the book</p><img src="${r.url("img.png")}"/><img src="file://${r.file("img.png")}"/><object data="${r.url("object")}"></object></body></html>`,
        `<item id="r" href="${r.url("remote.xhtml")}" media-type="application/xhtml+xml"/><item id="i" href="${r.url("cover.jpg")}" media-type="image/jpeg"/><item id="l" href="${r.file("manifest.css")}" media-type="text/css"/>`,
      ),
    }),
    outputs: ["epub", "pdf"],
  },
  {
    row: "calibre",
    kind: "FB2 external entities and image links",
    input: (r) => ({
      name: "refs.fb2",
      data: `<?xml version="1.0" encoding="utf-8"?><!DOCTYPE FictionBook [<!ENTITY web SYSTEM "${r.url("fb2-entity")}"><!ENTITY local SYSTEM "file://${r.file("fb2-entity")}">]><FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0" xmlns:l="http://www.w3.org/1999/xlink"><description><title-info><book-title>F</book-title></title-info></description><body><section><p>Own words of the book [&web;][&local;]</p><image l:href="${r.url("fb2-image")}"/><image l:href="${r.file("fb2-image")}"/></section></body></FictionBook>`,
    }),
    outputs: ["epub"],
  },
  {
    row: "calibre",
    kind: "HTML document input: img, stylesheet link and iframe",
    input: (r) => ({
      name: "page.html",
      data: page(
        `<link rel="stylesheet" href="${r.url("style.css")}">`,
        `<img src="${r.url("img.png")}"><img src="${r.file("img.png")}"><iframe src="${r.url("iframe")}"></iframe>`,
      ),
    }),
    outputs: ["epub", "mobi"],
  },

  // --- SVG renderers: resvg and ImageMagick (WebAssembly), ImageMagick (native), Inkscape, FontForge (fonttools)
  ...svgCases("resvg", ["png", "webp"]),
  // ImageMagick's policy refuses an <image> naming a URL (ExplicitCoderNotAllowed): OPEN_FAILED, nothing fetched
  ...svgCases("imagemagick", ["png", "jpg"], { expect: "any" }),
  ...svgCases("imagemagick-native", ["png", "webp"], { expect: "any" }),
  ...svgCases("inkscape", ["pdf", "png", "emf"]),
  ...svgCases("fonttools", ["ttf", "woff2"], { expect: "any" }),
  {
    row: "fonttools",
    kind: "SVG font: <font-face-uri> and a glyph drawn by <use> of another document",
    input: (r) => ({
      name: "font.svg",
      data: `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><defs><font horiz-adv-x="500"><font-face font-family="X" units-per-em="1000"><font-face-src><font-face-uri xlink:href="${r.url("font.svg")}#f"/></font-face-src></font-face><glyph unicode="a" d="M0 0L500 0L500 500Z"/><glyph unicode="b"><use xlink:href="${r.url("glyph.svg")}#g"/></glyph></font></defs></svg>`,
    }),
    outputs: ["ttf"],
    expect: "any",
  },
  {
    row: "native-command",
    kind: "convert of an SVG with <image href> (http and file)",
    pin: "imagemagick",
    operation: "command",
    input: (r) => ({ name: "refs.svg", data: SVG_KINDS[0]![1](r) }),
    params: { command: "convert", arguments: "/input/up/refs.svg /output/out.png" },
    outputs: ["png"],
    expect: "any",
  },
  {
    row: "native-command",
    kind: "convert of an SVG with external entities and XInclude",
    pin: "imagemagick",
    operation: "command",
    input: (r) => ({ name: "refs.svg", data: SVG_KINDS[4]![1](r) }),
    params: { command: "convert", arguments: "/input/up/refs.svg /output/out.png" },
    outputs: ["png"],
    expect: "any",
  },
  {
    row: "native-command",
    kind: "convert of an MVG drawing reading an image by URL and by path",
    pin: "imagemagick",
    operation: "command",
    input: (r) => ({
      name: "draw.mvg",
      data: `viewbox 0 0 120 60\nfill black rectangle 10,10 50,50\nimage over 60,0 60,60 '${r.url("mvg.png")}'\nimage over 60,0 60,60 '${r.file("mvg.png")}'\n`,
    }),
    params: { command: "convert", arguments: "/input/up/draw.mvg /output/out.png" },
    outputs: ["png"],
    expect: "any",
  },

  // --- XPS: MuPDF (xps → svg) and libgxps (xps → png) in the native image row
  {
    row: "imagemagick-native",
    kind: "XPS ImageBrush image by URL (MuPDF and libgxps)",
    input: (r) => ({
      name: "brush.xps",
      data: xps(
        `<Path Data="M 100,10 L 190,10 190,90 100,90 Z"><Path.Fill><ImageBrush ImageSource="${r.url("brush.png")}" Viewbox="0,0,1,1" Viewport="0,0,1,1" ViewboxUnits="Absolute" ViewportUnits="Absolute"/></Path.Fill></Path>`,
      ),
    }),
    outputs: ["svg", "png"],
    expect: "any",
  },
  {
    row: "imagemagick-native",
    kind: "XPS Glyphs with a FontUri by URL",
    input: (r) => ({
      name: "font.xps",
      data: xps(
        `<Glyphs OriginX="10" OriginY="95" FontRenderingEmSize="12" FontUri="${r.url("font.odttf")}" UnicodeString="Ab" Fill="#FF000000"/>`,
      ),
    }),
    outputs: ["svg", "png"],
    expect: "any",
  },
  {
    row: "imagemagick-native",
    kind: "XPS document and page references by URL (DocumentReference, PageContent)",
    input: (r) => ({
      name: "parts.xps",
      data: xps("", {
        fdseq: `<DocumentReference Source="${r.url("doc.fdoc")}"/>`,
        fdoc: `<PageContent Source="${r.url("page.fpage")}"/>`,
      }),
    }),
    outputs: ["svg", "png"],
    expect: "any",
  },

  // --- PDF readers
  ...pdfCases("ghostscript", ["pdf"], { operation: "pdf/a", params: { conformance_level: "2b" } }),
  ...pdfCases("poppler", ["txt", "html", "svg"]),
  ...pdfCases("inkscape-pdf", ["dxf"]),
  ...pdfCases("pdflib", ["pdf"]),
  ...pdfCases("pdfium", ["png"]),
  // issue 49: poppler's pdftoppm, PDFium's native twin for pages and PDFs over its budget
  ...pdfCases("poppler-raster", ["png"]),
  ...pdfCases("qpdf", ["pdf"], { operation: "pdf/rotate-pages", params: { rotation: "90" } }),
  // issue 49: OCRmyPDF, with force_ocr (--redo-ocr) so the page carrying the probe's text is rendered by Ghostscript too;
  // it refuses a document with an XFA form outright (OPEN_FAILED: "can only be read by Adobe Acrobat")
  ...pdfCases("ocrmypdf", ["pdf"], { operation: "pdf/ocr", params: { force_ocr: true } }).map((c) =>
    /XFA/.test(c.kind) ? { ...c, expect: "any" as const } : c,
  ),

  // --- CAD: Inkscape's DXF import (svg, pdf) and ezdxf (dxf → dxf)
  {
    row: "inkscape-cad",
    kind: "DXF external reference block (XREF path by URL and local path)",
    input: (r) => CAD_INPUTS.XREF!(r),
    outputs: ["svg", "pdf", "dxf"],
    expect: "any",
  },
  {
    row: "inkscape-cad",
    kind: "DXF raster IMAGE and PDF UNDERLAY definitions naming files",
    input: (r) => CAD_INPUTS.IMAGE!(r),
    outputs: ["svg", "pdf", "dxf"],
    expect: "any",
  },
  {
    row: "inkscape-cad",
    kind: "DXF text style naming its font file (STYLE table, by URL and path)",
    input: (r) => CAD_INPUTS.STYLE!(r),
    outputs: ["svg", "pdf", "dxf"],
    expect: "any",
  },
  // the dxf row (issue 47, JavaScript): the same three references, each beside the helper's LINE, which it draws; svg
  // only (its rasters are that SVG drawn by resvg, the image row's own cases)
  ...["XREF", "IMAGE", "STYLE"].map((k): EgressCase => ({
    row: "dxf",
    kind: `DXF ${k} naming files (the inkscape-cad cases' inputs)`,
    input: (r) => CAD_INPUTS[k]!(r),
    outputs: ["svg"],
  })),

  // --- DjVu
  {
    row: "djvulibre",
    kind: "DjVu INCL chunks naming shared data by URL and by absolute path",
    input: (r) => ({
      name: "incl.djvu",
      data: djvuForm("DJVU", [
        djvuInfo(),
        djvuChunk("INCL", utf8(r.url("shared.djbz"))),
        djvuChunk("INCL", utf8(r.file("shared.djbz"))),
      ]),
    }),
    outputs: ["pdf", "png"],
    expect: "any",
  },
  {
    row: "djvulibre",
    kind: "DjVu annotations: hyperlink map areas by URL",
    input: (r) => ({
      name: "ant.djvu",
      data: djvuForm("DJVU", [
        djvuInfo(),
        djvuChunk(
          "ANTa",
          utf8(
            `(maparea "${r.url("maparea")}" "comment" (rect 0 0 50 25))\n(maparea "file://${r.file("maparea")}" "" (rect 50 0 50 25))\n`,
          ),
        ),
      ]),
    }),
    outputs: ["pdf", "png"],
    expect: "any",
  },
  {
    row: "djvulibre",
    kind: "an indirect DjVu document whose pages are other files (DIRM ids by URL and by path)",
    input: (r) => {
      const ids = [r.url("page1.djvu"), r.file("page2.djvu")];
      const sizes = ids.flatMap(() => [0, 0, 100]);
      const body = cat(new Uint8Array(sizes), new Uint8Array(ids.map(() => 1)), ...ids.map((id) => utf8(`${id}\0`)));
      const dirm = cat(new Uint8Array([0x01, 0, ids.length]), bzz(body));
      return { name: "indirect.djvu", data: djvuForm("DJVM", [djvuChunk("DIRM", dirm)]) };
    },
    outputs: ["pdf", "png"],
    expect: "any",
  },

  // --- media: ffmpeg in WebAssembly and native
  ...mediaCases("ffmpeg", ["wav"]),
  ...mediaCases("ffmpeg-native", ["wav", "mp3"]),

  // --- archives: 7-Zip in WebAssembly (tar) and archive-native (tar.lz by lzip)
  ...ARCHIVE_KINDS.map(([kind, build]): EgressCase => ({
    row: "7z",
    kind,
    input: (r) => ({ name: "refs.tar", data: build(r) }),
    outputs: ["zip", "files"],
    expect: "any",
  })),
  ...ARCHIVE_KINDS.map(([kind, build]): EgressCase => ({
    row: "archive-native",
    kind,
    input: (r) => ({ name: "refs.tar.lz", data: compressed("lzip", build(r)) }),
    outputs: ["zip", "files"],
    expect: "any",
  })),

  // --- metadata: ExifTool in WebAssembly and (issue 49) Debian's exiftool in the native engine
  ...(["exiftool", "exiftool-native"] as const).flatMap((row): EgressCase[] => [
    {
      row,
      kind: "an SVG's external entities and XInclude",
      operation: "metadata",
      input: (r) => ({ name: "refs.svg", data: SVG_KINDS[4]![1](r) }),
      outputs: ["json"],
    },
    {
      row,
      kind: "an XMP packet's external entities and XInclude",
      operation: "metadata",
      input: (r) => ({
        name: "refs.xmp",
        data: `<?xml version="1.0"?><!DOCTYPE x:xmpmeta [<!ENTITY web SYSTEM "${r.url("xmp-entity")}"><!ENTITY local SYSTEM "file://${r.file("xmp-entity")}">]><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Own [&web;][&local;]</dc:title></rdf:Description><xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="${r.url("xmp-xinclude")}"/></rdf:RDF></x:xmpmeta>`,
      }),
      outputs: ["json"],
    },
    {
      row,
      kind: "an HTML page's stylesheet, img and meta refresh",
      operation: "metadata",
      input: (r) => ({
        name: "page.html",
        data: page(
          `<meta http-equiv="refresh" content="0; url=${r.url("refresh")}"><link rel="stylesheet" href="${r.url("style.css")}">`,
          `<img src="${r.url("img.png")}">`,
        ),
      }),
      outputs: ["json"],
    },
  ]),
];

/**
 * Rows of the engine table that read no format able to name another file or address, so they have no egress cases.
 * A row is exempt only with a reason here; every other row needs ≥ {@link MIN_KINDS} reference kinds in
 * {@link EGRESS_CASES}.
 */
export const EGRESS_EXEMPT: Readonly<Record<string, string>> = {
  cloudflare: "the platform row parses no document: import/url's own guard is security/ssrf.ts's (test/unit/security)",
  tesseract:
    "reads raster pixels only (png, jpg…; a PDF reaches it rendered to pixels by pdfium, whose cases are here)",
  "tesseract-native": "reads raster pixels only (a PDF is rendered by Ghostscript/PDFium before it)",
  libraw: "reads camera raw sensor data only: no raw format names another file",
  libtiff:
    "reads TIFF only (tiff2pdf, issue 49): a TIFF's pages are its own strips and tiles at offsets in the file; no tag names another file or address",
  gimp: "reads XCF 2.10 only, whose layers hold their own pixels: the format has no link layer or file reference (GIMP 3 added link layers)",
  fonteditor:
    "reads ttf, otf, woff and eot (not SVG fonts, which stay fontTools'): sfnt tables hold their own outlines and name no file or address",
};

/** The fewest reference kinds a document-reading row has here. */
export const MIN_KINDS = 3;

// ---------------------------------------------------------------------------------------------------------------
// the sweep
// ---------------------------------------------------------------------------------------------------------------

const native = nativeEngineForFile();
let server: CountingServer;
let chrome: NodeChrome;
let scratch: string;
const wasm = nodeEngines();
/** Connections the cases marked `knownConnection` made (the rest must make none). */
let knownConnections = 0;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "egress-sweep-"));
  server = await startCountingServer();
  chrome = await launchNodeChrome();
}, scaled(60_000));
afterAll(async () => {
  await chrome?.close();
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** What one conversion ended in: the output's bytes, or the error's code and message. */
async function outcomeOf(run: Promise<{ out: { files: { data?: unknown }[] }; engine: { name: string } }>) {
  try {
    const r = await run;
    return {
      engine: r.engine.name,
      data: r.out.files.length ? dataOf(r.out.files[0] as never) : new Uint8Array(),
      files: r.out.files.length,
    };
  } catch (err) {
    return { code: err instanceof TaskError ? err.code : "threw", message: (err as Error).message };
  }
}

/** Cases with an index each: the index names its folder on the counting server (/c<index>/…). */
const INDEXED = EGRESS_CASES.map((c, i) => ({ ...c, index: i }));

describe("the egress sweep table covers the engine table", () => {
  it(`every row that reads documents has ≥ ${MIN_KINDS} reference kinds; every exempt row says why and exists`, () => {
    const kinds = new Map<string, Set<string>>();
    for (const c of EGRESS_CASES) kinds.set(c.row, (kinds.get(c.row) ?? new Set()).add(c.kind));
    const names = (ENGINES as readonly EngineRow[]).map((r) => r.name);
    const short = names
      .filter((n) => !(n in EGRESS_EXEMPT))
      .filter((n) => (kinds.get(n)?.size ?? 0) < MIN_KINDS)
      .map((n) => `${n} (${kinds.get(n)?.size ?? 0})`);
    expect(short, "rows with too few egress cases: add cases, or exempt the row with a reason").toEqual([]);
    expect(
      Object.keys(EGRESS_EXEMPT).filter((n) => !names.includes(n)),
      "exempt rows not in the table",
    ).toEqual([]);
    expect(
      [...kinds.keys()].filter((n) => !names.includes(n)),
      "cases of rows not in the table",
    ).toEqual([]);
    expect(
      Object.keys(EGRESS_EXEMPT).filter((n) => kinds.has(n)),
      "exempt rows with cases",
    ).toEqual([]);
  });
});

describe.each([...new Set(EGRESS_CASES.map((c) => c.row))])("row %s: nothing reaches the counting server", (row) => {
  const cases = INDEXED.filter((c) => c.row === row).flatMap((c) =>
    c.outputs.map((output) => [c.kind, output, c] as const),
  );
  it.each(cases)(
    "%s → %s",
    async (_kind, output, c) => {
      const base = `/c${c.index}-${output.replace(/\W/g, "")}/`;
      const watched: { path: string; opened: () => Promise<boolean> }[] = [];
      const refs: EgressRefs = {
        url: (name) => `http://127.0.0.1:${server.port}${base}${name}`,
        host: `127.0.0.1:${server.port}`,
        file: (name) => {
          const path = join(scratch, `c${c.index}-${output}-${watched.length}-${name}`);
          watched.push({ path, ...readWatchedFile(path, "WATCHED-FILE-SECRET") });
          return path;
        },
      };
      const { name, data } = c.input(refs);
      const bytes = typeof data === "string" ? utf8(data) : data;
      const connections = server.connections();
      const operation = c.operation ?? "convert";
      const params = {
        ...(operation === "convert" ? { output_format: output } : {}),
        engine: c.pin ?? c.row,
        ...c.params,
      };
      const input = operation === "command" ? { ...bytesInput(name, bytes), fromTask: "up" } : bytesInput(name, bytes);
      // only the row under test (pdflib, which testContext always adds, too only for its own cases): no silent fallback
      const all: Record<string, unknown> = {
        ...wasm,
        ...native.engines({ timeoutMs: scaled(90_000) }),
        chrome: chrome.engine(scaled(30_000)),
      };
      const ctx = testContext({ engines: { pdflib: undefined, [c.row]: all[c.row] } as never });
      const got = await outcomeOf(execute(operation, params, [input], ctx) as never);
      // a request may follow the answer (a browser's prefetch, a tool's child process): give it a moment
      await new Promise((r) => setTimeout(r, row === "chrome" ? 500 : 50));
      const opened: string[] = [];
      for (const w of watched) if (await w.opened()) opened.push(w.path);
      expect(
        server.hits.filter((h) => h.startsWith(base)),
        "requests that reached the counting server",
      ).toEqual([]);
      const connected = server.connections() - connections;
      if (c.knownConnection) {
        knownConnections += connected;
        if (connected)
          console.log(
            `egress KNOWN ${c.row} | ${c.kind} → ${output}: ${connected} connection(s): ${c.knownConnection}`,
          );
      } else expect(connected, "TCP connections to the counting server").toBe(0);
      expect(opened, "watched local files the engine opened").toEqual([]);
      const want = c.expect ?? "output";
      if (want === "output") {
        expect(got.code, got.message).toBeUndefined();
        expect([c.row, c.pin]).toContain(got.engine);
        // metadata answers in the task's result, not in a file
        if (operation !== "metadata") expect(got.files).toBeGreaterThan(0);
      } else if (want === "any") {
        if (got.code) {
          expect(got.code, got.message).toMatch(/^[A-Z_]+$/);
          expect(got.code, got.message).not.toMatch(/^(INTERNAL_ERROR|threw)$/);
        } else expect([c.row, c.pin]).toContain(got.engine);
      } else expect(got.code, got.message).toBe(want);
      // record what each case ended in (the run's log tells a reader which references were refused outright)
      console.log(
        `egress ${c.row} | ${c.kind} → ${output}: ${got.code ? `${got.code} ${got.message?.slice(0, 160)}` : `output ${got.data?.length} bytes`}`,
      );
    },
    scaled(120_000),
  );
});

describe("after the sweep", () => {
  it("no request and no connection reached the counting server late, from any case", async () => {
    await new Promise((r) => setTimeout(r, 1000));
    expect(server.hits).toEqual([]);
    expect(server.connections(), "connections beyond the known leak's").toBe(knownConnections);
  });
});
