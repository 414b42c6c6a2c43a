/**
 * A TCP connection from the Worker (`cloudflare:sockets`) as the node:stream Duplex that ssh2 takes as
 * its `sock` (storage-connectors.md §3.5; the wrapper the ssh2 maintainer suggested in mscdex/ssh2#1401).
 * Reads pull the socket's ReadableStream one chunk per `_read` (so backpressure reaches TCP), writes
 * wait for the socket's writer, end closes the writing side.
 */
/// <reference path="./modules.d.ts" />
import type { Duplex } from "node:stream";

/**
 * Opens `host:port` and resolves once the connection is established.
 * @throws Error when the connection is refused or cannot be made (the caller makes it a retryable task error)
 */
export async function openSocket(host: string, port: number, signal: AbortSignal): Promise<Duplex> {
  const { connect } = await import("cloudflare:sockets");
  const { Duplex } = await import("node:stream");
  const sock = connect({ hostname: host, port });
  const abort = () => void sock.close().catch(() => {});
  signal.addEventListener("abort", abort, { once: true });
  await sock.opened;
  const reader = sock.readable.getReader();
  const writer = sock.writable.getWriter();
  const duplex: Duplex = new Duplex({
    read() {
      reader.read().then(
        ({ done, value }) => void (done ? this.push(null) : this.push(Buffer.from(value))),
        (err) => this.destroy(err),
      );
    },
    write(chunk: Buffer, _enc, cb) {
      writer.write(chunk).then(() => cb(), cb);
    },
    final(cb) {
      writer.close().then(() => cb(), cb);
    },
    destroy(err, cb) {
      signal.removeEventListener("abort", abort);
      sock.close().catch(() => {});
      cb(err);
    },
  });
  // net.Socket methods ssh2 calls on its `sock`
  const self = duplex as Duplex & Record<string, unknown>;
  for (const m of ["setNoDelay", "setKeepAlive", "ref", "unref"]) self[m] = () => duplex;
  return duplex;
}
