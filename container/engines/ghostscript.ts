/**
 * Ghostscript (pdfwrite): PDF/A, PDF/X and the PDF optimize profiles (issue 12). Every call is one
 * `gs -dSAFER …` run in the call's directory; ICC profiles are read from Ghostscript's own
 * directory, the only place SAFER is told to permit (--permit-file-read).
 *
 * Facts this relies on (shared/reference/native-tools.md, Ghostscript 10.00.0):
 * - `-dPDFA=N` writes the pdfaid XMP, but the output intent needs a PDFA_def.ps naming an ICC
 *   profile; only the B conformance level is produced.
 * - `-dPDFX` writes PDF/X-3 content only (PDF 1.3, CMYK); GTS_PDFXVersion comes from the def file's
 *   DOCINFO pdfmark. PDF/X-4 is that content labelled X-4 with the header raised to PDF 1.6 by qpdf.
 */
import { existsSync } from "node:fs";
import { rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { PdfRequests, PdfStreamableInput } from "../../native-protocol/pdf.ts";
import {
  NativeError,
  bytesOf,
  check,
  fileOf,
  localFile,
  place,
  put,
  run,
  tool,
  why,
  type NativeCall,
  type NativeEngineDef,
} from "./common.ts";

/** Ghostscript's ICC directory (Debian: libgs-common). */
const ICC_DIRS = ["/usr/share/color/icc/ghostscript", "/usr/share/ghostscript/iccprofiles"];
const iccDir = () =>
  ICC_DIRS.find((d) => existsSync(join(d, "srgb.icc")) || existsSync(join(d, "default_rgb.icc"))) ?? ICC_DIRS[0];
const icc = (names: string[]) => names.map((n) => join(iccDir(), n)).find(existsSync);

/** A PostScript string literal: parentheses and backslashes escaped. */
const ps = (s: string) => `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;

/** Maps a gs failure to a code. */
function gsFailure(text: string, filename: string): NativeError {
  if (/requires a password|Password did not work|Invalid password/i.test(text))
    return new NativeError("INVALID_PASSWORD", `${filename} is encrypted and the password given does not open it.`);
  if (/VMerror|out of memory/i.test(text))
    return new NativeError("OVER_BUDGET", `${filename} needs more memory than the native engine allows one call.`);
  return new NativeError("OPEN_FAILED", `Ghostscript could not process ${filename}: ${why(text, /Error|error/)}`);
}

/**
 * The whole `gs` argument list of one pdfwrite run: SAFER, reading only Ghostscript's ICC folder,
 * then `args`, the output file and the inputs (a def file first). Exported for the benchmark, which
 * runs the same command directly (scripts/bench-native.ts).
 */
export function gsArgs(args: string[], output: string, inputs: string[]): string[] {
  return [
    "-dSAFER",
    "-dBATCH",
    "-dNOPAUSE",
    "-dNOINTERPOLATE",
    `--permit-file-read=${iccDir()}/`,
    "-sDEVICE=pdfwrite",
    ...args,
    `-sOutputFile=${output}`,
    ...inputs,
  ];
}

/**
 * A document of the call's folder: its file name there, the input's name (for messages) and its password. Every step
 * reads and writes files (issue 49: a framed call's input is already a file there), so no document is held in memory.
 */
interface Doc {
  /** File name in the call's folder. */
  name: string;
  filename: string;
  password?: string;
}

/**
 * Places the request's input in the call's folder as `name` (its bytes written, or the file a framed call already
 * wrote there moved: issue 49).
 * @throws NativeError UNSUPPORTED for an input that is neither bytes nor a file
 */
async function openDoc(call: NativeCall, input: PdfStreamableInput, name = "in.pdf"): Promise<Doc> {
  await place(call, name, fileOf(input.data, input.filename));
  return { name, filename: input.filename, ...(input.password ? { password: input.password } : {}) };
}

/** Size of a file of the call's folder, bytes. */
const sizeOf = async (call: NativeCall, name: string) => (await stat(join(call.work, name))).size;

/**
 * Removes candidate files of the call's folder that lost (optimize), so the folder holds the input and at most two
 * candidates at a time rather than every one (issue 49: the call's disk is reserved as twice its input, disk-budget.ts).
 */
const discard = (call: NativeCall, ...names: string[]) =>
  Promise.all(names.map((name) => rm(join(call.work, name), { force: true })));

/** Runs pdfwrite over `doc` with `args` (+ optional def file before the input) into `output` (a file of the call's folder). */
async function pdfwrite(call: NativeCall, doc: Doc, args: string[], def?: string, output = "out.pdf"): Promise<string> {
  const gs = tool(call, "ghostscript");
  const defArgs = def ? [await put(call, "def.ps", new TextEncoder().encode(def))] : [];
  const pw = doc.password ? [`-sPDFPassword=${doc.password}`] : [];
  const r = await run(call, gs.path, gsArgs([...pw, ...args], output, [...defArgs, join(call.work, doc.name)]));
  check(r, "Ghostscript", (t) => gsFailure(t, doc.filename));
  // Ghostscript 10.00 exits 0 after some failures and writes a blank page: a wrong password
  // ("Password did not work") or a file it cannot read ("No pages will be processed").
  const said = `${r.stdout}\n${r.stderr}`;
  if (/requires a password|Password did not work|Cannot decrypt PDF/i.test(said))
    throw gsFailure("requires a password", doc.filename);
  if (/Couldn't initialise file|No pages will be processed|Unrecoverable error/i.test(said))
    throw gsFailure(said, doc.filename);
  return output;
}

/** PDF/A conformance levels Ghostscript writes (B only), by the `conformance_level` the task gives. */
const PDFA_PART: Record<string, number> = { "1b": 1, "2b": 2, "3b": 3 };

/**
 * The pdfwrite arguments and def file of PDF/A part `part` (1, 2 or 3, level B): the output intent of
 * Ghostscript's PDFA_def.ps (ISO 19005-1 §6.2.2) with the sRGB profile's absolute path.
 * @throws NativeError ENGINE_UNAVAILABLE when the profile is missing
 */
export function pdfaPlan(part: number): { args: string[]; def: string } {
  const profile = icc(["srgb.icc", "default_rgb.icc"]);
  if (!profile)
    throw new NativeError("ENGINE_UNAVAILABLE", "Ghostscript's sRGB ICC profile is missing (package libgs-common).");
  const def = `/ICCProfile ${ps(profile)} def
[/_objdef {icc_PDFA} /type /stream /OBJ pdfmark
[{icc_PDFA} << /N 3 >> /PUT pdfmark
[{icc_PDFA} ICCProfile (r) file /PUT pdfmark
[/_objdef {OutputIntent_PDFA} /type /dict /OBJ pdfmark
[{OutputIntent_PDFA} << /Type /OutputIntent /S /GTS_PDFA1 /DestOutputProfile {icc_PDFA} /OutputConditionIdentifier (sRGB) >> /PUT pdfmark
[{Catalog} << /OutputIntents [ {OutputIntent_PDFA} ] >> /PUT pdfmark
`;
  return { args: [`-dPDFA=${part}`, "-dPDFACompatibilityPolicy=1", "-sColorConversionStrategy=RGB"], def };
}

/** Factur-X conformance levels by the guideline ID the invoice XML declares (Factur-X 1.0 §6.2.2). */
const FACTURX_LEVELS: [RegExp, string][] = [
  [/:minimum$/i, "MINIMUM"],
  [/:basicwl$/i, "BASIC WL"],
  [/:basic$/i, "BASIC"],
  [/:extended$/i, "EXTENDED"],
  [/xrechnung/i, "XRECHNUNG"],
  [/en16931/i, "EN 16931"],
];

/** The Factur-X level of an invoice XML (its GuidelineSpecifiedDocumentContextParameter ID); EN 16931 when it names none. */
export function facturxLevel(xml: string): string {
  const id = /GuidelineSpecifiedDocumentContextParameter>\s*<[^>]*ID>([^<]+)</.exec(xml)?.[1]?.trim() ?? "";
  return FACTURX_LEVELS.find(([re]) => re.test(id))?.[1] ?? "EN 16931";
}

/**
 * pdfmarks attaching a ZUGFeRD / Factur-X invoice to a PDF/A-3 (Factur-X 1.0 §6; ISO 19005-3 §6.8):
 * the XML as an embedded file "factur-x.xml" (text/xml) with /AFRelationship /Alternative, listed
 * in the catalog's /AF, and the fx: XMP properties with their PDF/A extension schema description.
 */
function invoiceMarks(path: string, level: string): string {
  const fx = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#";
  const prop = (name: string, desc: string) =>
    `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${name}</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>${desc}</pdfaProperty:description></rdf:li>`;
  const xmp =
    `<rdf:Description rdf:about="" xmlns:fx="${fx}"><fx:DocumentType>INVOICE</fx:DocumentType><fx:DocumentFileName>factur-x.xml</fx:DocumentFileName><fx:Version>1.0</fx:Version><fx:ConformanceLevel>${level}</fx:ConformanceLevel></rdf:Description>` +
    `<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">` +
    `<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource"><pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema><pdfaSchema:namespaceURI>${fx}</pdfaSchema:namespaceURI><pdfaSchema:prefix>fx</pdfaSchema:prefix><pdfaSchema:property><rdf:Seq>` +
    prop("DocumentFileName", "name of the embedded XML invoice file") +
    prop("DocumentType", "INVOICE") +
    prop("Version", "The actual version of the Factur-X XML schema") +
    prop("ConformanceLevel", "The conformance level of the embedded Factur-X data") +
    `</rdf:Seq></pdfaSchema:property></rdf:li></rdf:Bag></pdfaExtension:schemas></rdf:Description>`;
  return `[ /_objdef {InvoiceStream} /type /stream /OBJ pdfmark
[ {InvoiceStream} << /Type /EmbeddedFile /Subtype (text/xml) cvn >> /PUT pdfmark
[ {InvoiceStream} ${ps(path)} (r) file /PUT pdfmark
[ {InvoiceStream} /CLOSE pdfmark
[ /_objdef {InvoiceFS} /type /dict /OBJ pdfmark
[ {InvoiceFS} << /Type /Filespec /F (factur-x.xml) /UF (factur-x.xml) /Desc (Factur-X invoice) /AFRelationship /Alternative /EF << /F {InvoiceStream} /UF {InvoiceStream} >> >> /PUT pdfmark
[ {Catalog} << /AF [ {InvoiceFS} ] >> /PUT pdfmark
[ /Name (factur-x.xml) /FS {InvoiceFS} /EMBED pdfmark
[ /XML ${ps(xmp)} /Ext_Metadata pdfmark
`;
}

/**
 * The most of an invoice XML read here, bytes: what the Worker hands over whole (NATIVE_MAX_BYTES, 64 MiB; a framed
 * call's invoice reaches this engine as a file like every part).
 */
const INVOICE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * PDF/A part 1, 2 or 3 (level B) of the input, optionally with a ZUGFeRD / Factur-X invoice attached (3b); the input
 * bytes or a file in the call's folder, the answer a file (streamed back on a framed call, issue 49).
 * @throws NativeError UNSUPPORTED (another level, an invoice below 3b) | OPEN_FAILED (not an invoice, an unreadable
 *   PDF) | INVALID_PASSWORD | OVER_BUDGET
 */
async function pdfa(req: PdfRequests["pdfa"], call: NativeCall) {
  const part = PDFA_PART[req.conformance.toLowerCase()];
  if (!part)
    throw new NativeError(
      "UNSUPPORTED",
      `PDF/A-${req.conformance} is not written here; conformance_level may be 1b, 2b or 3b.`,
    );
  const { args, def } = pdfaPlan(part);
  let marks = "";
  if (req.invoice) {
    if (part !== 3)
      throw new NativeError("UNSUPPORTED", "An invoice XML can be attached to PDF/A-3 only (conformance_level 3b).");
    const bytes = await bytesOf(req.invoice.data, INVOICE_MAX_BYTES, req.invoice.filename);
    const xml = new TextDecoder().decode(bytes);
    if (!/<(\w+:)?CrossIndustryInvoice\b/.test(xml))
      throw new NativeError(
        "OPEN_FAILED",
        `${req.invoice.filename} is not a ZUGFeRD / Factur-X invoice (no CrossIndustryInvoice element).`,
      );
    marks = invoiceMarks(await put(call, "factur-x.xml", bytes), facturxLevel(xml));
  }
  const doc = await openDoc(call, req.input);
  const out = await pdfwrite(call, doc, [...args, ...(marks ? [`--permit-file-read=${call.work}/`] : [])], def + marks);
  return {
    data: await localFile(call, out),
    part,
    conformance: "B",
    ...(req.invoice ? { invoice: "factur-x.xml" } : {}),
  };
}

/** GTS_PDFXVersion by variant (ISO 15930-1, -3, -7). */
const PDFX_VERSION: Record<string, string> = { "1a": "PDF/X-1a:2001", "3": "PDF/X-3:2002", "4": "PDF/X-4" };

/**
 * The pdfwrite arguments and def file of PDF/X `variant` (1a, 3 or 4): CMYK conversion, the
 * GTS_PDFXVersion (and for X-1a GTS_PDFXConformance) DOCINFO keys and a CMYK output intent
 * (ISO 15930 §6.2), after Ghostscript's PDFX_def.ps.
 * @throws NativeError UNSUPPORTED for another variant, ENGINE_UNAVAILABLE when the profile is missing
 */
export function pdfxPlan(variant: string): { args: string[]; def: string; version: string } {
  const version = PDFX_VERSION[variant];
  if (!version)
    throw new NativeError("UNSUPPORTED", `PDF/X-${variant} is not written here; variant may be 1a, 3 or 4.`);
  const profile = icc(["default_cmyk.icc", "ps_cmyk.icc"]);
  if (!profile)
    throw new NativeError("ENGINE_UNAVAILABLE", "Ghostscript's CMYK ICC profile is missing (package libgs-common).");
  const conformance = variant === "1a" ? ` /GTS_PDFXConformance ${ps(version)}` : "";
  const def = `[ /GTS_PDFXVersion ${ps(version)}${conformance} /Trapped /False /DOCINFO pdfmark
/ICCProfile ${ps(profile)} def
[/_objdef {icc_PDFX} /type /stream /OBJ pdfmark
[{icc_PDFX} << /N 4 >> /PUT pdfmark
[{icc_PDFX} ICCProfile (r) file /PUT pdfmark
[/_objdef {OutputIntent_PDFX} /type /dict /OBJ pdfmark
[{OutputIntent_PDFX} << /Type /OutputIntent /S /GTS_PDFX /OutputCondition (Commercial and specialty printing) /Info (none)
  /OutputConditionIdentifier (CGATS TR 001) /RegistryName (http://www.color.org) /DestOutputProfile {icc_PDFX} >> /PUT pdfmark
[{Catalog} << /OutputIntents [ {OutputIntent_PDFX} ] >> /PUT pdfmark
`;
  return { args: ["-dPDFX", "-sColorConversionStrategy=CMYK"], def, version };
}

/**
 * Whether the document information dictionary of `doc` (a file of the call's folder) has a /Title (read with qpdf,
 * which reads the trailer and one object, not the whole file; false when qpdf is missing or cannot tell). Ghostscript
 * keeps an existing one.
 */
async function hasTitle(call: NativeCall, doc: Doc): Promise<boolean> {
  const qpdf = call.tools.get("qpdf");
  if (!qpdf) return false;
  const pw = [`--password=${doc.password ?? ""}`];
  const trailer = await run(call, qpdf.path, [...pw, "--show-object=trailer", doc.name]);
  const info = /\/Info (\d+) (\d+) R/.exec(trailer.stdout);
  if (!info) return false;
  const dict = await run(call, qpdf.path, [...pw, `--show-object=${info[1]},${info[2]}`, doc.name]);
  return /\/Title\s*[(<]/.test(dict.stdout);
}

/**
 * PDF/X 1a, 3 or 4 of the input (bytes or a file in the call's folder); the answer a file (streamed back on a framed
 * call, issue 49).
 * @throws NativeError UNSUPPORTED (another variant) | OPEN_FAILED | INVALID_PASSWORD | OVER_BUDGET | CONVERSION_FAILED
 */
async function pdfx(req: PdfRequests["pdfx"], call: NativeCall) {
  const { args, def, version } = pdfxPlan(req.variant);
  const doc = await openDoc(call, req.input);
  // PDF/X requires a /Title in the document information (ISO 15930-6 §6.7.2): the file's name when it has none
  const title = (await hasTitle(call, doc))
    ? ""
    : `[ /Title ${ps(req.input.filename.replace(/^.*\//, "").replace(/\.pdf$/i, ""))} /DOCINFO pdfmark\n`;
  let out = await pdfwrite(call, doc, args, def + title);
  if (req.variant === "4") out = await raiseVersion(call, out, "1.6");
  return { data: await localFile(call, out), version };
}

/** Raises the PDF header version of file `name` with qpdf (PDF/X-4 requires PDF 1.6, ISO 15930-7 §6.1); answers the new file's name. */
async function raiseVersion(call: NativeCall, name: string, version: string): Promise<string> {
  const qpdf = tool(call, "qpdf");
  const r = await run(call, qpdf.path, [`--min-version=${version}`, name, "x-out.pdf"]);
  if (r.killed || (r.code !== 0 && r.code !== 3))
    throw new NativeError("CONVERSION_FAILED", `qpdf could not set the PDF version: ${why(r.stderr)}`);
  return "x-out.pdf";
}

/**
 * The optimize profiles (service-spec.md "optimize"): web = screen-sized images, RGB, fonts subset,
 * linearized; print = 300 dpi images, CMYK; archive = images recompressed but not downsampled;
 * mrc = scans: colour at 150 dpi JPEG, monochrome at 300 dpi CCITT G4 (Ghostscript has no JBIG2
 * or true MRC layering); max = 72 dpi images, lowest quality.
 */
export const PROFILES: Record<string, string[]> = {
  web: ["-dPDFSETTINGS=/ebook", "-sColorConversionStrategy=RGB"],
  print: ["-dPDFSETTINGS=/printer", "-sColorConversionStrategy=CMYK"],
  archive: [
    "-dPDFSETTINGS=/default",
    "-dDownsampleColorImages=false",
    "-dDownsampleGrayImages=false",
    "-dDownsampleMonoImages=false",
  ],
  mrc: [
    "-dPDFSETTINGS=/ebook",
    "-dColorImageResolution=150",
    "-dGrayImageResolution=150",
    "-dMonoImageResolution=300",
    "-dMonoImageFilter=/CCITTFaxEncode",
  ],
  max: ["-dPDFSETTINGS=/screen", "-sColorConversionStrategy=RGB"],
};

/** Arguments every optimize profile adds. */
export const OPTIMIZE_COMMON = [
  "-dDetectDuplicateImages=true",
  "-dCompressFonts=true",
  "-dSubsetFonts=true",
  "-dAutoRotatePages=/None",
];

/**
 * qpdf's lossless rewrite of file `name` (of the call's folder) into `<out>.pdf`: object streams, every stream
 * recompressed at zlib level 9, linearized for the web profile (Ghostscript 10.00's own -dFastWebView writes hint
 * tables that qpdf --check rejects). Encryption is kept, unless a password opened it (then the output is decrypted
 * like Ghostscript's). Answers the output's name, undefined when qpdf is missing or fails.
 */
async function qpdfShrink(
  call: NativeCall,
  name: string,
  out: string,
  linearize: boolean,
  password?: string,
): Promise<string | undefined> {
  const qpdf = call.tools.get("qpdf");
  if (!qpdf) return undefined;
  const r = await run(call, qpdf.path, [
    ...(password ? [`--password=${password}`, "--decrypt"] : []),
    "--object-streams=generate",
    "--compress-streams=y",
    "--recompress-flate",
    "--compression-level=9",
    ...(linearize ? ["--linearize"] : []),
    name,
    `${out}.pdf`,
  ]);
  return !r.killed && (r.code === 0 || r.code === 3) ? `${out}.pdf` : undefined;
}

/**
 * `flatten_signatures` of optimize (issue 31): qpdf draws every annotation's appearance — the signature
 * widgets among them — into the page content and removes the annotations and their fields, so a signed
 * document keeps how its signatures look after a rewrite that would invalidate (Ghostscript: drop) them.
 * The result (a file of the call's folder) is decrypted when a password opened it.
 */
async function flattenAnnotations(call: NativeCall, doc: Doc): Promise<Doc> {
  const qpdf = call.tools.get("qpdf");
  if (!qpdf) throw new NativeError("ENGINE_UNAVAILABLE", "flatten_signatures needs qpdf (Debian package qpdf).");
  const r = await run(call, qpdf.path, [
    ...(doc.password ? [`--password=${doc.password}`, "--decrypt"] : []),
    "--flatten-annotations=all",
    doc.name,
    "flatten-q.pdf",
  ]);
  // qpdf exits 3 for warnings (a repaired file): the output is written
  if (r.code !== 3)
    check(r, "qpdf --flatten-annotations", (text) =>
      /password/i.test(text)
        ? new NativeError("INVALID_PASSWORD", `${doc.filename} is encrypted and the password given does not open it.`)
        : new NativeError(
            "OPEN_FAILED",
            `qpdf could not flatten the annotations of ${doc.filename}: ${why(text, /error/i)}`,
          ),
    );
  return { name: "flatten-q.pdf", filename: doc.filename };
}

/**
 * Optimizes by `profile`: Ghostscript rewrites the document (images resampled and recompressed,
 * fonts subset), qpdf then packs it losslessly; qpdf's lossless pack of the input itself is the
 * other candidate (a document of JBIG2 or well-compressed images that Ghostscript would only
 * enlarge). The smallest wins, linearized for the web profile when it stays smaller; when none is
 * smaller than the input, the input comes back unchanged (issue 12: a "compressed" PDF never
 * grows). Sizes in bytes. Every step reads and writes files of the call's folder (issue 49: the input may be a framed
 * call's file, the answer a file streamed back), so no document is held in memory.
 * @throws NativeError UNSUPPORTED (an unknown profile) | OPEN_FAILED | INVALID_PASSWORD | OVER_BUDGET
 */
async function optimize(req: PdfRequests["optimize"], call: NativeCall) {
  const profile = req.profile ?? "web";
  const args = PROFILES[profile];
  if (!args)
    throw new NativeError(
      "UNSUPPORTED",
      `optimize profile ${profile} is unknown; use web, print, archive, mrc or max.`,
    );
  const original = await openDoc(call, req.input);
  const originalSize = await sizeOf(call, original.name);
  const doc = req.flattenSignatures ? await flattenAnnotations(call, original) : original;
  // Ghostscript's rewrite and qpdf's lossless pack of the input run side by side (two processes, two files)
  const [rewritten, lossless] = await Promise.all([
    pdfwrite(call, doc, [...args, ...OPTIMIZE_COMMON]),
    qpdfShrink(call, doc.name, "lossless", false, doc.password),
  ]);
  const packed = await qpdfShrink(call, rewritten, "gs", false);
  if (packed) await discard(call, rewritten);
  const candidates = [packed ?? rewritten, lossless].filter((c): c is string => !!c);
  const sized = await Promise.all(candidates.map(async (name) => ({ name, size: await sizeOf(call, name) })));
  let best = sized.reduce((a, b) => (b.size < a.size ? b : a));
  await discard(call, ...candidates.filter((c) => c !== best.name));
  const sizeBefore = await sizeOf(call, doc.name); // of the flattened copy when flattenSignatures
  // web: linearized (first page shown while the rest loads) when that still leaves it smaller than the input
  const linearName =
    profile === "web" && best.size < sizeBefore ? await qpdfShrink(call, best.name, "web", true) : undefined;
  const linear = linearName ? { name: linearName, size: await sizeOf(call, linearName) } : undefined;
  if (linear && linear.size < sizeBefore) {
    await discard(call, best.name);
    best = linear;
  } else if (linear) await discard(call, linear.name);
  const smaller = best.size < sizeBefore;
  if (!smaller) await discard(call, best.name);
  // not smaller: the input, flattened when asked
  const chosen = smaller ? best : { name: doc.name, size: sizeBefore };
  return {
    data: await localFile(call, chosen.name),
    sizeBefore: originalSize,
    sizeAfter: chosen.size,
    unchanged: chosen.name === original.name,
    linearized: smaller && best === linear,
    profile,
  };
}

/**
 * The Ghostscript engine (kind pdf: pdfa, pdfx, optimize). It takes files (issue 49): a framed call's input reaches it
 * as a LocalFile in the call's folder, and its outputs go back as files, so a 1 GB scan is never held in memory.
 */
export const ghostscript = {
  kind: "pdf",
  methods: { pdfa, pdfx, optimize },
  files: true,
} satisfies NativeEngineDef<"pdf">;

export default ghostscript;
