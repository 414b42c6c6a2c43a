/**
 * The request each native method takes, by engine kind and method (issue 46): the container's engine methods are
 * typed by it (container/engines/common.ts NativeEngineDef), and the Worker's side checks its methods are its kinds'
 * (src/engines/native/engines.ts). The kinds themselves are the Worker's (src/engines/kinds/); these are the shapes
 * the native engine reads of their requests, and the fields its answers must hold (NativeKindAnswers). Imports types
 * only.
 */
import type { NativeArchiveCreateRequest, NativeArchiveExtractRequest } from "./archive.ts";
import type { CadRequest } from "./cad.ts";
import type { CommandRequest, MediaCommandRequest } from "./command.ts";
import type { LocalFile } from "./frame.ts";
import type { Metadata, NativeMetadataReadRequest, NativeMetadataWriteRequest } from "./metadata.ts";
import type { EbookRequest } from "./ebook.ts";
import type { FontRequest } from "./font.ts";
import type { ImageRunRequest } from "./image.ts";
import type { MediaRequest } from "./media/formats.ts";
import type { MediaProbe } from "./media/probe.ts";
import type { OcrPage, OcrRequest } from "./ocr.ts";
import type { OfficePart, OfficeRequest } from "./office.ts";
import type { PdfOcrReport, PdfPageFrame, PdfRequests } from "./pdf.ts";
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
  metadata: { read: NativeMetadataReadRequest; write: NativeMetadataWriteRequest; info: unknown };
}

/** An engine kind the native engine serves. */
export type NativeKind = keyof NativeKindRequests;

/** A method of native kind `K`. */
export type NativeKindMethod<K extends NativeKind> = keyof NativeKindRequests[K] & string;

/** A file answered by a command line: its name and bytes (issue 49: a LocalFile, streamed back on a framed call). */
interface CommandFile {
  filename: string;
  data: Uint8Array | LocalFile;
}

/** What a command line answers (kinds command and media). */
interface CommandAnswer {
  files: CommandFile[];
  /** The line as run. */
  command: string;
  output?: string;
}

/** What `info` answers natively: no WebAssembly memory. */
interface InfoAnswer {
  wasmMemoryBytes: number;
}

/**
 * Kind → method → the fields a native answer must hold (the Worker's kind answer less ok/engineVersion, which the
 * server adds; a method may add more). Bytes may be a LocalFile where the engine takes files (issue 35).
 */
export interface NativeKindAnswers {
  pdf: {
    // issue 49: the page operations and Ghostscript's answer files as LocalFiles (streamed back on a framed call)
    [M in "merge" | "extract" | "rotate" | "decrypt" | "pdfa" | "pdfx"]: { data: Uint8Array | LocalFile };
  } & {
    // warnings: options accepted and not honoured (the compatibility rule)
    [M in "encrypt" | "watermark"]: { data: Uint8Array | LocalFile; warnings?: string[] };
  } & {
    split: { parts: (Uint8Array | LocalFile)[] };
    pageFrames: { pages: PdfPageFrame[] };
    optimize: { data: Uint8Array | LocalFile; sizeBefore: number; sizeAfter: number; unchanged: boolean };
    // issue 49: the searchable PDF as a LocalFile (streamed back on a framed call) and what OCRmyPDF did
    ocr: { data: Uint8Array | LocalFile; report: PdfOcrReport };
    // issue 49: the native pdftoppm's pages, each a PNG file of the call's folder (streamed back on a framed call)
    rasterize: {
      pages: { page: number; width: number; height: number; png: Uint8Array | LocalFile }[];
      pageCount: number;
      ms: number;
      wasmMemoryBytes: number;
    };
  };
  office: {
    // issue 49: LibreOffice, poppler, DjVuLibre and pandoc answer their outputs as LocalFiles (streamed back on a framed
    // call)
    convert: {
      data: Uint8Array | LocalFile;
      pages: number | null;
      fontsSubstituted: { requested: string; used: string }[];
      parts?: OfficePart<Uint8Array | LocalFile>[];
    };
  };
  image: { run: { outputs: { data: Uint8Array | LocalFile; format: string }[] }; info: InfoAnswer };
  command: { run: CommandAnswer };
  media: { run: { data: Uint8Array | LocalFile; probe: MediaProbe | null }; command: CommandAnswer; info: InfoAnswer };
  ocr: { recognize: OcrPage };
  font: { convert: { data: Uint8Array } };
  // issue 49: calibre answers its output as a LocalFile (streamed back on a framed call)
  ebook: { convert: { data: Uint8Array | LocalFile } };
  // issue 49: Inkscape's outputs as LocalFiles (streamed back on a framed call)
  cad: { convert: { data: Uint8Array | LocalFile } };
  vector: { convert: { data: Uint8Array | LocalFile; warnings?: string[] } };
  archive: {
    // issue 49: the archive written on disk, answered as a LocalFile (streamed back on a framed call)
    create: { data: Uint8Array | LocalFile };
    // issue 49: members as LocalFiles (streamed back on a framed call)
    extract: {
      members: { path: string; data: Uint8Array | LocalFile }[];
      skipped: unknown[];
      archive?: Uint8Array | LocalFile;
    };
    info: InfoAnswer;
  };
  // issue 49: Debian's exiftool for files over the WebAssembly ExifTool's budget; the written file as a LocalFile
  metadata: {
    read: { metadata: Metadata; ms: number; wasmMemoryBytes: number };
    write: { data: Uint8Array | LocalFile; warnings: string[]; ms: number; wasmMemoryBytes: number };
    info: InfoAnswer;
  };
}

/** The answer fields of method `M` of native kind `K`. */
export type NativeKindAnswer<K extends NativeKind, M extends NativeKindMethod<K>> = M extends keyof NativeKindAnswers[K]
  ? NativeKindAnswers[K][M]
  : never;
