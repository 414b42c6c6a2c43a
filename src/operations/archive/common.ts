/**
 * What the archive operations share (issue 15): their parameters, the refusal of RAR as an output,
 * and the call that turns input files into engine requests.
 */
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import type { EngineRow } from "../../engines/registry";
import type { DeferredBytes } from "../../../native-protocol/frame";
import { deferredInput, readInput } from "../kit";
import type { InputFile, OperationContext } from "../types";

/** Parameters of archive and of convert from an archive. */
export const archiveParams = z.object({
  password: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe(
      "archive: encrypts a zip (AES-256) or 7z (AES-256, names too); convert from an archive: the password it was encrypted with",
    ),
  compression_level: z
    .number()
    .int()
    .min(0)
    .max(9)
    .optional()
    .describe("0 (store) … 9 (smallest), 7-Zip's -mx; default 5"),
});
export type ArchiveParams = z.infer<typeof archiveParams>;
/** Parameters of archive to a tar format, which cannot be encrypted (so `password` there is a 422). */
export const tarParams = archiveParams.omit({ password: true });

/** Why an output format is not offered though a user may ask for it (validate.ts answers it as the 422). */
export const REFUSED_OUTPUTS: Record<string, string> = {
  rar: "RAR archives can be read (convert from rar) but not written: no free RAR encoder exists. Choose zip, 7z, tar, tar.gz or tar.bz2.",
};

/**
 * Reads every input under the engine's byte budget, refusing their total first (the engine holds
 * them all at once).
 * @throws TaskError OVER_BUDGET | FILE_NOT_FOUND | CANCELLED
 */
export async function readAll(inputs: InputFile[], ctx: OperationContext, row: EngineRow): Promise<Uint8Array[]> {
  const total = inputs.reduce((n, f) => n + f.size, 0);
  if (total > row.budget.maxBytes) {
    throw new TaskError(
      "OVER_BUDGET",
      `The ${inputs.length} input files total ${(total / 1048576).toFixed(1)} MiB; the ${row.name} engine archives up to ${(row.budget.maxBytes / 1048576).toFixed(1)} MiB at once.`,
    );
  }
  const out: Uint8Array[] = [];
  for (const f of inputs) out.push(await readInput(f, ctx, row));
  return out;
}

/**
 * The files to archive for the routed engine (issue 49): their total refused over its `maxBytes` first; for a row
 * that streams (registry.ts `streamOver`: the native archive engine) whose files total more than its threshold (the
 * row's `streamOver`, or the deployment's NATIVE_STREAM_BYTES when lower), every file as DeferredBytes, read from
 * the store into the native engine's folder one after another as the framed call is sent, so the Worker holds none
 * of them; otherwise every file's bytes ({@link readAll}).
 * @throws TaskError OVER_BUDGET | FILE_NOT_FOUND | CANCELLED
 */
export async function readOrDefer(
  inputs: InputFile[],
  ctx: OperationContext,
  row: EngineRow,
): Promise<(Uint8Array | DeferredBytes)[]> {
  const { streamOver } = row.budget;
  const total = inputs.reduce((n, f) => n + f.size, 0);
  const threshold = Math.min(streamOver ?? Infinity, ctx.settings.nativeStreamBytes ?? Infinity);
  if (streamOver === undefined || total <= threshold) return readAll(inputs, ctx, row);
  if (total > row.budget.maxBytes) return readAll(inputs, ctx, row); // refused there, with its message
  return inputs.map((f) => deferredInput(f, ctx));
}
