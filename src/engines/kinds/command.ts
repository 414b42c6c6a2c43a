/**
 * The command kind (kinds/index.ts): the `command` operation's command lines (ImageMagick /
 * GraphicsMagick), run by the native engine (row "native-command") without a shell. Bytes in, bytes
 * out, failures as data ({@link EngineResult}), the shapes that cross the native engine's HTTP seam
 * (container/protocol.ts) unchanged.
 */
import type { EngineResult } from "../errors";

/** One input file of a command, placed at /input/<task>/<filename>. */
export interface CommandInput {
  task: string;
  filename: string;
  data: Uint8Array;
}

/** A `command` task (contract §6): engine, command and its argument line. */
export interface CommandRequest {
  engine: "imagemagick" | "graphicsmagick";
  command: string;
  arguments: string;
  inputs: CommandInput[];
  capture_output?: boolean;
}

/** The command engine: runs one command line without a shell. */
export interface CommandEngine {
  /** Files written under /output/ come back in name order; `command` is the line as run; `output` the console output when captured. */
  run(req: CommandRequest): Promise<EngineResult<{ files: { filename: string; data: Uint8Array }[]; command: string; output?: string }>>;
}
