/**
 * Serialisers from stored rows to the v2 JSON shapes (contract §2.1, §2.2). The only place that
 * decides what a Task or Job looks like on the wire.
 */
import type { JobRow, TaskRow } from "./rows";
import { isoTime, type JobJson, type TaskJson } from "./types";

/** What a task's serialisation needs beyond its row. */
export interface TaskContext {
  job: JobRow;
  /** Ids of the tasks this one depends on, in input order. */
  dependsOn: string[];
  includePayload: boolean;
}

/** Region reported on tasks; this server runs wherever the Worker runs. */
export const REGION = "cloudflare";

/** A task row as the v2 Task object. `credits` stays null until the task ends (contract §2.1). */
export function taskJson(row: TaskRow, c: TaskContext): TaskJson {
  const t: TaskJson = {
    id: row.id,
    ...(c.job.standalone ? {} : { name: row.name }),
    job_id: c.job.standalone ? null : c.job.id,
    operation: row.operation,
    status: row.status,
    credits: row.status === "finished" || row.status === "error" ? (row.credits ?? 0) : null,
    code: row.code,
    message: row.message,
    percent: row.percent,
    engine: row.engine,
    engine_version: row.engine_version,
    result: row.result ? JSON.parse(row.result) : null,
    created_at: isoTime(row.created_at)!,
    started_at: isoTime(row.started_at),
    ended_at: isoTime(row.ended_at),
    retry_of_task_id: row.retry_of,
    copy_of_task_id: row.copy_of,
    user_id: c.job.user_num,
    priority: 0,
    host_name: null,
    storage: null,
    region: REGION,
    depends_on_task_ids: c.dependsOn,
    links: { self: `${c.job.base_url}/v2/tasks/${row.id}` },
  };
  if (c.includePayload) t.payload = JSON.parse(row.payload);
  return t;
}

/** A job row (+ serialised tasks when included) as the v2 Job object. */
export function jobJson(job: JobRow, tasks?: TaskJson[]): JobJson {
  return {
    id: job.id,
    tag: job.tag,
    status: job.status,
    created_at: isoTime(job.created_at)!,
    started_at: isoTime(job.started_at),
    ended_at: isoTime(job.ended_at),
    ...(tasks ? { tasks } : {}),
    links: { self: `${job.base_url}/v2/jobs/${job.id}` },
  };
}
