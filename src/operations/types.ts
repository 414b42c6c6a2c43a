/**
 * The Operation seam: what every operation family plugs into the registry with.
 *
 * Operations are plain functions of (inputs, params, context) → outputs (DESIGN.md principle 5).
 * They never see HTTP, Durable Objects or queues; the task runner around them does.
 */
import type { z } from "zod";
import type { EngineKind } from "../engines/kinds";
import type { FormatPair, Placement } from "../engines/registry";
import type { EngineAccess } from "../engines/use";
import type { FileStore } from "../storage/file-store";
import type { RuntimeSettings } from "../settings";

export type { FormatPair };

/** One file handed to an operation: an input task's output, read lazily from the FileStore. */
export interface InputFile {
  /** File name as the producing task reported it, e.g. "photo.jpg". */
  filename: string;
  /** Size in bytes. */
  size: number;
  /** Name of the task that produced it (job task name, or task id for standalone tasks). */
  fromTask: string;
  /** FileStore key of the file (export signs it without reading the bytes). */
  key: string;
  /** Reads the whole file. Throws TaskError FILE_NOT_FOUND when the object is gone. */
  bytes(): Promise<Uint8Array>;
  /**
   * Reads the file as a stream of its `size` bytes, for an engine that takes streamed inputs (issue 35; kit.ts
   * `readInputOrStream`). Throws TaskError FILE_NOT_FOUND when the object is gone. Absent where files are held in
   * memory anyway (tests, the browser): the kit then streams the bytes.
   */
  stream?(): Promise<ReadableStream<Uint8Array>>;
  /**
   * Reads `length` bytes from `offset` (issue 49: metadata reads what ExifTool asks for, kit.ts `rangedInput`).
   * Throws TaskError FILE_NOT_FOUND when the object is gone. Absent where files are held in memory anyway.
   */
  range?(offset: number, length: number): Promise<Uint8Array>;
}

/** One file an operation produced; the runner writes it to the FileStore. */
export interface OutputFile {
  filename: string;
  /**
   * The bytes, or a stream (import/url and the storage imports stream into R2 without buffering) of
   * known `length`, or of unknown length (`length` undefined: a chunked or compressed download).
   */
  data: Uint8Array | { stream: ReadableStream<Uint8Array>; length?: number };
  /** MIME type; derived from the extension when absent. */
  contentType?: string;
}

/** What an operation returns. `extra` is merged into the task's `result` (e.g. `metadata`, `output`). */
export interface OperationOutput {
  files: OutputFile[];
  extra?: Record<string, unknown>;
  /** Engine that actually ran and the version it reported (the runner reports the routed engine otherwise). */
  engine?: { name: string; version: string };
}

/**
 * Per-run context: cancellation, settings, and the engines this host can reach (EngineAccess:
 * `engines` by name, typed from the engine table; `route`, the engine routing chose). Operations
 * obtain engines with `useEngine` (engines/use.ts), never by reading `engines` themselves.
 */
export interface OperationContext extends EngineAccess {
  /** Aborted when the task times out or is cancelled (DESIGN.md principle 9). */
  signal: AbortSignal;
  /** The task's own name (job task name or standalone task id), for messages. */
  taskName: string;
  /** Task id (UUID); used to build predictable keys. */
  taskId: string;
  /** Job id (UUID), or the hidden job id of a standalone task. */
  jobId: string;
  /** The file store (R2 in the Worker, memory in Node/browser). */
  files: FileStore;
  /** Environment switches the operation may need (e.g. allowPrivateImports). */
  settings: RuntimeSettings;
  /**
   * Reports how far the operation is, 0–100 (e.g. pages done / pages); the runner sends it with its
   * next lease heartbeat, so GET /v2/tasks/{id} shows it as `percent`. Absent where nobody listens.
   */
  progress?(percent: number): void;
  /** Files of other tasks in the same job by task name (e.g. the watermark `image` task). */
  taskFiles(taskName: string): Promise<InputFile[]>;
}

/**
 * One registry row: an operation over a set of format pairs, run by an engine of one kind. Which
 * engine of that kind runs it is routing's decision (engines/routing.ts), from the engine table.
 * The catalogue (GET /v2/operations) is generated from these rows × the engines that can run
 * them, never hand-listed (issue 2).
 */
export interface OperationHandler<P = Record<string, unknown>> {
  /** CloudConvert operation name, e.g. "convert", "import/url", "pdf/rotate-pages". */
  operation: string;
  /** The engine kind that runs it (engines/kinds/index.ts). */
  kind: EngineKind;
  /** Format pairs; for operations without formats (import/export) use [{input:"*",output:"*"}]. */
  formats: FormatPair[];
  /** Zod schema of the operation-specific parameters (flat in the task object, contract §6). */
  params: z.ZodType<P>;
  /** Credits charged when the task finishes (contract §7: 0 for import/export/metadata, ≥1 otherwise). */
  credits: number;
  /**
   * Where it runs: "queue" (default: by the task runner, off the Durable Object), "ingress" (by the
   * API while accepting the request, for inline content such as import/raw), "upload" (finished by
   * the upload endpoint).
   */
  mode?: "queue" | "ingress" | "upload";
  /**
   * Whether a queued task with these parameters may run inside its JobDO instead of taking a queue
   * hop (issue 20): only pure platform work — no engine, no file bytes read, a few ms of CPU (export/url
   * signing). The JobDO claims it like a runner would, so a crash mid-run is recovered by the lease
   * (the alarm sends it to the queue), keeping at-least-once execution.
   */
  inline?(params: P): boolean;
  /** Whether `output_format` must be given (convert, thumbnail, merge, archive, capture-website: service-spec). */
  requiresOutputFormat?: boolean;
  /**
   * Parameters holding credentials (storage imports and exports: `secret_access_key`, `password`…):
   * replaced by a mask in the task's `payload` as the API shows it (graph/parse.ts), so they reach
   * no response, webhook or live event (issue 35).
   */
  secretParams?: readonly string[];
  /** Whether the task takes `input` (false for import/* and capture-website). */
  takesInput: boolean;
  /**
   * Whether it reads its input by ranges where the store and the engine allow (issue 49: metadata): routing then
   * holds an engine's `budget.rangeMaxBytes`, not its `maxBytes`, against the input's size (runner/execute.ts).
   */
  readsRanges?: boolean;
  /**
   * Parameters whose value names another task of the job (watermark `image`, capture-website
   * `header_template`): the graph treats them as inputs (existence, cycles, waiting for them) when the
   * value is a task name (a header_template may instead hold the HTML itself).
   */
  taskRefs?: readonly string[];
  /**
   * Output formats a user may ask for that this handler deliberately does not write, with the reason
   * (archive: RAR is read, never written); validation answers the reason as the 422.
   */
  refusedOutputs?: Readonly<Record<string, string>>;
  /**
   * Keys this handler does not take that stay a 422 instead of an ignored option (issue 31), with
   * the message after "key: " — where ignoring would break a promise (a password on a tar archive).
   */
  refusedParams?: Readonly<Record<string, string>>;
  /**
   * Cheap checks that need more than the schema (e.g. page syntax); return error messages
   * (without the "Task x:" prefix) or an empty array. Runs at creation → 422.
   */
  check?(params: P): string[];
  /**
   * Parameters that are valid but do not apply given the others (audio_bitrate with audio_codec
   * copy): accepted, left out of the parameters and reported in result.warnings (issue 31), with
   * `why` finishing "audio_bitrate …; it was ignored." Runs at creation, after `check`.
   */
  inapplicable?(params: P): { key: string; why: string }[];
  /**
   * A fallback route (issue 47): this handler's candidates come after every other handler's for the same task,
   * whatever the engine table's order of their engines. For pairs where an engine placed later in the table keeps
   * more of the document than an earlier one would (LibreOffice's and Inkscape's layouts against Chrome printing an
   * HTML rendering of the same file), so the better engine runs when it can and this one only when it cannot (not
   * deployed, over its budget, or it hands the task off: routing.ts HAND_OFF_CODES). Reordering the engine table
   * instead would move the engine for every other operation too.
   */
  fallback?: boolean;
  /**
   * Only engines of this placement run this handler (issue 49: pdf/ocr of a whole PDF is the native OCRmyPDF's; pdf-lib,
   * a row of the same kind offering pdf/ocr for the text layer of the page-by-page handler, is not one of its
   * candidates, nor listed by GET /v2/operations for it). Absent: every engine of its kind that offers the operation.
   */
  placement?: Placement;
  /** Runs the operation. Throws TaskError (engines/errors.ts) for every failure. */
  run(inputs: InputFile[], params: P & CommonParams, ctx: OperationContext): Promise<OperationOutput>;
}

/** Parameters common to processing tasks (service-spec "Parameters common to processing tasks"). */
export interface CommonParams {
  input_format?: string;
  output_format?: string;
  engine?: string;
  engine_version?: string;
  filename?: string;
  timeout?: number;
}
