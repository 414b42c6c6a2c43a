/**
 * command (contract §6, service-spec): a command line of ImageMagick (`convert`, `magick`,
 * `identify`) or GraphicsMagick (`gm`) run by the native engine without a shell. Files of input task
 * <name> are at /input/<name>/<filename>; files written under /output/ become the task's outputs;
 * `result.command` is the line as run and `result.output` the console output when `capture_output`
 * is true. Arguments are split like a POSIX shell would and checked at creation: paths outside
 * /input/ and /output/ and coders that reach outside (url:, msl:, text:, …) are refused with a 422.
 */
import { z } from "zod";
import { COMMANDS, checkWords, splitArguments } from "../../../container/command-args";
import { TaskError } from "../../engines/errors";
import { useEngine } from "../../engines/use";
import { engineCall, readInput, throwIfAborted } from "../kit";
import type { OperationHandler } from "../types";
import { boolParam } from "../pdf/common";

const params = z.object({
  engine: z.enum(["imagemagick", "graphicsmagick"]).default("imagemagick").describe("imagemagick or graphicsmagick (ffmpeg: operations/media/command.ts)"),
  command: z.string().max(32).default("convert").describe("imagemagick: convert, magick, identify; graphicsmagick: gm"),
  arguments: z.string().max(8192).describe("The arguments, split like a POSIX shell splits words; paths under /input/<task>/ and /output/ only"),
  capture_output: boolParam.describe("Put the console output in result.output"),
});

type Params = z.infer<typeof params>;

/** Creation-time checks: the command belongs to the engine, the arguments split and stay inside /input and /output. */
function check(p: Params): string[] {
  const commands = COMMANDS[p.engine] ?? [];
  if (!commands.includes(p.command)) return [`command: ${p.command} is not a command of ${p.engine}; use ${commands.join(", ")}.`];
  const split = splitArguments(p.arguments);
  if ("error" in split) return [`arguments: ${split.error}.`];
  const problem = checkWords(split.words);
  return problem ? [`arguments: ${problem}`] : [];
}

export const command: OperationHandler<Params> = {
  operation: "command",
  kind: "command",
  formats: [{ input: "*", output: "*" }],
  params,
  credits: 1,
  takesInput: true,
  check,
  async run(inputs, p, ctx) {
    const { engine, row } = useEngine(ctx, "command", "command");
    const files = [];
    for (const f of inputs) {
      throwIfAborted(ctx.signal);
      files.push({ task: f.fromTask, filename: f.filename, data: await readInput(f, ctx, row) });
    }
    const r = await engineCall(
      engine.run({ engine: p.engine, command: p.command, arguments: p.arguments, inputs: files, capture_output: p.capture_output }),
      "",
      p.engine,
    );
    if (r.files.length === 0 && !p.capture_output) throw new TaskError("CONVERSION_FAILED", "The command wrote no file under /output/ (and capture_output is off, so it produced nothing).");
    return {
      files: r.files.map((f) => ({ filename: f.filename, data: f.data })),
      extra: { command: r.command, ...(p.capture_output ? { output: r.output ?? "" } : {}) },
      engine: { name: p.engine, version: r.engineVersion },
    };
  },
};

/** The command rows. */
export const COMMAND_HANDLERS: OperationHandler<any>[] = [command];
