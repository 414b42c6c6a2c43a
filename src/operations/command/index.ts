/**
 * command (contract §6, service-spec): a command line run without a shell. Files of input task
 * <name> are at /input/<name>/<filename>; files written under /output/ become the task's outputs;
 * `result.command` is the line as run and `result.output` the console output when `capture_output`
 * is true. Arguments are split like a POSIX shell would and checked at creation (422):
 * - engine imagemagick (`convert`, `magick`, `identify`) or graphicsmagick (`gm`), in the native
 *   engine: paths outside /input/ and /output/ and coders that reach outside (url:, msl:, text:, …)
 *   are refused (native-protocol/command-args.ts checkWords);
 * - engine ffmpeg (`ffmpeg`, `ffprobe`), in the media engines (WebAssembly, native beyond its
 *   budget): paths outside /input and /output anywhere in a word, protocols, devices and script
 *   options are refused (checkFfmpegWords); relative output names land in /output/.
 */
import { z } from "zod";
import { COMMANDS, checkFfmpegWords, checkWords } from "../../../native-protocol/command-args";
import { useEngine } from "../../engines/use";
import { engineCall } from "../kit";
import type { OperationHandler } from "../types";
import { checkLine, commandInputs, commandOutput, lineParams } from "./common";

const magickParams = z.object({
  engine: z
    .enum(["imagemagick", "graphicsmagick"])
    .default("imagemagick")
    .describe("imagemagick or graphicsmagick (or ffmpeg)"),
  command: z.string().max(32).default("convert").describe("imagemagick: convert, magick, identify; graphicsmagick: gm"),
  ...lineParams,
});

type MagickParams = z.infer<typeof magickParams>;

/** ImageMagick / GraphicsMagick command lines (kind command, native engine). */
export const command: OperationHandler<MagickParams> = {
  operation: "command",
  kind: "command",
  formats: [{ input: "*", output: "*" }],
  params: magickParams,
  credits: 1,
  takesInput: true,
  check(p) {
    const commands = COMMANDS[p.engine] ?? [];
    if (!commands.includes(p.command))
      return [`command: ${p.command} is not a command of ${p.engine}; use ${commands.join(", ")}.`];
    return checkLine(p.arguments, checkWords);
  },
  async run(inputs, p, ctx) {
    const { engine, row } = useEngine(ctx, "command", "command");
    const files = await commandInputs(inputs, ctx, row);
    const r = await engineCall(
      engine.run({
        engine: p.engine,
        command: p.command,
        arguments: p.arguments,
        inputs: files,
        capture_output: p.capture_output,
      }),
      "",
      p.engine,
    );
    return commandOutput(r, p.capture_output, { name: p.engine, version: r.engineVersion });
  },
};

const ffmpegParams = z.object({
  engine: z.literal("ffmpeg").describe("ffmpeg"),
  command: z.enum(["ffmpeg", "ffprobe"]).default("ffmpeg").describe("ffmpeg or ffprobe"),
  ...lineParams,
});

type FfmpegParams = z.infer<typeof ffmpegParams>;

/** ffmpeg / ffprobe command lines (kind media: the WebAssembly ffmpeg, native ffmpeg beyond its budget). */
export const ffmpegCommand: OperationHandler<FfmpegParams> = {
  operation: "command",
  kind: "media",
  formats: [{ input: "*", output: "*" }],
  params: ffmpegParams,
  credits: 1,
  takesInput: true,
  check: (p) => checkLine(p.arguments, checkFfmpegWords),
  async run(inputs, p, ctx) {
    const { engine, row } = useEngine(ctx, "media", "command");
    const files = await commandInputs(inputs, ctx, row);
    const r = await engineCall(
      engine.command({ command: p.command, arguments: p.arguments, inputs: files, capture_output: p.capture_output }),
      "",
      row.name,
    );
    return commandOutput(r, p.capture_output, { name: row.name, version: r.engineVersion });
  },
};

/** The command rows. */
export const COMMAND_HANDLERS: OperationHandler[] = [command, ffmpegCommand];
