/**
 * What every bench section shares (`npm run bench`, scripts/bench.mjs): the median of timings and the
 * esbuild bundle that lets a section import TypeScript engines and operations in Node. Not a test.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The repository's root. */
export const ROOT = join(fileURLToPath(new URL(".", import.meta.url)), "..");

/** The median of `xs` (the mean of the two middle values for an even count); NaN for none. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/**
 * Bundles `contents` (TypeScript `export … from "./src/…"` lines, resolved from the root) for Node with
 * esbuild (wrangler's own) into node_modules/.cache/edge-convert/<name>.mjs and imports it. The bundle
 * sits three levels below the root, so code that finds package.json or wasm/ three levels up from its
 * import.meta.url finds the root there too.
 * @param external packages left as imports; default every package (`packages: "external"`).
 * @throws esbuild's error when the entry does not compile.
 */
export async function bundleForNode<T>(name: string, contents: string, external?: string[]): Promise<T> {
  const { build } = await import("esbuild");
  const outfile = join(ROOT, "node_modules", ".cache", "edge-convert", `${name}.mjs`);
  await build({
    stdin: { contents, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    outfile,
    ...(external ? { external } : { packages: "external" as const }),
    logLevel: "error",
  });
  return import(`${pathToFileURL(outfile).href}?t=${Date.now()}`) as Promise<T>;
}

/** A free TCP port on 127.0.0.1 (bound, read and released). */
export function freePort(): Promise<number> {
  return new Promise<number>((res) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => res(p));
    });
  });
}

/** The native engine (container/server.ts) running for a bench section. */
export interface BenchNativeServer {
  /** Its base URL, http://127.0.0.1:<port>. */
  url: string;
  /** Its tools and their versions, from GET /health. */
  tools: { name: string; version: string | null }[];
  /** Stops it (SIGTERM). */
  stop(): void;
}

/**
 * Starts the native engine as the container runs it (Node on container/server.ts, a free loopback port) and waits
 * up to `waitMs` for GET /health to answer.
 * @throws Error when /health does not answer in time (the server is stopped first).
 */
export async function startNativeServer(waitMs = 60_000): Promise<BenchNativeServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [join(ROOT, "container", "server.ts")], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const stop = () => void server.kill("SIGTERM");
  for (const until = Date.now() + waitMs; Date.now() < until;) {
    try {
      const r = await fetch(`${url}/health`);
      if (r.ok) return { url, tools: ((await r.json()) as BenchNativeServer).tools, stop };
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error(`the native engine did not answer /health within ${waitMs} ms`);
}
