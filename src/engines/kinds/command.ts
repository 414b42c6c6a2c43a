/**
 * The command kind (kinds/index.ts): the `command` operation's command lines (ImageMagick /
 * GraphicsMagick), run by the native engine (row "native-command") without a shell. Bytes in, bytes
 * out, failures as data ({@link EngineResult}), the shapes that cross the native engine's HTTP seam
 * (native-protocol/wire.ts) unchanged.
 */
import type { CommandInput, CommandRequest } from "../../../native-protocol/command";
import type { StreamedBytes } from "../../../native-protocol/frame";
import type { EngineResult } from "../errors";

/** A `command` task (contract §6) and its input files, shared with the native engine (native-protocol/command.ts). */
export type { CommandInput, CommandRequest };

/** The command engine: runs one command line without a shell. */
export interface CommandEngine {
  /**
   * Files written under /output/ come back in name order; `command` is the line as run; `output` the console output
   * when captured. Inputs may be streams (issue 49: over the row's `streamOver`); the files of such a call come back as
   * streams when large (read each once, in order).
   */
  run(
    req: CommandRequest,
  ): Promise<
    EngineResult<{ files: { filename: string; data: Uint8Array | StreamedBytes }[]; command: string; output?: string }>
  >;
}
