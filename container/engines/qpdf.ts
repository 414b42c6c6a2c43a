/**
 * qpdf: the PDF page operations for documents over the Worker's budget (issue 12: "a 2,000-page PDF
 * that used to end OVER_BUDGET now finishes on the native engine"). The same methods, request
 * shapes and page notation as the in-Worker pdf-lib engine (src/engines/kinds/pdf.ts), so routing
 * can hand a task from one to the other.
 */
import { open as openFile, readdir } from "node:fs/promises";
import { LocalFile } from "../../native-protocol/frame.ts";
import type { PdfInput, PdfStreamableInput } from "../../native-protocol/pdf.ts";
import {
  NativeError,
  check,
  get,
  localFile,
  place,
  run,
  tool,
  why,
  type NativeCall,
  type NativeEngineDef,
} from "./common.ts";

/** Maps a qpdf failure (exit 2) to a code. Exit 3 means warnings only: a success. */
function qpdfFailure(text: string, filename: string): NativeError {
  if (/invalid password/i.test(text))
    return new NativeError("INVALID_PASSWORD", `${filename} is encrypted and the password given does not open it.`);
  return new NativeError("OPEN_FAILED", `qpdf could not read ${filename}: ${why(text)}`);
}

/** Runs qpdf; exit 0 and 3 (warnings) are success. */
async function qpdf(call: NativeCall, args: string[], filename: string): Promise<string> {
  const r = await run(call, tool(call, "qpdf").path, ["--no-warn", ...args]);
  check({ ...r, code: r.code === 3 ? 0 : r.code }, "qpdf", (t) => qpdfFailure(t, filename));
  return r.stdout;
}

const pw = (i: PdfStreamableInput) => [`--password=${i.password ?? ""}`];

/**
 * Places the input in the call's folder (its bytes written, or the file a framed call already wrote there moved:
 * issue 49) and returns its page count.
 */
async function open(call: NativeCall, input: PdfStreamableInput, name = "in.pdf"): Promise<number> {
  if (!(input.data instanceof Uint8Array) && !(input.data instanceof LocalFile))
    throw new NativeError("UNSUPPORTED", `${input.filename} reached the native engine as neither bytes nor a file.`);
  await place(call, name, input.data);
  return Number((await qpdf(call, [...pw(input), "--show-npages", name], input.filename)).trim());
}

/**
 * The page list (contract §6 notation, src/engines/kinds/pdf-pages.ts: "1,3,5-7", "5-") as qpdf's range
 * syntax, each page checked against `count`.
 * @throws NativeError INVALID_PAGES for a page past the end or a malformed item
 */
export function qpdfRange(spec: string, count: number): string {
  return spec
    .split(",")
    .map((raw) => {
      const m = /^\s*(\d+)\s*(?:(-)\s*(\d+)?)?\s*$/.exec(raw);
      if (!m) throw new NativeError("INVALID_PAGES", `"${raw.trim()}" is not a page or a range.`);
      const from = Number(m[1]);
      const to = m[2] ? (m[3] === undefined ? count : Number(m[3])) : from;
      for (const p of [from, to])
        if (p < 1 || p > count)
          throw new NativeError("INVALID_PAGES", `Page ${p} does not exist; the document has ${count} pages.`);
      return from === to ? `${from}` : `${from}-${to}`;
    })
    .join(",");
}

/** The first `n` bytes of an input, from its bytes or its file. */
async function head(data: PdfStreamableInput["data"], n: number): Promise<Uint8Array> {
  if (data instanceof Uint8Array) return data.subarray(0, n);
  if (!(data instanceof LocalFile)) return new Uint8Array();
  const f = await openFile(data.path);
  try {
    const buf = new Uint8Array(n);
    const { bytesRead } = await f.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await f.close();
  }
}

// Every page operation answers its files as LocalFiles: the server streams them from disk on a framed call (the
// Worker sent a large input as a stream) and reads them into the answer's bytes on the buffered wire.

async function split(req: { input: PdfStreamableInput }, call: NativeCall) {
  await open(call, req.input);
  await qpdf(call, [...pw(req.input), "--decrypt", "--split-pages", "in.pdf", "part-%d.pdf"], req.input.filename);
  const names = (await readdir(call.work))
    .filter((n) => /^part-\d+\.pdf$/.test(n))
    .sort((a, b) => Number(a.slice(5, -4)) - Number(b.slice(5, -4)));
  return { parts: await Promise.all(names.map((n) => localFile(call, n))) };
}

async function extract(req: { input: PdfStreamableInput; pages: string }, call: NativeCall) {
  const count = await open(call, req.input);
  await qpdf(
    call,
    [...pw(req.input), "--decrypt", "in.pdf", "--pages", ".", qpdfRange(req.pages, count), "--", "out.pdf"],
    req.input.filename,
  );
  return { data: await localFile(call, "out.pdf") };
}

async function rotate(req: { input: PdfStreamableInput; rotation: number; pages?: string }, call: NativeCall) {
  const count = await open(call, req.input);
  const range = req.pages ? qpdfRange(req.pages, count) : `1-${count}`;
  await qpdf(
    call,
    [...pw(req.input), "--decrypt", `--rotate=+${req.rotation}:${range}`, "in.pdf", "out.pdf"],
    req.input.filename,
  );
  return { data: await localFile(call, "out.pdf") };
}

async function merge(req: { inputs: PdfInput[]; filename: string }, call: NativeCall) {
  const args: string[] = [];
  for (const [i, input] of req.inputs.entries()) {
    if (new TextDecoder().decode(await head(input.data, 1024)).indexOf("%PDF-") < 0) {
      throw new NativeError("UNSUPPORTED", `${input.filename} is not a PDF; the native merge takes PDFs only.`);
    }
    await open(call, input, `in-${i}.pdf`);
    args.push(`in-${i}.pdf`, ...pw(input), "1-z");
  }
  await qpdf(call, ["--empty", "--pages", ...args, "--", "out.pdf"], req.filename);
  return { data: await get(call, "out.pdf") };
}

async function decrypt(req: { input: PdfStreamableInput }, call: NativeCall) {
  await open(call, req.input);
  await qpdf(call, [...pw(req.input), "--decrypt", "in.pdf", "out.pdf"], req.input.filename);
  return { data: await localFile(call, "out.pdf") };
}

/**
 * The qpdf engine (kind pdf: merge, split, extract, rotate, decrypt). It takes files (issue 49): a framed call's input
 * reaches it as a LocalFile in the call's folder, and its outputs go back as files, so a 1 GB PDF is never held in
 * memory.
 */
export const qpdfEngine = {
  kind: "pdf",
  methods: { merge, split, extract, rotate, decrypt },
  files: true,
} satisfies NativeEngineDef<"pdf">;

export default qpdfEngine;
