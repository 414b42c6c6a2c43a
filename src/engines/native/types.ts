/**
 * The kinds only the native engine implements (engines/kinds.ts): office documents (LibreOffice)
 * and the `command` operation (ImageMagick / GraphicsMagick command lines). Bytes in, bytes out,
 * failures as data ({@link EngineResult}), the shapes that cross the native engine's HTTP seam
 * (container/protocol.ts) unchanged.
 */
import type { EngineResult } from "../kinds";

/** A font the document asked for that the engine does not have, and the face used instead (fontconfig's match). */
export interface FontSubstitution {
  requested: string;
  used: string;
}

/** Office documents: converted by LibreOffice. */
export interface OfficeEngine {
  /**
   * Converts one document: office → pdf, or pdf → docx/odt. `password` opens an encrypted document
   * (wrong or missing: INVALID_PASSWORD). Pages is the output's page count when known.
   */
  convert(req: { input: { data: Uint8Array; filename: string; password?: string }; format: "pdf" | "docx" | "odt" }): Promise<
    EngineResult<{ data: Uint8Array; pages: number | null; fontsSubstituted: FontSubstitution[] }>
  >;
}

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
