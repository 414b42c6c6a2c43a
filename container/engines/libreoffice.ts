/**
 * LibreOffice: office documents → PDF (and PDF → docx/odt where the pool supports it) through the
 * warm pool (container/office/pool.ts): several soffice processes, each with its own hardened
 * profile, reused across documents. Reports the fonts the document asked for that this host does
 * not have, with the face fontconfig substituted (issue 12: "so a user sees why a layout moved").
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { OfficeError, OfficePool } from "../office/pool.ts";
import type { OfficeRequest } from "../../native-protocol/office.ts";
import { NativeError, get, localName, put, tool, type NativeCall, type NativeEngineDef } from "./common.ts";

let pool: OfficePool | undefined;

/** The pool, started on first use. Size from NATIVE_OFFICE_POOL (default 2). */
export function officePool(workRoot: string): OfficePool {
  pool ??= new OfficePool({
    workRoot: join(workRoot, "office"),
    size: Number(process.env.NATIVE_OFFICE_POOL ?? 2) || 2,
  });
  return pool;
}

/** Stops the pool's processes (server shutdown). */
export async function closeOfficePool(): Promise<void> {
  await pool?.close();
  pool = undefined;
}

const matches = new Map<string, string>();

/** The family fontconfig gives for `family` (cached). */
function fcMatch(family: string): Promise<string> {
  const hit = matches.get(family);
  if (hit !== undefined) return Promise.resolve(hit);
  return new Promise((ok) =>
    execFile("fc-match", ["-f", "%{family}", family], { timeout: 5000 }, (e, out) => {
      const used = e ? "" : String(out).split(",")[0]!.trim();
      matches.set(family, used);
      ok(used);
    }),
  );
}

/** Fonts asked for but not installed, with what was used instead. */
async function substitutions(requested: string[]): Promise<{ requested: string; used: string }[]> {
  const out = [];
  for (const family of [...new Set(requested)].filter(Boolean)) {
    const used = await fcMatch(family);
    if (used && used.toLowerCase() !== family.toLowerCase()) out.push({ requested: family, used });
  }
  return out;
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const startsWith = (b: Uint8Array, sig: number[]) => sig.every((x, i) => b[i] === x);
/** Signatures by extension: OOXML and ODF are ZIP (an encrypted OOXML is an OLE container), Office 97 is OLE, RTF is text. */
const SIGNATURES: Record<string, (b: Uint8Array) => boolean> = {
  ...Object.fromEntries(
    ["docx", "docm", "dotx", "xlsx", "xlsm", "xltx", "pptx", "pptm", "ppsx", "potx"].map((e) => [
      e,
      (b: Uint8Array) => startsWith(b, ZIP) || startsWith(b, OLE),
    ]),
  ),
  ...Object.fromEntries(
    ["odt", "ott", "ods", "ots", "odp", "otp", "odg"].map((e) => [e, (b: Uint8Array) => startsWith(b, ZIP)]),
  ),
  ...Object.fromEntries(
    ["doc", "dot", "xls", "xlt", "ppt", "pps", "pot"].map((e) => [e, (b: Uint8Array) => startsWith(b, OLE)]),
  ),
  rtf: (b) => new TextDecoder().decode(b.subarray(0, 5)) === "{\\rtf",
};

/**
 * Refuses a file whose bytes are not of the format its name says: LibreOffice would otherwise
 * import unknown bytes as plain text and "convert" garbage into a PDF.
 * @throws NativeError OPEN_FAILED
 */
function sniff(filename: string, data: Uint8Array): void {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase() ?? "";
  const ok = SIGNATURES[ext];
  if (ok && !ok(data))
    throw new NativeError(
      "OPEN_FAILED",
      `${filename} is not a ${ext.toUpperCase()} document (its bytes do not start like one).`,
    );
}

async function convert(req: OfficeRequest, call: NativeCall) {
  tool(call, "libreoffice");
  sniff(req.input.filename, req.input.data);
  const format = req.format ?? "pdf";
  const input = await put(call, localName("in", req.input.filename), req.input.data);
  const output = join(call.work, `out.${format}`);
  try {
    const r = await officePool(call.root).convert({
      input,
      output,
      format,
      password: req.input.password,
      ...(format === "pdf" && req.pdf?.pages ? { pages: req.pdf.pages } : {}),
      ...(format === "pdf" && req.pdf?.pdfa ? { pdfa: req.pdf.pdfa } : {}),
      timeoutMs: call.timeoutMs,
    });
    return {
      data: await get(call, `out.${format}`),
      pages: r.pages,
      fontsSubstituted: await substitutions(r.fontsRequested),
    };
  } catch (err) {
    if (err instanceof OfficeError) {
      const code =
        err.code === "CONVERT_FAILED"
          ? "CONVERSION_FAILED"
          : err.code === "ENGINE_CRASHED"
            ? "CONVERSION_FAILED"
            : err.code;
      throw new NativeError(code, `${req.input.filename}: ${err.message}`);
    }
    throw err;
  }
}

/** The LibreOffice engine (kind office: convert). */
export const libreoffice: NativeEngineDef = { tool: "libreoffice", methods: { convert } };
