/**
 * Probes for the hostile sweeps: oracles outside the engines that see whether a tool reached for something
 * it must not (a named local file, a loopback URL). Used by test/native/native-hostile*.test.ts and the
 * other sweeps that check "no tool fetches anything".
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Marks `path` so that its next read moves its access time: access an hour ago, modification now (relatime). */
function armAccessTime(path: string): number {
  utimesSync(path, new Date(Date.now() - 3_600_000), new Date());
  return statSync(path).atimeMs;
}

let atimeChecked = false;
/**
 * Whether reads move access times where the tests write (relatime, strictatime): checked once by reading a file of
 * its own. @throws when they do not (noatime), so that a probe built on them cannot pass by never seeing anything
 */
function checkAccessTimes(): void {
  if (atimeChecked) return;
  const dir = mkdtempSync(join(tmpdir(), "atime-"));
  try {
    const f = join(dir, "f");
    writeFileSync(f, "x");
    const before = armAccessTime(f);
    readFileSync(f);
    if (statSync(f).atimeMs === before)
      throw new Error(
        `reads do not update access times under ${tmpdir()} (noatime?): the read probe would see nothing`,
      );
    atimeChecked = true;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A regular file at `path` holding `content` whose reading the test sees: its access time is set an hour back with
 * its modification time now, so under relatime (Linux's default) the first read moves it. A FIFO ({@link watchedFile})
 * sees opens but is not what a tool that reads only regular files opens: LibreOffice reads a linked regular file and
 * never a FIFO (found 2026-11-29, container/office/links.ts).
 * @throws when reads do not move access times on this file system
 */
export function readWatchedFile(path: string, content: string): { opened: () => Promise<boolean> } {
  checkAccessTimes();
  writeFileSync(path, content);
  const before = armAccessTime(path);
  return { opened: async () => statSync(path).atimeMs !== before };
}

/**
 * A FIFO at `path` and a writer waiting on it (a child `sh`): opening a FIFO for reading completes only
 * when a writer is there, so the writer prints "opened" exactly when something opened the file to read
 * it — whatever renders or fails afterwards. The writer hands the reader `content`.
 * @throws if `mkfifo` fails (the path exists, or the directory is not writable).
 */
export function watchedFile(path: string, content: string): { opened: () => Promise<boolean> } {
  execFileSync("mkfifo", [path]);
  let out = "";
  const writer: ChildProcess = spawn("sh", ["-c", 'printf %s "$1" > "$0" && echo opened', path, content], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  writer.stdout!.on("data", (d) => (out += d));
  const closed = new Promise((r) => writer.once("close", r));
  return {
    /** Ends the writer if it still waits (nothing opened the file), then says whether it was opened. */
    async opened() {
      if (writer.exitCode === null && writer.signalCode === null) writer.kill();
      await closed;
      return out.includes("opened");
    },
  };
}

/** A loopback HTTP server that answers every request with `body` and counts them. */
export interface CountingServer {
  /** Its port on 127.0.0.1. */
  port: number;
  /** Request paths seen so far, in order (grows while the server runs). */
  hits: string[];
  /**
   * TCP connections accepted so far (grows while the server runs): a connection without a request (a browser's
   * preconnect, a client that gives up before sending) is egress too.
   */
  connections(): number;
  /** Stops listening. */
  close(): Promise<void>;
}

/**
 * Starts a {@link CountingServer} on 127.0.0.1 at a free port: a document naming its URL must leave `hits`
 * unchanged when converted.
 */
export async function startCountingServer(body = "LOOPBACK-CONTENT"): Promise<CountingServer> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? "");
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(body);
  });
  let connections = 0;
  server.on("connection", () => void connections++);
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    hits,
    connections: () => connections,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
