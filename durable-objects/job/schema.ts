/**
 * SQLite schema of a JobDO and typed row access. Statuses are enforced by CHECK (DESIGN.md
 * principle 6). Times are unix milliseconds.
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS job (
  id TEXT PRIMARY KEY, user_name TEXT NOT NULL, user_num INTEGER NOT NULL, tag TEXT, standalone INTEGER NOT NULL,
  webhook_url TEXT, base_url TEXT NOT NULL, retention_s INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('waiting','processing','finished','error')),
  created_at INTEGER NOT NULL, started_at INTEGER, ended_at INTEGER, expires_at INTEGER
);
CREATE TABLE IF NOT EXISTS task (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, operation TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('waiting','processing','finished','error')),
  mode TEXT NOT NULL, params TEXT NOT NULL, payload TEXT NOT NULL, inputs TEXT NOT NULL, ignore_error INTEGER NOT NULL,
  timeout_s INTEGER NOT NULL, credits INTEGER, code TEXT, message TEXT, percent INTEGER NOT NULL DEFAULT 0,
  engine TEXT, engine_version TEXT, result TEXT, created_at INTEGER NOT NULL, started_at INTEGER, ended_at INTEGER,
  deadline INTEGER, retry_of TEXT, copy_of TEXT, attempts INTEGER NOT NULL DEFAULT 0, lease_until INTEGER
);
CREATE TABLE IF NOT EXISTS file (task_id TEXT NOT NULL, idx INTEGER NOT NULL, filename TEXT NOT NULL, size INTEGER NOT NULL, key TEXT NOT NULL, content_type TEXT, PRIMARY KEY (task_id, idx));
CREATE TABLE IF NOT EXISTS ext_input (task_id TEXT PRIMARY KEY, job_id TEXT NOT NULL, status TEXT, files TEXT);
CREATE TABLE IF NOT EXISTS notice (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS watcher (task_id TEXT NOT NULL, job_id TEXT NOT NULL, PRIMARY KEY (task_id, job_id));
`;

import type { Status } from "../../src/model/status";

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
}

export interface FileRow {
  task_id: string;
  idx: number;
  filename: string;
  size: number;
  key: string;
  content_type: string | null;
}

/** Typed helpers over SqlStorage. `generation` counts writes made through `run`, so readers can cache. */
export class Db {
  generation = 0;
  constructor(private sql: SqlStorage) {}
  all<T>(query: string, ...args: unknown[]): T[] {
    return this.sql.exec(query, ...args).toArray() as unknown as T[];
  }
  one<T>(query: string, ...args: unknown[]): T | null {
    return (this.all<T>(query, ...args)[0] as T | undefined) ?? null;
  }
  run(query: string, ...args: unknown[]): void {
    this.generation++;
    this.sql.exec(query, ...args);
  }
}
