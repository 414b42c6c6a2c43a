/**
 * Wire shapes of the v2 API (contract §2.1, §2.2) and the internal task row they are serialised from.
 */
import type { Status } from "./status";

/** A file as listed in `result.files` (contract §3). `url` only on export/url. */
export interface ResultFile {
  filename: string;
  size: number;
  url?: string;
}

/** A stored output file: the public part plus its FileStore key (never serialised). */
export interface StoredOutput {
  filename: string;
  size: number;
  key: string;
  contentType?: string;
}

/** The v2 Task object (contract §2.1). */
export interface TaskJson {
  id: string;
  name?: string;
  job_id: string | null;
  operation: string;
  status: Status;
  credits: number | null;
  code: string | null;
  message: string | null;
  percent: number;
  engine: string | null;
  engine_version: string | null;
  payload?: Record<string, unknown>;
  result: Record<string, unknown> | null;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  retry_of_task_id: string | null;
  copy_of_task_id: string | null;
  user_id: number;
  priority: number;
  host_name: string | null;
  storage: string | null;
  region: string;
  depends_on_task_ids: string[];
  depends_on_tasks?: TaskJson[];
  links: { self: string };
}

/** The v2 Job object (contract §2.2). */
export interface JobJson {
  id: string;
  tag: string | null;
  status: Status;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  tasks?: TaskJson[];
  links: { self: string };
}

/** ISO 8601 with offset, second precision: "2020-12-17T05:33:53+00:00" (contract §0). */
export function isoTime(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined) return null;
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00");
}
