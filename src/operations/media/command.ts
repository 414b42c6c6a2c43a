/**
 * command with engine ffmpeg (contract §6; issue 13): `ffmpeg` or `ffprobe` with an argument line,
 * run by the media engine (ffmpeg in WebAssembly, or natively beyond its budget). Files of input
 * task <name> are at /input/<name>/<filename>; files written under /output/ (relative paths land
 * there too) become the task's outputs; `result.command` is the line as run and `result.output`
 * the console output when `capture_output` is true. The words are split like a POSIX shell would
 * and checked at creation (container/command-args.ts checkFfmpegWords): paths outside /input and
 * /output, protocols, devices and script options are refused with a 422.
 */
import { z } from "zod";
import { checkFfmpegWords, splitArguments } from "../../../container/command-args";
import { TaskError } from "../../engines/errors";
import { useEngine } from "../../engines/use";
import { engineCall, readInput, throwIfAborted } from "../kit";
import { boolParam } from "../pdf/common";
import type { OperationHandler } from "../types";

const params = z.object({
  engine: z.literal("ffmpeg").describe("ffmpeg"),
  command: z.enum(["ffmpeg", "ffprobe"]).default("ffmpeg").describe("ffmpeg or ffprobe"),
  arguments: z.string().max(8192).describe("The arguments, split like a POSIX shell splits words; paths under /input/<task>/ and /output/ only"),
  capture_output: boolParam.describe("Put the console output in result.output"),
});

type Params = z.infer<typeof params>;

function check(p: Params): string[] {
  const split = splitArguments(p.arguments);
  if ("error" in split) return [`arguments: ${split.error}.`];
  const problem = checkFfmpegWords(split.words);
  return problem ? [`arguments: ${problem}`] : [];
}

export const mediaCommand: OperationHandler<Params> = {
  operation: "command",
  kind: "media",
  formats: [{ input: "*", output: "*" }],
  params,
  credits: 1,
  takesInput: true,
  check,
  async run(inputs, p, ctx) {
    const { engine, row } = useEngine(ctx, "media", "command");
    const files = [];
    for (const f of inputs) {
      throwIfAborted(ctx.signal);
      files.push({ task: f.fromTask, filename: f.filename, data: await readInput(f, ctx, row) });
    }
    const r = await engineCall(engine.command({ command: p.command, arguments: p.arguments, inputs: files, capture_output: p.capture_output }), "", row.name);
    if (r.files.length === 0 && !p.capture_output) throw new TaskError("CONVERSION_FAILED", "The command wrote no file under /output/ (and capture_output is off, so it produced nothing).");
    return {
      files: r.files.map((f) => ({ filename: f.filename, data: f.data })),
      extra: { command: r.command, ...(p.capture_output ? { output: r.output ?? "" } : {}) },
      engine: { name: row.name, version: r.engineVersion },
    };
  },
};
