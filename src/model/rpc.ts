/**
 * Shapes that cross the Durable Objects' RPC boundary (only ids, keys and JSON; never file bytes,
 * issue 2): what the Worker, the runner and the objects send each other, so both sides import them
 * from here rather than from each other.
 */
import type { TaskFailure } from "../engines/errors";
import type { JobJson, StoredOutput } from "./types";
import type { Status } from "./status";

/** One task to create. `preset` carries what ingress or upload set up before the object existed. */
export interface NewTask {
  id: string;
  name: string;
  operation: string;
  mode: "queue" | "ingress" | "upload";
  params: Record<string, unknown>;
  payload: Record<string, unknown>;
  /** Input task names (job) or ids (standalone). */
  inputs: string[];
  ignoreError: boolean;
  timeoutS: number;
  /** Ingress tasks arrive finished with their files; upload tasks arrive waiting with `result.form`. */
  preset?:
    | { status: "finished"; files: StoredOutput[]; engine: string; engineVersion: string }
    | { status: "waiting"; result: Record<string, unknown>; message: string };
  retryOf?: string;
}

/** One job (or standalone task's hidden job) to create (JobDO.create). */
export interface NewJob {
  jobId: string;
  userName: string;
  userNum: number;
  tag: string | null;
  webhookUrl: string | null;
  baseUrl: string;
  retentionS: number;
  standalone: boolean;
  tasks: NewTask[];
  /** Standalone tasks: where each input task id lives. */
  externalInputs?: { taskId: string; jobId: string }[];
}

/** What the runner gets when it claims a task. */
export interface ClaimedTask {
  jobId: string;
  taskId: string;
  taskName: string;
  operation: string;
  params: Record<string, unknown>;
  attempt: number;
  /** Unix ms after which the task is over its timeout. */
  deadline: number;
  inputs: (StoredOutput & { fromTask: string })[];
  /** Files of tasks named by parameters (watermark `image`…), by task name. */
  refs: Record<string, StoredOutput[]>;
  baseUrl: string;
  retentionS: number;
}

/** What the runner reports on success. */
export interface TaskOutcome {
  files: StoredOutput[];
  extra?: Record<string, unknown>;
  engine: string;
  engineVersion: string;
  credits: number;
}

/** Terminal state of a watched task, sent to standalone tasks that take it as input. */
export interface SettledInput {
  taskId: string;
  status: "finished" | "error";
  files: (StoredOutput & { fromTask: string })[];
}

export type { TaskFailure };

/** A job's end as its index shard learns it (AccountDO.jobEnded): one `notice` row's body plus the user. */
export interface JobEnd {
  user: string;
  jobId: string;
  status: Status;
  /** unix ms */
  endedAt: number;
  credits: number;
  /** The job's v2 JSON for job.finished / job.failed webhooks (null for standalone tasks). */
  job: JobJson | null;
  webhookUrl: string | null;
}

/**
 * A new job (or standalone task) as its index shard learns it (AccountDO.registerJob). `job` is
 * its v2 JSON at creation, for job.created webhooks; `ended` its end when it ended before it was
 * registered (inline tasks, issue 20): one call instead of registerJob then jobEnded.
 */
export interface Registration {
  user: string;
  jobId: string;
  standalone: boolean;
  tag: string | null;
  /** unix ms */
  createdAt: number;
  taskIds: { id: string; operation: string }[];
  job: JobJson | null;
  webhookUrl: string | null;
  ended?: JobEnd | null;
}

/** A task's place (AccountDO.findTask): the JobDO holding it and its public job id (null for standalone tasks). */
export interface TaskLocation {
  holder: string;
  jobId: string | null;
}

/** An account webhook's event (contract §4). */
export type WebhookEvent = "job.created" | "job.finished" | "job.failed";
/** Every webhook event, in the order 422 messages name them. */
export const WEBHOOK_EVENTS: WebhookEvent[] = ["job.created", "job.finished", "job.failed"];
