/**
 * The store seam (issue 35): what one storage protocol (S3, Azure Blob, Google Cloud Storage,
 * OpenStack Swift, SFTP) plugs into the registry with. A store is one folder under src/stores/ plus
 * one row of src/stores/registry.ts; operations/storage/ turns every row into its import/<name> and
 * export/<name> handlers, so import and export logic (naming, several files, results, size caps)
 * lives once for every store.
 */
import type { z } from "zod";
import type { RuntimeSettings } from "../settings";

/** One object found under a prefix (or a directory, for SFTP). */
export interface StoreObject {
  /** Full path of the object in the store (S3 key, blob name, object name, remote file path). */
  path: string;
  /** Size in bytes. */
  size: number;
}

/** A download: the object's bytes as a stream of known length. */
export interface StoreDownload {
  stream: ReadableStream<Uint8Array>;
  /** Exact length in bytes (Content-Length of the store's answer). */
  length: number;
  contentType?: string;
}

/**
 * What an export writes: the file as one stream of `length` bytes, and `range` opening any slice of
 * it as its own stream (a ranged R2 read), which uploads in parts use instead of `stream` (issue 35:
 * each part goes from R2 to the store natively, never through JavaScript; cancel `stream` then).
 */
export interface StoreUpload {
  stream: ReadableStream<Uint8Array>;
  length: number;
  /** `n` bytes from `offset` as a stream. @throws TaskError FILE_NOT_FOUND when the file is gone */
  range?(offset: number, n: number): Promise<ReadableStream<Uint8Array>>;
}

/** An authenticated connection to one store for one task (a signer, a bearer token, an SSH session). */
export interface StoreSession {
  /**
   * Every object under `prefix` (S3/Azure/GCS/Swift: a name prefix; SFTP: a directory), at most
   * `max` + 1 of them (the caller refuses more than `max`). "Directory" placeholders are left out.
   * @throws TaskError (storeError codes)
   */
  list(prefix: string, max: number): Promise<StoreObject[]>;
  /** Opens one object for reading. @throws TaskError FILE_NOT_FOUND, INVALID_CREDENTIALS, PERMISSION_DENIED, DOWNLOAD_FAILED */
  get(path: string): Promise<StoreDownload>;
  /**
   * Writes one object from a stream of `length` bytes; `headers` are the per-file options the
   * connector derived from the task (content type first).
   * @throws TaskError INVALID_CREDENTIALS, PERMISSION_DENIED, FILE_NOT_FOUND (no such bucket), UPLOAD_FAILED
   */
  put(path: string, body: StoreUpload, contentType: string): Promise<void>;
  /** Releases the connection (SFTP); absent where there is nothing to release. */
  close?(): Promise<void>;
}

/** What a connector gets to open a session. */
export interface StoreContext {
  signal: AbortSignal;
  settings: RuntimeSettings;
  /** "import" (read, list) or "export" (write): decides token scopes and permission names in messages. */
  direction: "import" | "export";
}

/**
 * One store: its CloudConvert parameters (storage-connectors.md §2) and how to open a session.
 * `I` and `E` are the parsed import and export parameters.
 */
export interface StoreConnector<
  I extends Record<string, unknown> = Record<string, unknown>,
  E extends Record<string, unknown> = Record<string, unknown>,
> {
  /** The part after import/ and export/: "s3", "azure/blob", "google-cloud-storage", "openstack", "sftp". */
  name: string;
  /** Other spellings accepted in job payloads (the Java SDK sends "import/azure-blob"). */
  aliases?: readonly string[];
  /** Zod schema of import/<name> (flat task keys, CloudConvert's names). */
  importParams: z.ZodType<I>;
  /** Zod schema of export/<name>. */
  exportParams: z.ZodType<E>;
  /** Parameter names that hold secrets: masked in the task's payload, never in messages. */
  secrets: readonly string[];
  /**
   * The parameter naming one object (`key`, `blob`, `file`) and the one naming several (`key_prefix`,
   * `blob_prefix`, `file_prefix`, SFTP `path`). `manyIsDirectory`: the "several" parameter is a
   * directory, joined to file names with "/" (SFTP), rather than a name prefix.
   */
  target: { one: string; many: string; manyIsDirectory?: boolean };
  /** Cross-field checks of either direction (credentials present, hosts well formed) → 422 messages. */
  check?(p: I | E, direction: "import" | "export"): string[];
  /** Authenticates and answers a session. @throws TaskError (INVALID_CREDENTIALS, IMPORT_FORBIDDEN, DOWNLOAD_FAILED …) */
  open(p: I | E, ctx: StoreContext): Promise<StoreSession>;
  /** Where an exported object went, for the export's result.files entry (e.g. `{bucket, key}`). */
  location(p: E, path: string): Record<string, unknown>;
}
