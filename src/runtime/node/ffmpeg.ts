/**
 * Node's way of obtaining the ffmpeg core (the per-platform seam of DESIGN.md "runtime/"): read
 * @ffmpeg/core's .wasm and compile it; the fonts from wasm/fonts. workerd imports the module
 * instead (wasm/ffmpeg/worker.ts); the engine code is the same.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FONT_FILES } from "../../../native-protocol/media/formats";
import { createFfmpegEngine, type FfmpegLoader } from "../../engines/ffmpeg/engine";
import type { MediaEngine } from "../../engines/kinds/media";

const root = () => fileURLToPath(new URL("../../..", import.meta.url));

/** Compiles @ffmpeg/core's 32 MB module. */
export async function loadFfmpegWasm(): Promise<WebAssembly.Module> {
  const require = createRequire(join(root(), "package.json"));
  const js = require.resolve("@ffmpeg/core");
  return WebAssembly.compile(await readFile(join(js, "..", "ffmpeg-core.wasm")));
}

/** The shipped fonts by file name. */
export async function loadFfmpegFonts(): Promise<Record<string, Uint8Array>> {
  const files = [...new Set(Object.values(FONT_FILES))];
  return Object.fromEntries(
    await Promise.all(
      files.map(async (f) => [f, new Uint8Array(await readFile(join(root(), "wasm", "fonts", f)))] as const),
    ),
  );
}

/** The in-process ffmpeg engine for Node (tests, bench). */
export function nodeFfmpegEngine(opts: Pick<FfmpegLoader, "budget" | "timeoutMs"> = {}): MediaEngine {
  return createFfmpegEngine({ loadWasm: loadFfmpegWasm, loadFonts: loadFfmpegFonts, ...opts });
}
