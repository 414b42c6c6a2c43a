/**
 * import/sftp and export/sftp (issue 35; storage-connectors.md §2.9, §2.10, §3.5): an SFTP server
 * reached from the Worker over `cloudflare:sockets` with the npm `ssh2` client (pure JavaScript:
 * workerd's node:crypto covers curve25519, AES-GCM, Ed25519 and RSA). The Worker bundle needs
 * `nodejs_compat`, `cpu-features` aliased to a stub and `__dirname` defined (wrangler.toml);
 * ssh2 is imported lazily, when a task first opens a session.
 *
 * Login with `password` or `private_key` (OpenSSH or PEM; no passphrase, CloudConvert has none).
 * CloudConvert exposes no host-key parameter, so any host key is accepted. Paths are the server's:
 * absolute, or relative to the login directory. `file` is one remote file; `path` a directory:
 * an import takes every regular file under it (subdirectories too, symbolic links never followed),
 * each with its `dir`; an export writes `path/filename` for each file, creating missing directories.
 * Bytes stream in 64 KiB SFTP reads and writes, 8 in flight (at most 512 KiB of a file in memory).
 *
 * Errors: authentication refused or an unreadable key → INVALID_CREDENTIALS; SFTP "no such file"
 * → FILE_NOT_FOUND; "permission denied" → PERMISSION_DENIED; a connection that cannot be made,
 * times out or breaks → DOWNLOAD_FAILED/UPLOAD_FAILED, retryable. Messages never carry a secret.
 */
/// <reference path="./modules.d.ts" />
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import { unreachable, type StoreStep } from "../errors";
import { guardUrl } from "../http";
import { oneOf, optional, required } from "../params";
import type { StoreConnector, StoreObject, StoreSession } from "../types";
import { loadSsh2 } from "./load";

/** `port`: a number or a numeric string (the Java SDK sends "22"), 1–65535, default 22. */
const port = z
  .union([z.number().int("must be a whole number."), z.string().regex(/^\s*\d{1,5}\s*$/, "must be a port number.")])
  .transform(Number)
  .pipe(z.number().int().min(1, "must be 1–65535.").max(65535, "must be 1–65535."))
  .default(22);

const credentials = {
  host: required(255),
  port,
  username: required(255),
  password: optional(1024),
  private_key: optional(16_384),
};

export const sftpImportParams = z.object({
  ...credentials,
  file: optional(4096),
  path: optional(4096),
  filename: optional(255),
});
export const sftpExportParams = z.object({ ...credentials, file: optional(4096), path: optional(4096) });
export type SftpParams = z.infer<typeof sftpImportParams>;

/** SFTP status codes (draft-ietf-secsh-filexfer-02 §7) that ssh2 puts on its errors' `code`. */
const SFTP_NO_SUCH_FILE = 2;
const SFTP_PERMISSION_DENIED = 3;
const SFTP_NO_CONNECTION = 6;
const SFTP_CONNECTION_LOST = 7;

/** Bytes per SFTP read or write request (OpenSSH accepts up to 256 KiB; 64 KiB keeps memory small). */
const CHUNK = 64 * 1024;
/** SFTP requests one transfer keeps in flight (at most WINDOW × CHUNK bytes of a file in memory). */
const WINDOW = 8;
/** Deepest subdirectory level a `path` import descends to. */
const MAX_DEPTH = 16;
/** S_IFMT and the file types of an SFTP attrs `mode` (POSIX). */
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/** `host` in URL form for the SSRF guard ("::1" → "[::1]"). */
export function hostUrl(host: string, p = 22): string {
  return `http://${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${p}/`;
}

/** A 422 message when `host` is not a bare host name or IP address (no scheme, port, path or user). */
export function hostProblem(host: string | undefined): string[] {
  if (!host) return [];
  if (!/^(\[?[0-9a-fA-F:.]+\]?|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,253}[A-Za-z0-9])?)$/.test(host))
    return ["host: must be a host name or an IP address (no scheme, port or path)."];
  return [];
}

/** `message` with every secret value replaced by "********" (the server's words could echo a password). */
export function scrub(message: string, secrets: (string | undefined)[]): string {
  let out = message;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join("********");
  return out;
}

/** ssh2's SFTP error (numeric `code` = SFTP status) or connection error (`level`). */
type SshError = Error & { code?: number | string; level?: string };

/** The task error of an SFTP operation's failure on `what` (a remote path). */
export function sftpError(err: unknown, step: StoreStep, what: string, secrets: (string | undefined)[]): TaskError {
  if (err instanceof TaskError) return err;
  const e = err as SshError;
  const msg = scrub(e?.message ?? String(err), secrets);
  const failed = step === "upload" ? "UPLOAD_FAILED" : "DOWNLOAD_FAILED";
  if (e?.code === SFTP_NO_SUCH_FILE) return new TaskError("FILE_NOT_FOUND", `SFTP: ${what} does not exist (${msg}).`);
  if (e?.code === SFTP_PERMISSION_DENIED)
    return new TaskError("PERMISSION_DENIED", `SFTP server denied the ${step} of ${what} (permission denied).`);
  const lost = e?.code === SFTP_NO_CONNECTION || e?.code === SFTP_CONNECTION_LOST || typeof e?.code === "string";
  return new TaskError(failed, `SFTP ${step} of ${what} failed: ${msg}`, { retryable: lost, cause: err });
}

/** Promise form of an ssh2 callback call. */
function call<T>(fn: (cb: (err: Error | null | undefined, v: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => fn((err, v) => (err ? reject(err) : resolve(v))));
}

/** The narrow part of ssh2's SFTPWrapper this store uses. */
interface Sftp {
  readdir(
    path: string,
    cb: (err: Error | undefined, list: { filename: string; attrs: { mode: number; size: number } }[]) => void,
  ): void;
  stat(path: string, cb: (err: Error | undefined, attrs: { mode: number; size: number }) => void): void;
  open(path: string, flags: string, cb: (err: Error | undefined, handle: Buffer) => void): void;
  read(
    h: Buffer,
    buf: Buffer,
    off: number,
    len: number,
    pos: number,
    cb: (err: Error | undefined, n: number) => void,
  ): void;
  write(
    h: Buffer,
    buf: Buffer,
    off: number,
    len: number,
    pos: number,
    cb: (err: Error | undefined, v?: unknown) => void,
  ): void;
  close(h: Buffer, cb: (err: Error | undefined, v?: unknown) => void): void;
  mkdir(path: string, cb: (err: Error | undefined, v?: unknown) => void): void;
}

/** The parent directories of `path` that may need creating, outermost first ("a/b/c.pdf" → ["a", "a/b"]). */
export function parentDirs(path: string): string[] {
  const parts = path.split("/");
  const out: string[] = [];
  for (let i = 1; i < parts.length - 1; i++) if (parts[i]) out.push(parts.slice(0, i + 1).join("/"));
  if (parts.length > 1 && parts[0]) out.unshift(parts[0]);
  return out;
}

/** Logs in over SSH and opens the SFTP subsystem; answers the client (to end) and the SFTP channel. */
async function login(p: SftpParams, signal: AbortSignal, step: StoreStep) {
  const where = `${p.host}:${p.port ?? 22}`;
  const secrets = [p.password, p.private_key];
  let sock;
  try {
    const { openSocket } = await import("./socket"); // node:stream, loaded only in the Worker
    sock = await openSocket(p.host.replace(/^\[|\]$/g, ""), p.port ?? 22, signal);
  } catch (err) {
    throw unreachable("SFTP", step, where, new Error(scrub((err as Error)?.message ?? String(err), secrets)));
  }
  let Client;
  try {
    Client = await loadSsh2();
  } catch (err) {
    sock.destroy();
    throw new TaskError("INTERNAL_ERROR", `the SSH client could not be loaded: ${(err as Error)?.message ?? err}`);
  }
  const client = new Client();
  try {
    await new Promise<void>((resolve, reject) => {
      client.once("ready", () => resolve());
      client.once("error", reject);
      client.once("close", () =>
        reject(Object.assign(new Error("the server closed the connection"), { level: "client-socket" })),
      );
      try {
        client.connect({
          sock: sock as never,
          username: p.username,
          password: p.password,
          privateKey: p.private_key,
          readyTimeout: 20_000,
          hostVerifier: () => true,
          tryKeyboard: false,
        });
      } catch (err) {
        // ssh2 throws synchronously when private_key cannot be parsed
        reject(Object.assign(err as Error, { level: "client-authentication" }));
      }
    });
    // later connection errors reach the pending SFTP calls' callbacks; an 'error' event without a listener would throw
    client.on("error", () => {});
    const sftp = await call<Sftp>((cb) => client.sftp(cb as never));
    return { client, sftp };
  } catch (err) {
    client.end();
    sock.destroy();
    const e = err as SshError;
    const msg = scrub(e?.message ?? String(err), secrets);
    if (e?.level === "client-authentication")
      throw new TaskError(
        "INVALID_CREDENTIALS",
        `SFTP server ${where} refused the credentials of user ${p.username}${p.private_key && /parse/i.test(msg) ? " (private_key could not be read)" : ""}: ${msg}`,
      );
    if (e?.level === "client-socket" || e?.level === "client-timeout")
      throw unreachable("SFTP", step, where, new Error(msg));
    throw new TaskError(
      step === "upload" ? "UPLOAD_FAILED" : "DOWNLOAD_FAILED",
      `SFTP login to ${where} failed: ${msg}`,
    );
  }
}

export const sftp: StoreConnector<SftpParams, z.infer<typeof sftpExportParams>> = {
  name: "sftp",
  importParams: sftpImportParams,
  exportParams: sftpExportParams,
  secrets: ["password", "private_key"],
  target: { one: "file", many: "path", manyIsDirectory: true },
  check(p, direction) {
    const out = hostProblem(p.host);
    if (!p.password && !p.private_key) out.push("password: password or private_key is required.");
    if (direction === "import") out.push(...oneOf(p, "file", "path"));
    return out;
  },
  location: (p, path) => ({ host: p.host, file: path }),
  async open(p, ctx): Promise<StoreSession> {
    guardUrl(hostUrl(p.host, p.port ?? 22), ctx.settings, "host");
    const step: StoreStep = ctx.direction === "import" ? "download" : "upload";
    const { client, sftp } = await login(p as SftpParams, ctx.signal, step);
    const secrets = [p.password, p.private_key];
    const fail = (err: unknown, s: StoreStep, what: string) => sftpError(err, s, what, secrets);
    return {
      async list(dir, max) {
        const out: StoreObject[] = [];
        const walk = async (d: string, depth: number): Promise<void> => {
          let entries;
          try {
            entries = await call<{ filename: string; attrs: { mode: number; size: number } }[]>((cb) =>
              sftp.readdir(d, cb),
            );
          } catch (err) {
            throw fail(err, "list", `directory ${d}`);
          }
          entries.sort((a, b) => (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0));
          for (const e of entries) {
            if (out.length > max) return;
            if (e.filename === "." || e.filename === "..") continue;
            const type = e.attrs.mode & S_IFMT;
            if (type === S_IFREG) out.push({ path: d + e.filename, size: e.attrs.size });
            else if (type === S_IFDIR && depth < MAX_DEPTH) await walk(`${d}${e.filename}/`, depth + 1);
          }
        };
        await walk(dir, 0);
        return out;
      },
      async get(path) {
        let attrs: { mode: number; size: number };
        let handle: Buffer;
        try {
          attrs = await call((cb) => sftp.stat(path, cb));
          if ((attrs.mode & S_IFMT) === S_IFDIR)
            throw new TaskError(
              "FILE_NOT_FOUND",
              `SFTP: ${path} is a directory, not a file (path imports a directory).`,
            );
          handle = await call((cb) => sftp.open(path, "r", cb));
        } catch (err) {
          throw fail(err, "download", path);
        }
        const length = attrs.size;
        // up to WINDOW reads in flight, in file order (read-ahead): one round trip per WINDOW chunks, not per chunk
        const queue: { off: number; len: number; buf: Buffer; done: Promise<number> }[] = [];
        let next = 0;
        let closed = false;
        const closeHandle = () => {
          if (!closed) ((closed = true), sftp.close(handle, () => {}));
        };
        const fill = () => {
          while (!closed && queue.length < WINDOW && next < length) {
            const off = next;
            const len = Math.min(CHUNK, length - off);
            const buf = Buffer.allocUnsafe(len);
            const done = call<number>((cb) => sftp.read(handle, buf, 0, len, off, cb));
            done.catch(() => {}); // awaited in order by pull; a failure is reported there
            queue.push({ off, len, buf, done });
            next += len;
          }
        };
        const stream = new ReadableStream<Uint8Array>(
          {
            async pull(c) {
              try {
                fill();
                const r = queue.shift();
                const n = r ? await r.done : 0;
                if (!r || !n) {
                  closeHandle();
                  c.close(); // the runner holds the byte count to `length` (a file that shrank fails there)
                  return;
                }
                if (n < r.len) {
                  // a short read: drop the read-ahead and go on from the first byte not read
                  for (const q of queue.splice(0)) await q.done.catch(() => 0);
                  next = r.off + n;
                }
                c.enqueue(new Uint8Array(r.buf.buffer, r.buf.byteOffset, n));
              } catch (err) {
                closeHandle();
                c.error(fail(err, "download", path));
              }
            },
            cancel: closeHandle,
          },
          { highWaterMark: 0 },
        );
        return { stream, length };
      },
      async put(path, body) {
        for (const d of parentDirs(path)) await call((cb) => sftp.mkdir(d, cb)).catch(() => {}); // exists, or open says why
        let handle: Buffer | undefined;
        try {
          handle = await call<Buffer>((cb) => sftp.open(path, "w", cb));
          const reader = body.stream.getReader();
          // up to WINDOW writes in flight (each holds its 64 KiB until the server acknowledges it)
          const inflight = new Set<Promise<unknown>>();
          let pos = 0;
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            for (let off = 0; off < value.byteLength; off += CHUNK) {
              const part = Buffer.from(value.buffer, value.byteOffset + off, Math.min(CHUNK, value.byteLength - off));
              const w = call((cb) => sftp.write(handle!, part, 0, part.length, pos, cb));
              pos += part.length;
              inflight.add(w);
              w.then(
                () => inflight.delete(w),
                () => {},
              );
              if (inflight.size >= WINDOW) await Promise.race(inflight);
            }
          }
          await Promise.all(inflight);
          if (pos !== body.length)
            throw new TaskError("UPLOAD_FAILED", `${path}: ${pos} of ${body.length} bytes were read from storage.`, {
              retryable: true,
            });
          await call((cb) => sftp.close(handle!, cb));
          handle = undefined;
        } catch (err) {
          if (handle) sftp.close(handle, () => {});
          throw fail(err, "upload", path);
        }
      },
      async close() {
        client.end();
      },
    };
  },
};
