/**
 * The OperationContext an operation runs with (operations/types.ts), built here for the three places
 * that run operations:
 * - api/create.ts: ingress tasks (import/raw, import/base64) run while a job is created;
 * - runner/run-task.ts: a queued task (the queue consumer) or an inline one (export/url in the JobDO);
 * - browser/local-job.ts: a job run where its files are (the browser build, Node).
 * The callers pass only what differs by host: the engines (runtime/<host>/engines.ts), the file
 * store (R2 or memory), the settings, and where the files of the job's other tasks are (`refsOf`).
 */
import { TaskError } from "../engines/errors";
import type { EngineInstances } from "../engines/registry";
import type { EngineOrder } from "../engines/routing";
import type { StoredOutput } from "../model/types";
import type { InputFile, OperationContext } from "../operations/types";
import type { RuntimeSettings } from "../settings";
import type { FileStore } from "../storage/file-store";

/** The task a context is for. */
export interface ContextTask {
  /** The task's name in its job (a standalone task's id). */
  taskName: string;
  /** The task's id (UUID). */
  taskId: string;
  /** The job's id (UUID), or a standalone task's hidden job. */
  jobId: string;
}

/** What the host of the run gives. */
export interface ContextHost {
  /** Aborted on timeout or cancellation. */
  signal: AbortSignal;
  /** The engines of this host. */
  engines: EngineInstances;
  /** Where inputs are read and outputs written. */
  files: FileStore;
  settings: RuntimeSettings;
  /** The deployment's ENGINE_ORDER; absent: the engine table's order. */
  engineOrder?: EngineOrder;
  /**
   * The stored files of task `name` of the same job, for `taskFiles`; undefined when `name` is not
   * one this task may read (taskFiles then throws FILE_NOT_FOUND).
   */
  refsOf(name: string): StoredOutput[] | undefined;
  /** Receives the operation's progress (0–100); absent where nobody listens. */
  progress?(percent: number): void;
}

/** The context of one run of `task` on `host`. */
export function operationContext(task: ContextTask, host: ContextHost): OperationContext {
  const { signal, engines, files, settings, engineOrder, refsOf, progress } = host;
  return {
    taskName: task.taskName,
    taskId: task.taskId,
    jobId: task.jobId,
    signal,
    files,
    engines,
    engineOrder,
    settings,
    progress,
    async taskFiles(name) {
      const refs = refsOf(name);
      if (!refs) throw new TaskError("FILE_NOT_FOUND", `Task ${name} is not an input of this task.`);
      return refs.map((f) => inputFile(files, f, name));
    },
  };
}

/** An InputFile of `fromTask` reading `f` lazily from `files`. */
export function inputFile(files: FileStore, f: StoredOutput, fromTask: string): InputFile {
  return {
    filename: f.filename,
    size: f.size,
    key: f.key,
    fromTask,
    async bytes() {
      const data = await files.get(f.key);
      if (!data)
        throw new TaskError("FILE_NOT_FOUND", `The file ${f.filename} of task ${fromTask} is no longer stored.`);
      return data;
    },
    async stream() {
      const o = await files.stream(f.key);
      if (!o) throw new TaskError("FILE_NOT_FOUND", `The file ${f.filename} of task ${fromTask} is no longer stored.`);
      return o.body;
    },
    async range(offset, length) {
      const o = await files.stream(f.key, { offset, length });
      if (!o) throw new TaskError("FILE_NOT_FOUND", `The file ${f.filename} of task ${fromTask} is no longer stored.`);
      return new Uint8Array(await new Response(o.body).arrayBuffer());
    },
  };
}
