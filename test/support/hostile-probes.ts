/**
 * Probes for the hostile sweeps: oracles outside the engines that see whether a tool reached for something
 * it must not (a named local file, a loopback URL). Used by test/native/native-hostile*.test.ts and the
 * other sweeps that check "no tool fetches anything".
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";

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
