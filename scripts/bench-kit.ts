/**
 * What every bench section shares (`npm run bench`, scripts/bench.mjs): the median of timings and the
 * esbuild bundle that lets a section import TypeScript engines and operations in Node. Not a test.
 */
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
