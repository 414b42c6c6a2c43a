/**
 * SQLite schema of a JobDO (row types: src/model/rows.ts; access: src/storage/sql.ts). Statuses are enforced by CHECK (DESIGN.md
 * principle 6). Times are unix milliseconds.
 * Tables keyed by text are WITHOUT ROWID, so their key is the table's own b-tree, not an extra index,
 * and no AUTOINCREMENT writes sqlite_sequence: a task's `seq` (its order: retries after the task they
 * retry) is one more than the largest at insert (JobMachine.insertTask), a notice `id` is a rowid
 * (README "What one job costs"). Objects created by older versions keep `seq` as their rowid and a
 * UNIQUE index on `id`; the same statements serve both.
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS job (
  id TEXT PRIMARY KEY, user_name TEXT NOT NULL, user_num INTEGER NOT NULL, tag TEXT, standalone INTEGER NOT NULL,
  webhook_url TEXT, base_url TEXT NOT NULL, retention_s INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('waiting','processing','finished','error')),
  created_at INTEGER NOT NULL, started_at INTEGER, ended_at INTEGER, expires_at INTEGER
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS task (
  id TEXT PRIMARY KEY, seq INTEGER NOT NULL, name TEXT NOT NULL, operation TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('waiting','processing','finished','error')),
  mode TEXT NOT NULL, params TEXT NOT NULL, payload TEXT NOT NULL, inputs TEXT NOT NULL, ignore_error INTEGER NOT NULL,
  timeout_s INTEGER NOT NULL, credits INTEGER, code TEXT, message TEXT, percent INTEGER NOT NULL DEFAULT 0,
  engine TEXT, engine_version TEXT, result TEXT, created_at INTEGER NOT NULL, started_at INTEGER, ended_at INTEGER,
  deadline INTEGER, retry_of TEXT, copy_of TEXT, attempts INTEGER NOT NULL DEFAULT 0, lease_until INTEGER,
  claimed_at INTEGER, claimed_by TEXT
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS file (task_id TEXT NOT NULL, idx INTEGER NOT NULL, filename TEXT NOT NULL, size INTEGER NOT NULL, key TEXT NOT NULL, content_type TEXT, PRIMARY KEY (task_id, idx)) WITHOUT ROWID;
`;

/**
 * Tables only some objects need, created when first needed (each table a new object creates is CPU
 * on the job path): a standalone task's inputs in other objects (created with the standalone
 * object), account notices kept as rows (created by the first one), and the objects watching one of
 * this object's tasks (created by the first watch).
 * Objects created before this split have both from SCHEMA.
 */
export const EXT_INPUT_TABLE =
  "CREATE TABLE IF NOT EXISTS ext_input (task_id TEXT PRIMARY KEY, job_id TEXT NOT NULL, status TEXT, files TEXT) WITHOUT ROWID";
/** Account notices that must outlive a failed call (Notices): most jobs never write one. */
export const NOTICE_TABLE = "CREATE TABLE IF NOT EXISTS notice (id INTEGER PRIMARY KEY, body TEXT NOT NULL)";
export const WATCHER_TABLE =
  "CREATE TABLE IF NOT EXISTS watcher (task_id TEXT NOT NULL, job_id TEXT NOT NULL, PRIMARY KEY (task_id, job_id)) WITHOUT ROWID";

/** Columns added after the first release, with the DDL that adds each to an older object (JobMachine.migrate). */
export const MIGRATIONS: [column: string, ddl: string][] = [
  ["claimed_at", "ALTER TABLE task ADD COLUMN claimed_at INTEGER"],
  ["claimed_by", "ALTER TABLE task ADD COLUMN claimed_by TEXT"],
];
