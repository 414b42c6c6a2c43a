/**
 * A file on disk as a task's stored input (operations/types.ts InputFile), for the tests that call operations with the
 * native engine: its size, its bytes read when asked, and a stream of it as R2 gives one, so the streamed paths (issue
 * 49) see what they see in the Worker.
 */
import { createReadStream, readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import { Readable } from "node:stream";
import type { InputFile } from "../../src/operations/types";

/** `path` as an input from an import task named "import", under `filename` (default: its own name). */
export function fileInput(path: string, filename = basename(path)): InputFile {
  return {
    filename,
    size: statSync(path).size,
    fromTask: "import",
    key: `disk/${filename}`,
    bytes: async () => new Uint8Array(readFileSync(path)),
    stream: async () => Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>,
  };
}
