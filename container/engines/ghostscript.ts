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
import { join } from "node:path";
import { NativeError, check, get, put, run, tool, why, type NativeCall, type NativeEngineDef } from "./common.ts";

/** One input PDF as the Worker sends it (src/engines/pdf/types.ts PdfInput). */
interface PdfIn {
  data: Uint8Array;
  filename: string;
  password?: string;
}

/** Ghostscript's ICC directory (Debian: libgs-common). */
const ICC_DIRS = ["/usr/share/color/icc/ghostscript", "/usr/share/ghostscript/iccprofiles"];
const iccDir = () => ICC_DIRS.find((d) => existsSync(join(d, "srgb.icc")) || existsSync(join(d, "default_rgb.icc"))) ?? ICC_DIRS[0];
const icc = (names: string[]) => names.map((n) => join(iccDir(), n)).find(existsSync);

/** A PostScript string literal: parentheses and backslashes escaped. */
const ps = (s: string) => `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;

/** Maps a gs failure to a code. */
function gsFailure(text: string, filename: string): NativeError {
  if (/requires a password|Password did not work|Invalid password/i.test(text)) return new NativeError("INVALID_PASSWORD", `${filename} is encrypted and the password given does not open it.`);
  if (/VMerror|out of memory/i.test(text)) return new NativeError("OVER_BUDGET", `${filename} needs more memory than the native engine allows one call.`);
  return new NativeError("OPEN_FAILED", `Ghostscript could not process ${filename}: ${why(text, /Error|error/)}`);
}

/** Runs pdfwrite over `input` with `args` (+ optional def file before the input); returns out.pdf's bytes. */
async function pdfwrite(call: NativeCall, input: PdfIn, args: string[], def?: string): Promise<Uint8Array> {
  const gs = tool(call, "ghostscript");
  const inPath = await put(call, "in.pdf", input.data);
  const defArgs = def ? [await put(call, "def.ps", new TextEncoder().encode(def))] : [];
  const pw = input.password ? [`-sPDFPassword=${input.password}`] : [];
  const r = await run(call, gs.path, [
    "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dNOINTERPOLATE", `--permit-file-read=${iccDir()}/`, "-sDEVICE=pdfwrite",
    ...pw, ...args, "-sOutputFile=out.pdf", ...defArgs, inPath,
  ]);
  check(r, "Ghostscript", (t) => gsFailure(t, input.filename));
  if (/requires a password/i.test(r.stdout + r.stderr)) throw gsFailure("requires a password", input.filename);
  return get(call, "out.pdf");
}

/** PDF/A conformance levels Ghostscript writes (B only), by the `conformance_level` the task gives. */
const PDFA_PART: Record<string, number> = { "1b": 1, "2b": 2, "3b": 3 };

async function pdfa(req: { input: PdfIn; conformance: string }, call: NativeCall) {
  const part = PDFA_PART[req.conformance.toLowerCase()];
  if (!part) throw new NativeError("UNSUPPORTED", `PDF/A-${req.conformance} is not written here; conformance_level may be 1b, 2b or 3b.`);
  const profile = icc(["srgb.icc", "default_rgb.icc"]);
  if (!profile) throw new NativeError("ENGINE_UNAVAILABLE", "Ghostscript's sRGB ICC profile is missing (package libgs-common).");
  // The output intent (ISO 19005-1 §6.2.2) of PDFA_def.ps, with the profile's absolute path.
  const def = `/ICCProfile ${ps(profile)} def
[/_objdef {icc_PDFA} /type /stream /OBJ pdfmark
[{icc_PDFA} << /N 3 >> /PUT pdfmark
[{icc_PDFA} ICCProfile (r) file /PUT pdfmark
[/_objdef {OutputIntent_PDFA} /type /dict /OBJ pdfmark
[{OutputIntent_PDFA} << /Type /OutputIntent /S /GTS_PDFA1 /DestOutputProfile {icc_PDFA} /OutputConditionIdentifier (sRGB) >> /PUT pdfmark
[{Catalog} << /OutputIntents [ {OutputIntent_PDFA} ] >> /PUT pdfmark
`;
  const data = await pdfwrite(call, req.input, [`-dPDFA=${part}`, "-dPDFACompatibilityPolicy=1", "-sColorConversionStrategy=RGB"], def);
  return { data, part, conformance: "B" };
}

/** GTS_PDFXVersion by variant (ISO 15930-1, -3, -7). */
const PDFX_VERSION: Record<string, string> = { "1a": "PDF/X-1a:2001", "3": "PDF/X-3:2002", "4": "PDF/X-4" };

async function pdfx(req: { input: PdfIn; variant: string }, call: NativeCall) {
  const version = PDFX_VERSION[req.variant];
  if (!version) throw new NativeError("UNSUPPORTED", `PDF/X-${req.variant} is not written here; variant may be 1a, 3 or 4.`);
  const profile = icc(["default_cmyk.icc", "ps_cmyk.icc"]);
  if (!profile) throw new NativeError("ENGINE_UNAVAILABLE", "Ghostscript's CMYK ICC profile is missing (package libgs-common).");
  const conformance = req.variant === "1a" ? ` /GTS_PDFXConformance ${ps(version)}` : "";
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
  let data = await pdfwrite(call, req.input, ["-dPDFX", "-sColorConversionStrategy=CMYK"], def);
  if (req.variant === "4") data = await raiseVersion(call, data, "1.6");
  return { data, version };
}

/** Raises the PDF header version with qpdf (PDF/X-4 requires PDF 1.6, ISO 15930-7 §6.1). */
async function raiseVersion(call: NativeCall, data: Uint8Array, version: string): Promise<Uint8Array> {
  const qpdf = tool(call, "qpdf");
  await put(call, "x.pdf", data);
  const r = await run(call, qpdf.path, [`--min-version=${version}`, "x.pdf", "x-out.pdf"]);
  if (r.killed || (r.code !== 0 && r.code !== 3)) throw new NativeError("CONVERSION_FAILED", `qpdf could not set the PDF version: ${why(r.stderr)}`);
  return get(call, "x-out.pdf");
}

/**
 * The optimize profiles (service-spec.md "optimize"): web = screen-sized images, RGB, fonts subset,
 * linearized; print = 300 dpi images, CMYK; archive = images recompressed but not downsampled;
 * mrc = scans: colour at 150 dpi JPEG, monochrome at 300 dpi CCITT G4 (Ghostscript has no JBIG2
 * or true MRC layering); max = 72 dpi images, lowest quality.
 */
const PROFILES: Record<string, string[]> = {
  web: ["-dPDFSETTINGS=/ebook", "-sColorConversionStrategy=RGB", "-dFastWebView=true"],
  print: ["-dPDFSETTINGS=/printer", "-sColorConversionStrategy=CMYK"],
  archive: ["-dPDFSETTINGS=/default", "-dDownsampleColorImages=false", "-dDownsampleGrayImages=false", "-dDownsampleMonoImages=false"],
  mrc: ["-dPDFSETTINGS=/ebook", "-dColorImageResolution=150", "-dGrayImageResolution=150", "-dMonoImageResolution=300", "-dMonoImageFilter=/CCITTFaxEncode"],
  max: ["-dPDFSETTINGS=/screen", "-sColorConversionStrategy=RGB"],
};

async function optimize(req: { input: PdfIn; profile?: string }, call: NativeCall) {
  const profile = req.profile ?? "web";
  const args = PROFILES[profile];
  if (!args) throw new NativeError("UNSUPPORTED", `optimize profile ${profile} is unknown; use web, print, archive, mrc or max.`);
  const common = ["-dDetectDuplicateImages=true", "-dCompressFonts=true", "-dSubsetFonts=true", "-dAutoRotatePages=/None"];
  const out = await pdfwrite(call, req.input, [...args, ...common]);
  const sizeBefore = req.input.data.length;
  // Never hand back a "compressed" file that grew: the input is returned unchanged (issue 12).
  const unchanged = out.length >= sizeBefore;
  return { data: unchanged ? req.input.data : out, sizeBefore, sizeAfter: unchanged ? sizeBefore : out.length, unchanged, profile };
}

/** The Ghostscript engine (kind pdf: pdfa, pdfx, optimize). */
export const ghostscript: NativeEngineDef = { tool: "ghostscript", methods: { pdfa, pdfx, optimize } };
