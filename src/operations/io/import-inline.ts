/**
 * import/raw and import/base64: the file travels inside the task (contract §6: `file`, `filename`;
 * not for files over 10 MB). They run at ingress: the API stores the bytes before the job exists,
 * so file bytes never cross into the Durable Object or the queue.
 */
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import type { OperationHandler } from "../types";
import { safeFilename } from "./filenames";

/** Largest inline file, in bytes (contract §6: "not for files >10 MB"). */
export const MAX_INLINE_BYTES = 10 * 1024 * 1024;

const inlineParams = z.object({
  file: z.string({ error: "file is required." }),
  filename: z.string({ error: "filename is required." }).min(1).max(255),
});

function inline(
  operation: "import/raw" | "import/base64",
  decode: (s: string) => Uint8Array,
): OperationHandler<z.infer<typeof inlineParams>> {
  return {
    operation,
    kind: "platform",
    formats: [{ input: "*", output: "*" }],
    params: inlineParams,
    credits: 0,
    takesInput: false,
    mode: "ingress",
    async run(_inputs, p) {
      const data = decode(p.file);
      if (data.byteLength > MAX_INLINE_BYTES)
        throw new TaskError(
          "FILE_TOO_LARGE",
          `file is ${data.byteLength} bytes; inline imports are limited to ${MAX_INLINE_BYTES} bytes (use import/upload).`,
        );
      return { files: [{ filename: safeFilename(p.filename), data }] };
    },
  };
}

function fromBase64(s: string): Uint8Array {
  const clean = s.replace(/^data:[^,]*,/, "").replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean)) throw new TaskError("OPEN_FAILED", "file is not valid base64.");
  const bin = atob(clean.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export const importRaw = inline("import/raw", (s) => new TextEncoder().encode(s));
export const importBase64 = inline("import/base64", fromBase64);
