/**
 * What the `command` operation's handlers share (contract §6 `command`): the argument line and
 * capture_output parameters, the creation-time check of a line, the inputs laid out per task, and
 * the task's output from the engine's answer (`result.command`, `result.output`).
 */
import { z } from "zod";
import { splitArguments } from "../../../native-protocol/command-args";
import { TaskError } from "../../engines/errors";
import type { EngineRow } from "../../engines/registry";
import type { DeferredBytes, StreamedBytes } from "../../../native-protocol/frame";
import { readInputOrDefer, throwIfAborted } from "../kit";
import { boolParam } from "../pdf/common";
import type { InputFile, OperationContext, OperationOutput } from "../types";

/** The parameters every command engine takes besides `engine` and `command`. */
export const lineParams = {
  arguments: z
    .string()
    .max(8192)
    .describe("The arguments, split like a POSIX shell splits words; paths under /input/<task>/ and /output/ only"),
  capture_output: boolParam.describe("Put the console output in result.output"),
};

/** 422 messages for an argument line: it splits like a shell would, and `checkWords` (the engine's policy) accepts its words. */
export function checkLine(line: string, checkWords: (words: string[]) => string | null): string[] {
  const split = splitArguments(line);
  if ("error" in split) return [`arguments: ${split.error}.`];
  const problem = checkWords(split.words);
  return problem ? [`arguments: ${problem}`] : [];
}

/**
 * The task's inputs as /input/<task>/<filename> files, read under `row`'s byte budget. On a row that takes streams
 * (issue 49: the native command rows' `budget.streamOver`) the bytes held stay under its threshold together, and each
 * input past it goes as DeferredBytes, its store read opened when the framed body reaches it (one after another).
 * @throws TaskError OVER_BUDGET (an input over the row's `maxBytes`, or over `streamOver` on a row that takes bytes) |
 *   FILE_NOT_FOUND | CANCELLED
 */
export async function commandInputs(
  inputs: InputFile[],
  ctx: OperationContext,
  row: EngineRow,
): Promise<{ task: string; filename: string; data: Uint8Array | DeferredBytes }[]> {
  const files = [];
  let held = 0;
  for (const f of inputs) {
    throwIfAborted(ctx.signal);
    const data = await readInputOrDefer(f, ctx, row, "input", held);
    if (data instanceof Uint8Array) held += data.byteLength;
    files.push({ task: f.fromTask, filename: f.filename, data });
  }
  return files;
}

/**
 * The task's output from a command engine's answer: the files written under /output/ (bytes, or streams from the
 * native engine on a streamed call, issue 49), `command` and (when captured) `output` in the result.
 * @throws TaskError CONVERSION_FAILED when the command wrote nothing and nothing was captured
 */
export function commandOutput(
  r: { files: { filename: string; data: Uint8Array | StreamedBytes }[]; command: string; output?: string },
  captured: boolean | undefined,
  engine: { name: string; version: string },
): OperationOutput {
  if (r.files.length === 0 && !captured)
    throw new TaskError(
      "CONVERSION_FAILED",
      "The command wrote no file under /output/ (and capture_output is off, so it produced nothing).",
    );
  return {
    files: r.files.map((f) => ({ filename: f.filename, data: f.data })),
    extra: { command: r.command, ...(captured ? { output: r.output ?? "" } : {}) },
    engine,
  };
}
