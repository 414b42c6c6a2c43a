/**
 * The `command` task's requests (contract §6 `command`) as the Worker's command and media kinds
 * (src/engines/kinds/command.ts, media.ts) send them and the native engine
 * (container/engines/command.ts, ffmpeg.ts) runs them: a command and its argument line, without a
 * shell (command-args.ts checks the words). Imports types only.
 */
import type { DeferredBytes, LocalFile, StreamedBytes } from "./frame.ts";

/**
 * One input file of a command, placed at /input/<task>/<filename>. Issue 49: over the native row's `streamOver` the
 * Worker sends it as DeferredBytes (its store read opened when the framed body reaches it, one input after another),
 * and it reaches the native engine as a file in its call's folder (LocalFile); the WebAssembly ffmpeg takes bytes only.
 */
export interface CommandInput {
  task: string;
  filename: string;
  data: Uint8Array | StreamedBytes | DeferredBytes | LocalFile;
}

/** A `command` task with engine imagemagick or graphicsmagick: engine, command and its argument line. */
export interface CommandRequest {
  engine: "imagemagick" | "graphicsmagick";
  command: string;
  arguments: string;
  inputs: CommandInput[];
  capture_output?: boolean;
}

/** A `command` task with engine ffmpeg: `ffmpeg` or `ffprobe` and its argument line. */
export interface MediaCommandRequest {
  command: "ffmpeg" | "ffprobe";
  arguments: string;
  /** Files laid out at /input/<task>/<filename>. */
  inputs: CommandInput[];
  capture_output?: boolean;
}
