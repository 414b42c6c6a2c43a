/**
 * The Web Worker that runs jobs for a page (issue 19): the local job runner with the browser's
 * engines, off the page's thread so the page stays responsive while an engine works.
 */
import { runLocalJob, LocalJobError } from "./local-job";
import { browserEngines } from "../runtime/browser/engines";
import type { EngineInstances } from "../engines/registry";
import type { CancelMessage, RunMessage, WorkerMessage } from "./protocol";

declare const self: {
  onmessage: ((e: MessageEvent<RunMessage | CancelMessage>) => void) | null;
  postMessage(m: WorkerMessage): void;
};

let engines: { base: string; instances: EngineInstances } | undefined;
const running = new Map<number, AbortController>();

self.onmessage = (e) => {
  const m = e.data;
  if (m.type === "cancel")
    return void running.get(m.id)?.abort(new DOMException("The job was cancelled.", "AbortError"));
  if (!engines || engines.base !== m.assets)
    engines = { base: m.assets, instances: browserEngines({ base: m.assets }) };
  const controller = new AbortController();
  running.set(m.id, controller);
  const files = Object.fromEntries(
    Object.entries(m.files).map(([task, blob]) => [task, { name: (blob as File).name || "file", data: blob as Blob }]),
  );
  runLocalJob(m.job, {
    engines: engines.instances,
    files,
    signal: controller.signal,
    onProgress: (job) => self.postMessage({ type: "progress", id: m.id, job }),
  })
    .then(({ job, outputs }) =>
      self.postMessage({
        type: "done",
        id: m.id,
        job,
        outputs: outputs.map(({ task, filename, blob }) => ({ task, filename, blob })),
      }),
    )
    .catch((err: unknown) => {
      const error =
        err instanceof LocalJobError
          ? { message: err.message, code: err.code, status: err.status, errors: err.errors }
          : { message: err instanceof Error ? err.message : String(err), code: "INTERNAL_ERROR" };
      self.postMessage({ type: "failed", id: m.id, error });
    })
    .finally(() => running.delete(m.id));
};
