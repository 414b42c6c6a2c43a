/**
 * The stored rows of a job (the JobDO's SQLite tables, created by the JobDO's job/schema.ts): what the
 * serializers (serialize.ts) read. Here rather than beside the Durable Object so that the model
 * does not depend on it.
 */
import type { Status } from "./status";

export interface JobRow {
  id: string;
  user_name: string;
  user_num: number;
  tag: string | null;
  standalone: number;
  webhook_url: string | null;
  base_url: string;
  retention_s: number;
  status: Status;
  created_at: number;
  started_at: number | null;
  ended_at: number | null;
  expires_at: number | null;
}

export interface TaskRow {
  seq: number;
  id: string;
  name: string;
  operation: string;
  status: Status;
  mode: "queue" | "ingress" | "upload";
  params: string;
  payload: string;
  /** JSON array: input task names (job tasks) or input task ids (standalone tasks). */
  inputs: string;
  ignore_error: number;
  timeout_s: number;
  credits: number | null;
  code: string | null;
  message: string | null;
  percent: number;
  engine: string | null;
  engine_version: string | null;
  result: string | null;
  created_at: number;
  started_at: number | null;
  ended_at: number | null;
  deadline: number | null;
  retry_of: string | null;
  copy_of: string | null;
  attempts: number;
  lease_until: number | null;
  /** When the current attempt's runner claimed it (null: sent, not yet claimed). */
  claimed_at: number | null;
  /** The queue message id of that claim. */
  claimed_by: string | null;
}

export interface FileRow {
  task_id: string;
  idx: number;
  filename: string;
  size: number;
  key: string;
  content_type: string | null;
}
