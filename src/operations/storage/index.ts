/**
 * import/<store> and export/<store> for every row of the store table (issue 35; src/stores/): the
 * handlers are made here from each StoreConnector, so naming, several files, size caps, results
 * and secrets are handled once for S3, Azure Blob, Google Cloud Storage, OpenStack and SFTP.
 *
 * Files stream between R2 and the store: an import hands the store's answer (known length) to the
 * runner, which streams it into R2; objects under a prefix are opened one after another, when the
 * runner reads them; an export streams each R2 object into one upload. Results: an import lists
 * `files[{filename, size, dir?}]` like the other imports; an export lists each stored object with
 * where it went (e.g. `{filename, size, bucket, key}`).
 */
import { TaskError } from "../../engines/errors";
import { STORES } from "../../stores/registry";
import { exportPaths, splitPath } from "./naming";
import type { StoreConnector, StoreSession } from "../../stores/types";
import { contentTypeOf, safeFilename } from "../io/filenames";
import type { OperationHandler, OutputFile } from "../types";

/** Most objects one import may take under a prefix (more is a task error naming the count). */
export const MAX_IMPORT_FILES = 100;

/**
 * A stream that opens `open()` only when first read, so objects under a prefix are fetched one after
 * another as the runner stores them (a Worker may hold 6 connections open at once). `done` runs once
 * when the stream ends, fails or is cancelled.
 */
function lazyStream(open: () => Promise<ReadableStream<Uint8Array>>, done: () => void): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let finished = false;
  const finish = () => {
    if (!finished) ((finished = true), done());
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        try {
          reader ??= (await open()).getReader();
          const { done: end, value } = await reader.read();
          if (end) {
            finish();
            c.close();
          } else c.enqueue(value);
        } catch (err) {
          finish();
          c.error(err);
        }
      },
      async cancel(reason) {
        finish();
        await reader?.cancel(reason);
      },
      // highWaterMark 0: no pull (so no request to the store) before the first read
    },
    { highWaterMark: 0 },
  );
}

/** Calls `session.close()` once `n` streams have finished (SFTP keeps its connection until then). */
function closeAfter(session: StoreSession, n: number): () => void {
  let left = n;
  return () => {
    if (--left === 0) void session.close?.().catch(() => {});
  };
}

function importHandler(s: StoreConnector): OperationHandler<Record<string, unknown>> {
  const { one, many, manyIsDirectory } = s.target;
  return {
    operation: `import/${s.name}`,
    kind: "platform",
    formats: [{ input: "*", output: "*" }],
    params: s.importParams,
    credits: 0,
    takesInput: false,
    secretParams: s.secrets,
    check: (p) => s.check?.(p, "import") ?? [],
    async run(_inputs, p, ctx) {
      const max = ctx.settings.maxImportBytes;
      const tooLarge = (path: string, size: number) =>
        new TaskError("FILE_TOO_LARGE", `${path} is ${size} bytes; imports are limited to ${max} bytes.`);
      const session = await s.open(p, { signal: ctx.signal, settings: ctx.settings, direction: "import" });
      try {
        const path = p[one] as string | undefined;
        if (path) {
          const d = await session.get(path);
          if (d.length > max) {
            await d.stream.cancel();
            throw tooLarge(path, d.length);
          }
          const done = closeAfter(session, 1);
          const filename = safeFilename((p.filename as string | undefined) ?? splitPath(path).name);
          const stream = lazyStream(async () => d.stream, done);
          return { files: [{ filename, contentType: d.contentType, data: { stream, length: d.length } }] };
        }
        const prefix = p[many] as string;
        const objects = await session.list(manyIsDirectory ? prefix.replace(/\/*$/, "/") : prefix, MAX_IMPORT_FILES);
        if (!objects.length) throw new TaskError("FILE_NOT_FOUND", `No file found under ${many} "${prefix}".`);
        if (objects.length > MAX_IMPORT_FILES)
          throw new TaskError(
            "OVER_BUDGET",
            `More than ${MAX_IMPORT_FILES} files under ${many} "${prefix}"; one import takes at most ${MAX_IMPORT_FILES}.`,
          );
        for (const o of objects) if (o.size > max) throw tooLarge(o.path, o.size);
        const done = closeAfter(session, objects.length);
        const files: OutputFile[] = objects.map((o) => ({
          filename: safeFilename(splitPath(o.path).name),
          contentType: contentTypeOf(o.path),
          data: {
            length: o.size,
            stream: lazyStream(async () => {
              const d = await session.get(o.path);
              if (d.length !== o.size)
                throw new TaskError("DOWNLOAD_FAILED", `${o.path} changed while it was imported.`, { retryable: true });
              return d.stream;
            }, done),
          },
        }));
        const listed = objects.map((o, i) => {
          const { dir } = splitPath(o.path);
          return { filename: files[i].filename, size: o.size, ...(dir ? { dir } : {}) };
        });
        return { files, extra: { files: listed } };
      } catch (err) {
        await session.close?.().catch(() => {});
        throw err;
      }
    },
  };
}

function exportHandler(s: StoreConnector): OperationHandler<Record<string, unknown>> {
  const { one, many, manyIsDirectory } = s.target;
  return {
    operation: `export/${s.name}`,
    kind: "platform",
    formats: [{ input: "*", output: "*" }],
    params: s.exportParams,
    credits: 0,
    takesInput: true,
    secretParams: s.secrets,
    check: (p) => s.check?.(p, "export") ?? [],
    async run(inputs, p, ctx) {
      const { paths, warnings } = exportPaths(
        inputs.map((f) => f.filename),
        p[one] as string | undefined,
        p[many] as string | undefined,
        !!manyIsDirectory,
        one,
      );
      const session = await s.open(p, { signal: ctx.signal, settings: ctx.settings, direction: "export" });
      try {
        for (const [i, f] of inputs.entries()) {
          const src = await ctx.files.stream(f.key);
          if (!src) throw new TaskError("FILE_NOT_FOUND", `${f.filename} of task ${f.fromTask} is gone.`);
          const range = async (offset: number, length: number) => {
            const part = await ctx.files.stream(f.key, { offset, length });
            if (!part) throw new TaskError("FILE_NOT_FOUND", `${f.filename} of task ${f.fromTask} is gone.`);
            return part.body;
          };
          await session.put(
            paths[i],
            { stream: src.body, length: src.size, range },
            src.contentType ?? contentTypeOf(f.filename),
          );
          ctx.progress?.(Math.round(((i + 1) * 100) / inputs.length));
        }
      } finally {
        await session.close?.().catch(() => {});
      }
      const files = inputs.map((f, i) => ({ filename: f.filename, size: f.size, ...s.location(p, paths[i]) }));
      return { files: [], extra: { files, ...(warnings.length ? { warnings } : {}) } };
    },
  };
}

/** The import/<name> and export/<name> handlers of one store row. */
export function storageHandlers(s: StoreConnector): [OperationHandler, OperationHandler] {
  return [importHandler(s), exportHandler(s)];
}

/** The import and export handler of every store, in table order. */
export const STORAGE_HANDLERS: OperationHandler[] = STORES.flatMap(storageHandlers);

/** Other spellings of store operations → the operation name (the Java SDK's "import/azure-blob"). */
export const STORAGE_ALIASES: Readonly<Record<string, string>> = Object.fromEntries(
  STORES.flatMap((s) =>
    (s.aliases ?? []).flatMap((a) => [
      [`import/${a}`, `import/${s.name}`],
      [`export/${a}`, `export/${s.name}`],
    ]),
  ),
);
