/**
 * Debian's exiftool (libimage-exiftool-perl) for the metadata kind (issue 49): the files over the WebAssembly
 * ExifTool's budget, with the same requests and answers (src/engines/kinds/metadata.ts, the rules shared in
 * native-protocol/metadata.ts), so routing hands a task from one to the other. A file over the Worker's threshold
 * comes streamed into the call's folder (LocalFile); the written file goes back as a LocalFile, streamed from disk.
 *
 * Range reads (issue 49: "metadata reads what ExifTool needs with range reads from R2") are the WebAssembly
 * ExifTool's (src/engines/exiftool/ranged.ts: zeroperl awaits a Blob's slices, so ExifTool's reads become ranged
 * reads of the stored file through the engine Worker's RPC): a stored file of any size is read there first, and only
 * one ExifTool reads through past that engine's byte budget (a long text file), or one not stored where ranges are
 * read, comes here. This engine cannot read by ranges: the framed wire is one request and one answer
 * (native-protocol/frame.ts), so nothing could ask the Worker for a range in the middle of a call, and the container
 * holds no R2 credentials; so the file is streamed to its disk, and no byte of it is held in memory.
 *
 * Nothing the user sends reaches ExifTool's options: the file is `input.<ext>` (the extension only when it is plain
 * letters and digits), `-config ""` comes first so no configuration file is loaded (ExifTool's own rule: it must be
 * the first argument), there is no `-@` argument file, and each property is one `-Tag=value` argument whose name
 * `checkTags` has held to letters, digits, `-`, `_` and one group (no `<` redirection from a file, no option names).
 */
import { stat } from "node:fs/promises";
import { LocalFile } from "../../native-protocol/frame.ts";
import {
  NATIVE_METADATA_BUDGET,
  checkTags,
  messagesOf,
  tagArgs,
  toMetadata,
  writeRefusal,
  type NativeMetadataReadRequest,
  type NativeMetadataWriteRequest,
} from "../../native-protocol/metadata.ts";
import { NativeError, localFile, place, run, tool, why, type NativeCall, type NativeEngineDef } from "./common.ts";

/** Largest `exiftool -json` output kept, bytes (a file with large XMP or many tags prints a few hundred KiB). */
const MAX_JSON_BYTES = 16 * 1024 * 1024;

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1).replace(/\.0$/, "")} MiB`;

/** The local name of the input or output: `stem` plus the format's extension when it is a plain one (as the WebAssembly engine names it). */
export function exiftoolName(filename: string, format: string | undefined, stem: string): string {
  const ext = (format ?? (filename.includes(".") ? filename.slice(filename.lastIndexOf(".") + 1) : "")).toLowerCase();
  return /^[a-z0-9]{1,10}$/.test(ext) ? `${stem}.${ext}` : stem;
}

/**
 * Puts the request's file in the call's folder under its local name, checked against the budget (bytes: what passed
 * through the Worker; a LocalFile: the streamed limit). Returns its local name.
 * @throws NativeError OVER_BUDGET | UNSUPPORTED (neither bytes nor a file)
 */
async function placeInput(req: NativeMetadataReadRequest, call: NativeCall): Promise<string> {
  const data = req.input;
  const what = String(req.filename ?? "the file");
  if (!(data instanceof Uint8Array) && !(data instanceof LocalFile))
    throw new NativeError("UNSUPPORTED", `${what} reached the native engine as neither bytes nor a file.`);
  const [bytes, max] =
    data instanceof LocalFile
      ? [data.size, NATIVE_METADATA_BUDGET.maxStreamBytes]
      : [data.byteLength, NATIVE_METADATA_BUDGET.maxBytes];
  if (bytes > max)
    throw new NativeError(
      "OVER_BUDGET",
      `${what} is ${mib(bytes)}; metadata is read here for files up to ${mib(max)}.`,
    );
  const name = exiftoolName(what, req.format, "input");
  await place(call, name, data);
  return name;
}

/** Runs exiftool with no configuration file loaded. @throws NativeError TIMEOUT */
async function exiftool(call: NativeCall, args: string[], what: string) {
  const r = await run(call, tool(call, "exiftool").path, ["-config", "", ...args], { maxOutput: MAX_JSON_BYTES });
  if (r.killed)
    throw new NativeError("TIMEOUT", `ExifTool did not finish ${what} within its time limit and was stopped.`);
  return r;
}

/** metadata: `exiftool -json` of the file, as the WebAssembly engine answers it (json rules shared). */
async function read(req: NativeMetadataReadRequest, call: NativeCall) {
  const started = Date.now();
  const what = String(req.filename ?? "the file");
  const input = await placeInput(req, call);
  const r = await exiftool(call, ["-json", input], `reading ${what}`);
  // ExifTool exits 1 with an Error property for a file it cannot make sense of: that answer is the result
  const metadata = toMetadata(r.stdout, what);
  if (!metadata)
    throw new NativeError(
      "OPEN_FAILED",
      `ExifTool could not read ${what}: ${why(`${r.stderr}\n${r.stdout}`) || r.signal || `exit code ${r.code}`}`,
    );
  return { metadata, ms: Date.now() - started, wasmMemoryBytes: 0 };
}

/** metadata/write: the properties written into a copy of the file (`exiftool -Tag=value… -o output input`). */
async function write(req: NativeMetadataWriteRequest, call: NativeCall) {
  const started = Date.now();
  const what = String(req.filename ?? "the file");
  const tags = req.tags && typeof req.tags === "object" ? req.tags : {};
  const problems = checkTags(tags);
  if (problems.length) throw new NativeError("CONVERSION_FAILED", problems.join(" "));
  const input = await placeInput(req, call);
  const output = exiftoolName(what, req.format, "output");
  const r = await exiftool(call, [...tagArgs(tags), "-o", output, input], `writing ${what}`);
  const messages = [
    ...messagesOf(r.stderr, input),
    ...messagesOf(r.stdout, input).filter((m) => !/image files? (created|updated|unchanged)/.test(m)),
  ];
  const refused = writeRefusal(messages, Object.keys(tags), what);
  if (refused) throw new NativeError(refused.code, refused.message);
  const written = await stat(`${call.work}/${output}`).catch(() => undefined);
  if (r.code !== 0 || !written?.isFile()) {
    const detail =
      messages.map((m) => m.replace(/^(Warning|Error): /, "")).join("; ") || r.signal || `exit code ${r.code}`;
    throw new NativeError("CONVERSION_FAILED", `ExifTool wrote nothing into ${what}: ${detail}`);
  }
  return {
    data: await localFile(call, output),
    warnings: messages.map((m) => m.replace(/^Warning: (\[minor\] )?/, "")),
    ms: Date.now() - started,
    wasmMemoryBytes: 0,
  };
}

/**
 * The native ExifTool engine (kind metadata: read, write, info). It takes files (issue 49): a streamed file reaches
 * it as a LocalFile in the call's folder, and the written file goes back from disk.
 */
export const exiftoolNative = {
  kind: "metadata",
  methods: { read, write, info: async () => ({ wasmMemoryBytes: 0 }) },
  files: true,
} satisfies NativeEngineDef<"metadata">;

export default exiftoolNative;
