/**
 * The office kind (kinds/index.ts): office documents converted, today by LibreOffice in the native
 * engine (row "libreoffice"; which formats it reads is its row's, registry.ts). Bytes in, bytes out —
 * or for the native LibreOffice a stream each way (issue 49: inputs over the row's `streamOver`) —,
 * failures as data ({@link EngineResult}), the shapes that cross the native engine's HTTP seam
 * (native-protocol/wire.ts) unchanged.
 */
import type { StreamedBytes } from "../../../native-protocol/frame";
import type { OfficeInput, OfficePart, OfficeRequest } from "../../../native-protocol/office";
import { TaskError } from "../errors";
import type { EngineResult } from "../errors";

/** One office conversion's request, shared with the native engine (native-protocol/office.ts). */
export type { OfficeInput, OfficePart, OfficeRequest };

/**
 * An office output's bytes, or (from the native rows that answer files — LibreOffice, poppler, DjVuLibre, pandoc —
 * on a call whose input streamed) a stream of its file (native/client.ts: answer files over the stream threshold come
 * back as StreamedBytes).
 */
export type OfficeData = Uint8Array | StreamedBytes;

/**
 * The input's bytes, for an engine that holds a document whole (SheetJS, pandoc in WebAssembly): a stream (issue 49:
 * only the native rows that take files do — LibreOffice, poppler, DjVuLibre, pandoc; routing gives other rows bytes
 * within their budgets) is UNSUPPORTED, which hands the task on.
 * @throws TaskError UNSUPPORTED
 */
export function heldDocument(input: OfficeInput, engine: string): Uint8Array {
  if (input.data instanceof Uint8Array) return input.data;
  throw new TaskError("UNSUPPORTED", `${engine} takes ${input.filename} as bytes, not as a stream.`);
}

/** A font the document asked for that the engine does not have, and the face used instead (fontconfig's match). */
export interface FontSubstitution {
  requested: string;
  used: string;
}

/** An office engine (LibreOffice in the native engine; SheetJS for spreadsheets, issue 47). */
export interface OfficeEngine {
  /**
   * Converts one document to `req.format` (which pairs: the engine's row). `password` opens an encrypted
   * document (wrong or missing: INVALID_PASSWORD). Pages is the output's page count when known. A
   * conversion that makes several files (a csv per sheet, an svg per page) answers them as `parts`,
   * in order, `data` being the first. `warnings` are what the engine left out or chose (an engine that converts
   * only some of a document, as SheetJS writes a workbook's first sheet to csv), for the task's result.warnings.
   */
  convert(req: OfficeRequest): Promise<
    EngineResult<{
      data: OfficeData;
      pages: number | null;
      fontsSubstituted: FontSubstitution[];
      parts?: OfficePart<OfficeData>[];
      warnings?: string[];
    }>
  >;
}
