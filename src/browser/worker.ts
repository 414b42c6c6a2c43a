/**
 * The Web Worker that runs jobs for a page (issue 19): the local job runner with the browser's
 * engines, off the page's thread so the page stays responsive while an engine works.
 */
import { runLocalJob, LocalJobError } from "./local-job";
import { browserEngines } from "../runtime/browser/engines";
import type { EngineInstances } from "../engines/registry";
import type { CancelMessage, CapabilityMessage, RunMessage, WorkerMessage } from "./protocol";
import { jobCapability } from "./capability";

declare const self: {
  onmessage: ((e: MessageEvent<RunMessage | CancelMessage | CapabilityMessage>) => void) | null;
  postMessage(m: WorkerMessage): void;
};

/** The error of a failed request as the page's JobError takes it (the API's 422 body for an invalid job). */
function failure(err: unknown): Extract<WorkerMessage, { type: "failed" }>["error"] {
  return err instanceof LocalJobError
    ? { message: err.message, code: err.code, status: err.status, errors: err.errors }
    : { message: err instanceof Error ? err.message : String(err), code: "INTERNAL_ERROR" };
}

let engines: { base: string; instances: EngineInstances } | undefined;
const running = new Map<number, AbortController>();

self.onmessage = (e) => {
  const m = e.data;
  if (m.type === "cancel")
    return void running.get(m.id)?.abort(new DOMException("The job was cancelled.", "AbortError"));
  if (!engines || engines.base !== m.assets)
    engines = { base: m.assets, instances: browserEngines({ base: m.assets }) };
  if (m.type === "capability") {
    try {
      return self.postMessage({
        type: "capability",
        id: m.id,
        capability: jobCapability(m.job, engines.instances, m.files),
      });
    } catch (err) {
      return self.postMessage({ type: "failed", id: m.id, error: failure(err) });
    }
  }
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
    .catch((err: unknown) => self.postMessage({ type: "failed", id: m.id, error: failure(err) }))
    .finally(() => running.delete(m.id));
};
