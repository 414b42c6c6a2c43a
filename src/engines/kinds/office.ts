/**
 * The office kind (kinds/index.ts): office documents converted, today by LibreOffice in the native
 * engine (row "libreoffice"; which formats it reads is its row's, registry.ts). Bytes in, bytes out,
 * failures as data ({@link EngineResult}), the shapes that cross the native engine's HTTP seam
 * (native-protocol/wire.ts) unchanged.
 */
import type { OfficePart, OfficeRequest } from "../../../native-protocol/office";
import type { EngineResult } from "../errors";

/** One office conversion's request, shared with the native engine (native-protocol/office.ts). */
export type { OfficePart, OfficeRequest };

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
      data: Uint8Array;
      pages: number | null;
      fontsSubstituted: FontSubstitution[];
      parts?: OfficePart[];
      warnings?: string[];
    }>
  >;
}
