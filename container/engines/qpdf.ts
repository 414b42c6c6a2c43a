/**
 * qpdf: the PDF page operations for documents over the Worker's budget (issue 12: "a 2,000-page PDF
 * that used to end OVER_BUDGET now finishes on the native engine"). The same methods, request
 * shapes and page notation as the in-Worker pdf-lib engine (src/engines/kinds/pdf.ts), so routing
 * can hand a task from one to the other.
 */
import { readdir } from "node:fs/promises";
import { LocalFile } from "../../native-protocol/frame.ts";
import type { PdfPageFrame, PdfRequests, PdfStreamableInput } from "../../native-protocol/pdf.ts";
import {
  NativeError,
  check,
  head,
  localFile,
  place,
  put,
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

/** Runs qpdf; exit 0 and 3 (warnings) are success. @throws NativeError INVALID_PASSWORD | OPEN_FAILED | TIMEOUT */
export async function qpdf(call: NativeCall, args: string[], filename: string): Promise<string> {
  const r = await run(call, tool(call, "qpdf").path, ["--no-warn", ...args]);
  check({ ...r, code: r.code === 3 ? 0 : r.code }, "qpdf", (t) => qpdfFailure(t, filename));
  return r.stdout;
}

const pw = (i: PdfStreamableInput) => [`--password=${i.password ?? ""}`];

/**
 * Places the input in the call's folder (its bytes written, or the file a framed call already wrote there moved:
 * issue 49) and returns its page count.
 * @throws NativeError UNSUPPORTED (neither bytes nor a file) | INVALID_PASSWORD | OPEN_FAILED
 */
export async function open(call: NativeCall, input: PdfStreamableInput, name = "in.pdf"): Promise<number> {
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

/**
 * One PDF of the inputs' pages in order (qpdf --empty --pages): each input bytes or a file already in the call's folder
 * (a framed call's streamed parts, issue 49), the answer a file, so merging 1 GB PDFs holds none of them in memory.
 * @throws NativeError UNSUPPORTED for an input that is not a PDF (the Worker's pdf-lib takes JPEG and PNG pages)
 */
async function merge(req: PdfRequests["merge"], call: NativeCall) {
  const args: string[] = [];
  for (const [i, input] of req.inputs.entries()) {
    if (new TextDecoder().decode(await head(input.data, 1024)).indexOf("%PDF-") < 0) {
      throw new NativeError("UNSUPPORTED", `${input.filename} is not a PDF; the native merge takes PDFs only.`);
    }
    await open(call, input, `in-${i}.pdf`);
    args.push(`in-${i}.pdf`, ...pw(input), "1-z");
  }
  await qpdf(call, ["--empty", "--pages", ...args, "--", "out.pdf"], req.filename);
  return { data: await localFile(call, "out.pdf") };
}

/**
 * Writes `args` to the argument file `name` (qpdf @file: one argument a line) and answers "@name": for passwords, which
 * a command line shows to other processes, and for page lists longer than one argument may be.
 * @throws NativeError UNSUPPORTED for an argument with a line break (it would split into two)
 */
async function argFile(call: NativeCall, name: string, args: string[]): Promise<string> {
  if (args.some((a) => /[\r\n]/.test(a)))
    throw new NativeError("UNSUPPORTED", "A password with a line break cannot be given to the qpdf engine.");
  await put(call, name, new TextEncoder().encode(args.join("\n") + "\n"));
  return `@${name}`;
}

/** qpdf's y/n of a permission flag. */
const yn = (b: boolean) => (b ? "y" : "n");

/**
 * AES-256 encryption (qpdf --encrypt … 256, ISO 32000-2 revision 6) with the permissions mapped to qpdf's flags one
 * for one: printing → --print=full|low|none, copying → --extract, documentAssembly → --assemble, fillingForms →
 * --form, annotating → --annotate, modifying → --modify-other. qpdf ignores --accessibility at 256 bits (PDF 2.0
 * does not allow restricting it), so `contentAccessibility: false` comes back as a warning.
 */
async function encrypt(req: PdfRequests["encrypt"], call: NativeCall) {
  await open(call, req.input);
  const p = req.permissions;
  const print = p.printing === false ? "none" : p.printing === "lowResolution" ? "low" : "full";
  // the passwords go in an argument file (qpdf @file), not on a command line another process could read
  const args = await argFile(call, "encrypt.args", [
    ...pw(req.input),
    "--encrypt",
    req.userPassword,
    req.ownerPassword,
    "256",
    `--print=${print}`,
    `--extract=${yn(p.copying)}`,
    `--assemble=${yn(p.documentAssembly)}`,
    `--form=${yn(p.fillingForms)}`,
    `--annotate=${yn(p.annotating)}`,
    `--modify-other=${yn(p.modifying)}`,
    "--",
    "in.pdf",
    "out.pdf",
  ]);
  await qpdf(call, [args], req.input.filename);
  const warnings = p.contentAccessibility
    ? []
    : [
        "allow_accessibility false is not honoured by the qpdf engine: AES-256 PDFs (PDF 2.0) cannot restrict accessibility.",
      ];
  return { data: await localFile(call, "out.pdf"), ...(warnings.length ? { warnings } : {}) };
}

/** The longest one pdfinfo run may take, ms (as poppler.ts's runs). */
const PDFINFO_MAX_MS = 60_000;

/**
 * Each page's displayed frame in the box qpdf lays an overlay in (its TrimBox, which defaults to the CropBox):
 * poppler's pdfinfo -box, which reads the page tree without loading the pages' content.
 */
async function pageFrames(req: PdfRequests["pageFrames"], call: NativeCall): Promise<{ pages: PdfPageFrame[] }> {
  const count = await open(call, req.input);
  const password = req.input.password ? ["-opw", req.input.password, "-upw", req.input.password] : [];
  const r = await run(call, "pdfinfo", [...password, "-box", "-f", "1", "-l", String(count), "in.pdf"], {
    timeoutMs: Math.min(call.timeoutMs, PDFINFO_MAX_MS),
    // seven lines of at most ~80 characters a page: all of them (the output's tail is kept past the cap)
    maxOutput: count * 640 + 64 * 1024,
  });
  check(r, "pdfinfo", (t) => new NativeError("OPEN_FAILED", `pdfinfo could not read ${req.input.filename}: ${why(t)}`));
  const pages: PdfPageFrame[] = [];
  for (const m of r.stdout.matchAll(/^Page\s+(\d+) rot:\s+(-?\d+)/gm)) {
    const n = Number(m[1]);
    const box = new RegExp(`^Page\\s+${n} TrimBox:\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)`, "m").exec(r.stdout);
    if (!box) throw new NativeError("OPEN_FAILED", `pdfinfo gave no box for page ${n} of ${req.input.filename}.`);
    const [x0, y0, x1, y1] = box.slice(1).map(Number) as [number, number, number, number];
    const rotation = (((Number(m[2]) % 360) + 360) % 360) as number;
    const [w, h] = [Math.abs(x1 - x0), Math.abs(y1 - y0)];
    pages[n - 1] = rotation % 180 ? { width: h, height: w, rotation } : { width: w, height: h, rotation };
  }
  if (pages.length !== count || pages.some((p) => !p))
    throw new NativeError(
      "OPEN_FAILED",
      `pdfinfo listed ${pages.length} of the ${count} pages of ${req.input.filename}.`,
    );
  return { pages };
}

/**
 * Lays a watermark drawn in the Worker (`stamp`: a small PDF, one page per displayed frame) on the input's pages with
 * qpdf --overlay (--underlay for `below`): page i + 1 gets stamp page `stamp.pages[i]` (0: none). qpdf fits a stamp
 * page into the page's TrimBox upright as displayed (its /Rotate undone), centred, shrunk when larger and never
 * enlarged; a stamp page the size of the frame (pageFrames) lands 1:1. The output is written unencrypted, as pdf-lib's.
 * @throws NativeError UNSUPPORTED without a stamp (qpdf draws no text) | CONVERSION_FAILED when the stamp's page list
 *   does not match the document
 */
async function watermark(req: PdfRequests["watermark"], call: NativeCall) {
  const stamp = req.stamp;
  if (!stamp)
    throw new NativeError("UNSUPPORTED", "The native qpdf lays a watermark drawn in the Worker; it draws none itself.");
  const count = await open(call, req.input);
  if (stamp.pages.length !== count)
    throw new NativeError(
      "CONVERSION_FAILED",
      `The watermark was drawn for ${stamp.pages.length} pages; ${req.input.filename} has ${count}.`,
    );
  const to: number[] = [];
  const from: number[] = [];
  for (const [i, k] of stamp.pages.entries()) if (k > 0) (to.push(i + 1), from.push(k));
  if (!to.length) {
    await qpdf(call, [...pw(req.input), "--decrypt", "in.pdf", "out.pdf"], req.input.filename);
    return { data: await localFile(call, "out.pdf") };
  }
  await place(call, "stamp.pdf", stamp.data);
  // the page lists in an argument file (qpdf @file): one per page of a 100,000-page document is past a command line's
  const args = [
    ...pw(req.input),
    "--decrypt",
    stamp.below ? "--underlay" : "--overlay",
    "stamp.pdf",
    `--to=${to.join(",")}`,
    `--from=${from.join(",")}`,
    "--",
    "in.pdf",
    "out.pdf",
  ];
  await qpdf(call, [await argFile(call, "overlay.args", args)], req.input.filename);
  return { data: await localFile(call, "out.pdf") };
}

async function decrypt(req: PdfRequests["decrypt"], call: NativeCall) {
  await open(call, req.input);
  await qpdf(call, [...pw(req.input), "--decrypt", "in.pdf", "out.pdf"], req.input.filename);
  return { data: await localFile(call, "out.pdf") };
}

/**
 * The qpdf engine (kind pdf: merge, split, extract, rotate, encrypt, decrypt, watermark of a stamp drawn in the Worker,
 * and the page frames it is drawn for). It takes files (issue 49): a framed call's inputs reach it as LocalFiles in the
 * call's folder, and its outputs go back as files, so a 1 GB PDF is never held in memory.
 */
export const qpdfEngine = {
  kind: "pdf",
  methods: { merge, split, extract, rotate, encrypt, decrypt, watermark, pageFrames },
  files: true,
} satisfies NativeEngineDef<"pdf">;

export default qpdfEngine;
