/**
 * The native engine: a small HTTP service running native tools (Ghostscript, LibreOffice, qpdf,
 * ImageMagick, GraphicsMagick, ffmpeg, tesseract) for the api Worker (issue 12). In production it is the process of a
 * Cloudflare Container (container/Dockerfile); locally and in CI the very same file runs as a
 * loopback process (`npm start` and the tests start it). Wire: native-protocol/wire.ts.
 *
 * Run: node container/server.ts   (Node ≥ 23.6, type stripping)
 * Environment: PORT (8080), HOST (127.0.0.1; 0.0.0.0 in the container), NATIVE_WORK_DIR (a fresh
 * temp folder), NATIVE_MAX_SECONDS (cap of one call, 600), NATIVE_MEMORY_MB (RLIMIT_AS of each tool
 * run, 2048), NATIVE_MAX_BODY_MB (largest request held in memory, {@link DEFAULT_MAX_BODY_MB}), NATIVE_MAX_STREAM_MB
 * (largest framed request, written to disk, {@link DEFAULT_MAX_STREAM_MB}), NATIVE_BODY_IDLE_SECONDS (longest pause
 * inside a framed request's body, 60), NATIVE_OFFICE_POOL (soffice processes, 2), NATIVE_OFFICE_MEMORY_MB (RLIMIT_AS
 * of each soffice, 3072; engines/libreoffice.ts), NATIVE_DISK_BUDGET_BYTES (disk the
 * calls in flight may hold between them, container/disk-budget.ts; default 90% of the work folder's free space).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { mkdirSync, mkdtempSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { NativeError, methodOf, type NativeCall, type NativeEngineDef } from "./engines/common.ts";
import { closeOfficePool } from "./engines/libreoffice.ts";
import { NATIVE_ENGINES, engineFile, wireName, type NativeEngineSpec } from "../native-protocol/engines.ts";
import { DEADLINE_HEADER, pack, unpack, type Health } from "../native-protocol/wire.ts";
import { FrameError } from "../native-protocol/frame.ts";
import { BodyIdle, BodyTooLarge, isFramed, readFramed, sendFramed, withBytes } from "./framed.ts";
import { DiskBudgetBusy, DiskBudgetTooSmall, diskBudgetOf, type Release } from "./disk-budget.ts";
import { installHint, probeTools } from "./tools.ts";

/** A native engine served: its row of native-protocol/engines.ts and its methods. */
interface Served {
  row: NativeEngineSpec;
  def: NativeEngineDef;
}

/**
 * Loads native engine `row`: the engine its file under engines/ default-exports.
 * @throws Error when the file's engine is not of the row's kind
 */
async function load(row: NativeEngineSpec): Promise<Served> {
  const mod = (await import(`./engines/${engineFile(row)}.ts`)) as { default?: NativeEngineDef };
  const def = mod.default;
  if (def?.kind !== row.kind)
    throw new Error(`container/engines/${engineFile(row)}.ts: not a ${row.kind} engine (native-protocol/engines.ts)`);
  return { row, def };
}

/** The engines served, by their name on the wire (native-protocol/engines.ts). */
const ENGINES = new Map(await Promise.all(NATIVE_ENGINES.map(async (r) => [wireName(r), await load(r)] as const)));

const env = process.env;
const port = Number(env.PORT ?? 8080);
const host = env.HOST ?? "127.0.0.1";
const ownRoot = !env.NATIVE_WORK_DIR;
const root = env.NATIVE_WORK_DIR ?? mkdtempSync(join(tmpdir(), "native-engine-"));
mkdirSync(root, { recursive: true });
const maxMs = Number(env.NATIVE_MAX_SECONDS ?? 600) * 1000;
const memoryBytes = Number(env.NATIVE_MEMORY_MB ?? 2048) * 1024 * 1024;
/**
 * The largest request body by default, MiB (NATIVE_MAX_BODY_MB overrides). A body over it is answered 413 with the
 * wire's error body {message}: at once when its Content-Length says so, and when a body without one (chunked) grows
 * past it while it is read — a multipart body is read into memory whole, so no body may grow without end.
 */
const DEFAULT_MAX_BODY_MB = 512;
const maxBody = Number(env.NATIVE_MAX_BODY_MB ?? DEFAULT_MAX_BODY_MB) * 1024 * 1024;
/**
 * The largest framed request by default, MiB (NATIVE_MAX_STREAM_MB overrides; issue 35): its file parts go to disk
 * as they arrive, so this bounds the call's disk, not its memory — a 5 GiB file (the Worker's MAX_IMPORT_BYTES
 * default, the native media row's budget) plus the in-memory limit's worth of other parts. Over it: the same 413.
 */
const DEFAULT_MAX_STREAM_MB = 5 * 1024 + DEFAULT_MAX_BODY_MB;
const maxStream = Number(env.NATIVE_MAX_STREAM_MB ?? DEFAULT_MAX_STREAM_MB) * 1024 * 1024;
const bodyIdleMs = Number(env.NATIVE_BODY_IDLE_SECONDS ?? 60) * 1000;
/** The disk the calls in flight may hold between them (NATIVE_DISK_BUDGET_BYTES, else 90% of the root's free space). */
const disk = diskBudgetOf(env.NATIVE_DISK_BUDGET_BYTES, root);
const { found: tools, status } = await probeTools();

/**
 * Reads the request's body whole.
 * @throws BodyTooLarge once more than `max` bytes arrived (the rest is read and dropped, as Node drops an unread body)
 */
function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let seen = 0;
    req.on("data", (chunk: Buffer) => {
      seen += chunk.length;
      if (seen <= max) chunks.push(chunk);
      else if (seen - chunk.length <= max) {
        // the chunk that crossed the limit: drop what was kept; later chunks are dropped as they come
        chunks.length = 0;
        reject(new BodyTooLarge(`Request body over ${max} bytes.`));
      }
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/**
 * Reads a buffered (multipart) request: the wire of native-protocol/wire.ts. `admit` is called with its size once
 * it is read (the disk budget of a request that declared no Content-Length).
 */
async function readMultipart(req: IncomingMessage, admit: (declared: number) => void): Promise<unknown> {
  const bytes = await readBody(req, maxBody);
  admit(bytes.byteLength);
  const request = new Request(`http://native${req.url}`, {
    method: "POST",
    headers: { "content-type": req.headers["content-type"] ?? "" },
    body: new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength),
  });
  return unpack(await request.formData());
}

/**
 * Answers one /invoke call: an EngineResult as data, whatever the tool did. A framed request (native-protocol/frame.ts)
 * is read part by part into the call's folder and answered framed, its LocalFile answers streamed from disk; the
 * folder is removed once the answer is sent (or the call failed). The call's disk is reserved from its declared size
 * before its folder is made (by Content-Length; without one, from its framed header or its multipart body as read),
 * and released once the folder is removed.
 * @throws DiskBudgetTooSmall | DiskBudgetBusy (refused by the disk budget) | BodyTooLarge | BodyIdle | FrameError |
 *   what reading a multipart body throws
 */
async function invoke({ row, def }: Served, method: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const abort = new AbortController();
  res.on("close", () => !res.writableFinished && abort.abort());
  const asked = Number(req.headers[DEADLINE_HEADER]);
  const framed = isFramed(req);
  const length = req.headers["content-length"];
  let release: Release | undefined = length !== undefined ? disk.reserve(Number(length)) : undefined;
  const admit = (declared: number) => void (release ??= disk.reserve(declared));
  let work: string | undefined;
  let sending = false;
  try {
    work = await mkdtemp(join(root, "call-"));
    const body = (
      framed
        ? await readFramed(req, work, !!def.files, {
            maxBytes: maxStream,
            maxMemoryBytes: maxBody,
            idleMs: bodyIdleMs,
            admit,
          })
        : await readMultipart(req, admit)
    ) as Record<string, unknown>;
    const call: NativeCall = {
      work,
      root,
      timeoutMs: Math.min(maxMs, asked > 0 ? asked : maxMs),
      memoryBytes,
      signal: abort.signal,
      tools,
    };
    // one tool: the engine's; several (the command engine): the one the request names
    const toolName = row.tools.length === 1 ? row.tools[0]! : String(body.engine ?? "");
    const version = tools.get(toolName)?.version ?? "unavailable";
    let answer: unknown;
    try {
      if (toolName && !tools.has(toolName))
        throw new NativeError(
          "ENGINE_UNAVAILABLE",
          `${toolName} is not installed in the native engine (${installHint(toolName)}).`,
        );
      answer = { ok: true, engineVersion: version, ...(await methodOf(def, method)!(body, call)) };
    } catch (err) {
      const e =
        err instanceof NativeError
          ? err
          : new NativeError("INTERNAL_ERROR", `native engine: ${err instanceof Error ? err.message : String(err)}`);
      answer = { ok: false, engineVersion: version, error: { code: e.code, message: e.message, retryable: false } };
    }
    if (framed) {
      sending = true;
      const folder = work;
      const done = () => void rm(folder, { recursive: true, force: true }).finally(() => release?.());
      // a client gone while the tool ran: nothing to send, and no "close" to wait for
      if (res.destroyed) return done();
      res.on("close", done);
      sendFramed(res, answer);
      return;
    }
    const out = new Response(pack(await withBytes(answer)));
    res.writeHead(200, { "content-type": out.headers.get("content-type")! });
    Readable.fromWeb(out.body! as never).pipe(res);
  } finally {
    if (!sending) {
      if (work) await rm(work, { recursive: true, force: true });
      release?.();
    }
  }
}

/** How long a client refused by the disk budget may go on sending its body before its connection is cut, ms. */
const DRAIN_MS = 5_000;

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://native");
  const fail = (status: number, message: string) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ message }));
  };
  if (req.method === "GET" && (url.pathname === "/health" || url.pathname === "/")) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ tools: status } satisfies Health));
    return;
  }
  const m = /^\/invoke\/([\w-]+)\/(\w+)$/.exec(url.pathname);
  const served = m ? ENGINES.get(m[1]!) : undefined;
  if (req.method !== "POST" || !m || !served || !methodOf(served.def, m[2]!))
    return fail(404, `No such engine method: ${req.method} ${url.pathname}`);
  const limit = isFramed(req) ? maxStream : maxBody;
  if (Number(req.headers["content-length"] ?? 0) > limit) return fail(413, `Request body over ${limit} bytes.`);
  invoke(served, m[2]!, req, res).catch((err) => {
    if (res.headersSent) return res.destroy();
    const refused = err instanceof DiskBudgetBusy || err instanceof DiskBudgetTooSmall;
    if (refused && !req.readableEnded) {
      // refused by the disk budget before a byte was read, the client is still sending: the connection stays open and
      // Node reads and drops the body (memory and disk untouched), so the client reads the answer before anything
      // resets; the Worker's client then stops sending (nativeRpc aborts its request), and a client that goes on
      // sending for DRAIN_MS more loses the connection
      res.on("finish", () => {
        const cut = setTimeout(() => req.socket.destroy(), DRAIN_MS).unref();
        req.once("end", () => clearTimeout(cut));
        req.once("close", () => clearTimeout(cut));
      });
    } else if (isFramed(req) && !req.readableEnded) {
      // a framed body left unread is not drained (it may be gigabytes): the answer closes the connection
      res.setHeader("connection", "close");
      res.on("finish", () => req.socket.destroy());
    }
    if (err instanceof DiskBudgetBusy) {
      res.setHeader("retry-after", String(err.retryAfterS));
      fail(503, err.message);
    } else if (err instanceof DiskBudgetTooSmall) fail(413, err.message);
    else if (err instanceof BodyTooLarge) fail(413, err.message);
    else if (err instanceof BodyIdle) fail(408, err.message);
    else
      fail(
        400,
        `Malformed request: ${err instanceof FrameError ? "framed body: " : ""}${err instanceof Error ? err.message : String(err)}`,
      );
  });
});

// Keep idle connections longer than the clients' pools do (undici: 4 s; workerd), so a client never writes into a
// connection this side has just closed (EPIPE on the next call after a pause).
server.keepAliveTimeout = 75_000;
server.headersTimeout = 80_000;
server.requestTimeout = 0; // a request may upload for as long as it takes; tool runs have their own limits

server.listen(port, host, () => {
  const have = status.map((t) => `${t.name} ${t.version ?? "missing"}`).join(", ");
  console.log(`native engine listening on http://${host}:${port} (${have}); disk budget ${disk.total} bytes`);
});

for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    server.close();
    closeOfficePool().finally(() =>
      (ownRoot ? rm(root, { recursive: true, force: true }) : Promise.resolve()).finally(() => process.exit(0)),
    );
  });
}
