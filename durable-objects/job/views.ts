/**
 * The v2 JSON views of a JobDO's rows: input names become the ids of their effective rows.
 */
import { jobJson, taskJson } from "../../src/model/serialize";
import type { JobJson, TaskJson } from "../../src/model/types";
import type { JobMachine } from "./machine";
import type { JobRow, TaskRow } from "../../src/model/rows";

/** The job, with its tasks when asked. */
export function jobView(m: JobMachine, includeTasks: boolean): JobJson {
  const job = m.job()!;
  if (!includeTasks) return jobJson(job);
  const rows = m.tasks();
  const ids = new Map(rows.map((r) => [r.name, r.id])); // later rows (retries) win
  return jobJson(
    job,
    rows.map((t) => taskView(m, t, job, ids)),
  );
}

/** One task; `payload` is always sent (the SDK fixtures carry it). */
export function taskView(m: JobMachine, t: TaskRow, job: JobRow = m.job()!, ids?: Map<string, string>): TaskJson {
  const refs = JSON.parse(t.inputs) as string[];
  let dependsOn = refs;
  if (!job.standalone) {
    const byName = ids ?? new Map(m.tasks().map((r) => [r.name, r.id]));
    dependsOn = refs.map((ref) => byName.get(ref) ?? ref);
  }
  return taskJson(t, { job, dependsOn, includePayload: true });
}
