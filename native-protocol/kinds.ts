/**
 * The request each native method takes, by engine kind and method (issue 46): the container's engine methods are
 * typed by it (container/engines/common.ts NativeEngineDef), and the Worker's side checks its methods are its kinds'
 * (src/engines/native/engines.ts). The kinds themselves are the Worker's (src/engines/kinds/); these are the shapes
 * the native engine reads of their requests. Imports types only.
 */
import type { NativeArchiveCreateRequest, NativeArchiveExtractRequest } from "./archive.ts";
import type { CadRequest } from "./cad.ts";
import type { CommandRequest, MediaCommandRequest } from "./command.ts";
import type { EbookRequest } from "./ebook.ts";
import type { FontRequest } from "./font.ts";
import type { ImageRunRequest } from "./image.ts";
import type { MediaRequest } from "./media/formats.ts";
import type { OcrRequest } from "./ocr.ts";
import type { OfficeRequest } from "./office.ts";
import type { PdfRequests } from "./pdf.ts";
import type { VectorRequest } from "./vector.ts";

/** Kind → method → the request the native engine reads (`info` takes none). */
export interface NativeKindRequests {
  pdf: PdfRequests;
  office: { convert: OfficeRequest };
  image: { run: ImageRunRequest; info: unknown };
  command: { run: CommandRequest };
  media: { run: MediaRequest; command: MediaCommandRequest; info: unknown };
  ocr: { recognize: OcrRequest };
  font: { convert: FontRequest };
  ebook: { convert: EbookRequest };
  cad: { convert: CadRequest };
  vector: { convert: VectorRequest };
  archive: { create: NativeArchiveCreateRequest; extract: NativeArchiveExtractRequest; info: unknown };
}

/** An engine kind the native engine serves. */
export type NativeKind = keyof NativeKindRequests;

/** A method of native kind `K`. */
export type NativeKindMethod<K extends NativeKind> = keyof NativeKindRequests[K] & string;
