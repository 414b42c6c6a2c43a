/**
 * A job run where its files are (issue 19): the browser's Web Worker (src/browser/worker.ts) and
 * Node. The same code as the service decides everything — graph/parse.ts validates the job (the
 * same 422 messages, thrown as LocalJobError), graph/state.ts says which tasks are ready and which
 * fail with INPUT_TASK_FAILED, runner/execute.ts routes each task to an engine of this host with the
 * same fallbacks and budgets, and model/serialize.ts shapes the job and task objects the API returns.
 * Only the places differ: files live in a MemoryFileStore, import/upload takes a Blob the caller
 * gives, and export/url answers the files themselves (a `blob:` URL each where the host has one).
 *
 * Nothing is sent anywhere: the engines given are the only code that sees the files.
 */
import { toFailure } from "../engines/errors";
import type { EngineInstances } from "../engines/registry";
import { failedDependents, jobStatus, readyTasks, type NodeState } from "../graph/state";
import { parseJobTasks, type TaskSpec } from "../graph/parse";
import { jobJson, taskJson } from "../model/serialize";
import type { JobRow, TaskRow } from "../model/rows";
import type { Status } from "../model/status";
import type { JobJson, StoredOutput, TaskJson } from "../model/types";
import { handlersOf } from "../operations/registry";
import { TASK_CATALOG } from "../operations/validate";
import type { InputFile } from "../operations/types";
import type { RuntimeSettings } from "../settings";
import { operationContext, inputFile } from "../runner/context";
import { execute, storeOutputs } from "../runner/execute";
import { MemoryFileStore } from "../storage/file-store";

/** A file given to an import/upload task: bytes or a Blob (a `File` keeps its name). */
export type LocalFile = Blob | { name: string; data: Uint8Array | Blob };

/** How a local job runs. */
export interface LocalJobOptions {
  /** The engines of this host (runtime/browser/engines.ts in a page, runtime/node/engines.ts in Node). */
  engines: EngineInstances;
  /** The file of each import/upload task, by task name. */
  files?: Record<string, LocalFile>;
  /** Called after every change with the job as the API would show it (status, percent, results). */
  onProgress?(job: JobJson): void;
  /** Stops the job: running tasks end with CANCELLED. */
  signal?: AbortSignal;
  /** Makes a URL for an exported file (URL.createObjectURL in a page); absent: no `url` in the result. */
  urlOf?(file: Blob): string;
}

/** One exported file: the task that exported it, its name and its bytes. */
export interface LocalOutput {
  task: string;
  filename: string;
  blob: Blob;
  url?: string;
}

/** A job that could not start: the API's 422 body (`message`, `code`, `errors` by field). */
export class LocalJobError extends Error {
  readonly code = "INVALID_DATA";
  readonly status = 422;
  constructor(readonly errors: Record<string, string[]>) {
    super("The given data was invalid.");
  }
}

const BASE_URL = "local:";
/** The settings of a local run: no private imports, 1 GiB imports, no signed URLs. */
const LOCAL_SETTINGS: RuntimeSettings = {
  allowPrivateImports: false,
  maxImportBytes: 1 << 30,
  publicBaseUrl: BASE_URL,
  urlSigningSecret: "",
  fileUrlTtlSeconds: 0,
};

/** Runs a job ({tasks, tag?}) here. @throws LocalJobError when the job is invalid (nothing runs) */
export async function runLocalJob(
  body: { tasks?: unknown; tag?: unknown },
  o: LocalJobOptions,
): Promise<{ job: JobJson; outputs: LocalOutput[] }> {
  const parsed = parseJobTasks(body.tasks, TASK_CATALOG);
  if ("errors" in parsed) throw new LocalJobError(parsed.errors);
  const missing = parsed.specs.filter((s) => s.operation === "import/upload" && !o.files?.[s.name]);
  if (missing.length)
    throw new LocalJobError(
      Object.fromEntries(
        missing.map((s) => [
          `tasks.${s.name}`,
          ["No file was given for this import/upload task (options.files[name])."],
        ]),
      ),
    );
  const job = new LocalJob(parsed.specs, typeof body.tag === "string" ? body.tag : null, o);
  return job.run();
}

class LocalJob {
  private store = new MemoryFileStore();
  private row: JobRow;
  private tasks: TaskRow[];
  private specs = new Map<string, TaskSpec>();
  private stored = new Map<string, StoredOutput[]>();
  private outputs: LocalOutput[] = [];

  constructor(
    specs: TaskSpec[],
    tag: string | null,
    private o: LocalJobOptions,
  ) {
    const now = Date.now();
    this.row = {
      id: crypto.randomUUID(),
      user_name: "local",
      user_num: 0,
      tag,
      standalone: 0,
      webhook_url: null,
      base_url: BASE_URL,
      retention_s: 0,
      status: "waiting",
      created_at: now,
      started_at: null,
      ended_at: null,
      expires_at: null,
    };
    this.tasks = specs.map((s, i) => {
      this.specs.set(s.name, s);
      return {
        seq: i + 1,
        id: crypto.randomUUID(),
        name: s.name,
        operation: s.operation,
        status: "waiting" as Status,
        mode: handlersOf(s.operation)?.[0]?.mode ?? "queue",
        params: JSON.stringify(s.params),
        payload: JSON.stringify(s.payload),
        inputs: JSON.stringify(s.input),
        ignore_error: s.ignoreError ? 1 : 0,
        timeout_s: s.timeout,
        credits: null,
        code: null,
        message: null,
        percent: 0,
        engine: null,
        engine_version: null,
        result: null,
        created_at: now,
        started_at: null,
        ended_at: null,
        deadline: null,
        retry_of: null,
        copy_of: null,
        attempts: 0,
        lease_until: null,
        claimed_at: null,
        claimed_by: null,
      };
    });
  }

  async run(): Promise<{ job: JobJson; outputs: LocalOutput[] }> {
    for (;;) {
      const nodes = this.nodes();
      for (const name of failedDependents(nodes))
        this.end(name, "error", { code: "INPUT_TASK_FAILED", message: "An input task failed." });
      const ready = readyTasks(this.nodes());
      if (ready.length === 0) break;
      await Promise.all(ready.map((name) => this.runTask(name)));
    }
    this.row.status = jobStatus(this.nodes());
    this.row.ended_at = Date.now();
    const job = this.json();
    this.o.onProgress?.(job);
    return { job, outputs: this.outputs };
  }

  private nodes(): NodeState[] {
    return this.tasks.map((t) => ({
      name: t.name,
      status: t.status,
      inputs: [...JSON.parse(t.inputs), ...this.specs.get(t.name)!.refs],
      ignoreError: t.ignore_error === 1,
      external: false,
    }));
  }

  private task(name: string): TaskRow {
    return this.tasks.find((t) => t.name === name)!;
  }

  private json(): JobJson {
    const ids = new Map(this.tasks.map((t) => [t.name, t.id]));
    return jobJson(
      this.row,
      this.tasks.map((t) =>
        taskJson(t, {
          job: this.row,
          dependsOn: (JSON.parse(t.inputs) as string[]).map((n) => ids.get(n) ?? n),
          includePayload: true,
        }),
      ),
    );
  }

  private changed(): void {
    if (this.row.status === "waiting") ((this.row.status = "processing"), (this.row.started_at = Date.now()));
    this.o.onProgress?.(this.json());
  }

  private end(
    name: string,
    status: "finished" | "error",
    r: {
      code?: string;
      message?: string;
      result?: unknown;
      engine?: { name: string; version: string };
      credits?: number;
    },
  ): void {
    const t = this.task(name);
    Object.assign(t, {
      status,
      ended_at: Date.now(),
      percent: 100,
      code: r.code ?? null,
      message: r.message ?? null,
      result: r.result === undefined ? null : JSON.stringify(r.result),
      credits: r.credits ?? 0,
      engine: r.engine?.name ?? t.engine,
      engine_version: r.engine?.version ?? t.engine_version,
    });
    this.changed();
  }

  private inputsOf(names: string[]): InputFile[] {
    return names.flatMap((name) => (this.stored.get(name) ?? []).map((f) => inputFile(this.store, f, name)));
  }

  private async runTask(name: string): Promise<void> {
    const t = this.task(name);
    const spec = this.specs.get(name)!;
    t.status = "processing";
    t.started_at = Date.now();
    this.changed();
    const tried: { engine?: { name: string; version: string } } = {};
    const timeout = AbortSignal.timeout(t.timeout_s * 1000);
    const signal = this.o.signal ? AbortSignal.any([this.o.signal, timeout]) : timeout;
    try {
      if (t.operation === "import/upload") return await this.upload(t, spec);
      if (t.operation === "export/url") return await this.exportFiles(t, spec);
      const ctx = operationContext(
        { taskName: name, taskId: t.id, jobId: this.row.id },
        {
          signal,
          files: this.store,
          engines: this.o.engines,
          settings: LOCAL_SETTINGS,
          refsOf: (ref) => this.stored.get(ref) ?? [],
          progress: (p) => ((t.percent = Math.round(p)), this.changed()),
        },
      );
      const { out, engine, credits } = await execute(t.operation, spec.params, this.inputsOf(spec.input), ctx, tried);
      const files = await storeOutputs(this.store, this.row.id, t.id, out.files);
      this.stored.set(name, files);
      this.end(name, "finished", {
        result: { files: files.map(({ filename, size }) => ({ filename, size })), ...out.extra },
        engine,
        credits,
      });
    } catch (err) {
      const f = signal.aborted ? toFailure(signal.reason) : toFailure(err);
      this.end(name, "error", { code: f.code, message: f.message, engine: tried.engine });
    }
  }

  private async upload(t: TaskRow, spec: TaskSpec): Promise<void> {
    const given = this.o.files![spec.name];
    const blob =
      given instanceof Blob
        ? given
        : given.data instanceof Blob
          ? given.data
          : new Blob([given.data as Uint8Array<ArrayBuffer>]);
    const filename = given instanceof Blob ? (given as Blob & { name?: string }).name || "file" : given.name;
    const [stored] = await storeOutputs(this.store, this.row.id, t.id, [
      { filename, data: new Uint8Array(await blob.arrayBuffer()) },
    ]);
    this.stored.set(spec.name, [stored]);
    this.end(spec.name, "finished", {
      result: { files: [{ filename: stored.filename, size: stored.size }] },
      engine: { name: "cloudflare", version: "1" },
    });
  }

  /** export/url here: the input files themselves, with a `blob:` URL each where the host makes them. */
  private async exportFiles(t: TaskRow, spec: TaskSpec): Promise<void> {
    const files: { filename: string; size: number; url?: string }[] = [];
    for (const f of this.inputsOf(spec.input)) {
      const blob = new Blob([(await f.bytes()) as Uint8Array<ArrayBuffer>], {
        type: this.stored.get(f.fromTask)?.find((s) => s.key === f.key)?.contentType ?? "",
      });
      const url = this.o.urlOf?.(blob);
      this.outputs.push({ task: spec.name, filename: f.filename, blob, ...(url ? { url } : {}) });
      files.push({ filename: f.filename, size: f.size, ...(url ? { url } : {}) });
    }
    this.stored.set(spec.name, this.stored.get(spec.input[0]) ?? []);
    this.end(spec.name, "finished", { result: { files }, engine: { name: "cloudflare", version: "1" } });
  }
}
