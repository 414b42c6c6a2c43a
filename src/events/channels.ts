/**
 * Live events (issue 18; contract §1.8): the socket.io channels of CloudConvert and the events on
 * them. Channels `private-job.{id}` (job.*), `private-job.{id}.tasks` (task.*), `private-task.{id}`
 * (task.*), `private-user.{id}.jobs` (job.*), `private-user.{id}.tasks` (task.*); events
 * `job.created|updated|finished|failed` and `task.created|updated|finished|failed`, each sent with
 * two arguments `(channel, {job})` or `(channel, {task})`.
 */
import type { Status } from "../model/status";
import type { JobJson, TaskJson } from "../model/types";

/** A parsed channel name; `user` is the integer user id of contract §1.5. */
export type Channel =
  | { kind: "job"; id: string }
  | { kind: "job-tasks"; id: string }
  | { kind: "task"; id: string }
  | { kind: "user-jobs"; user: number }
  | { kind: "user-tasks"; user: number };

/** One event on one channel, as the socket.io hub and the SSE stream send it. */
export interface LiveEvent {
  channel: string;
  event: string;
  data: { job: JobJson } | { task: TaskJson };
}

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const PATTERNS: [RegExp, (m: RegExpExecArray) => Channel][] = [
  [new RegExp(`^private-job\\.(${UUID})$`, "i"), (m) => ({ kind: "job", id: m[1].toLowerCase() })],
  [new RegExp(`^private-job\\.(${UUID})\\.tasks$`, "i"), (m) => ({ kind: "job-tasks", id: m[1].toLowerCase() })],
  [new RegExp(`^private-task\\.(${UUID})$`, "i"), (m) => ({ kind: "task", id: m[1].toLowerCase() })],
  [/^private-user\.(\d{1,12})\.jobs$/, (m) => ({ kind: "user-jobs", user: Number(m[1]) })],
  [/^private-user\.(\d{1,12})\.tasks$/, (m) => ({ kind: "user-tasks", user: Number(m[1]) })],
];

/** The channel a name denotes, or null for anything else (refused by the hub). */
export function parseChannel(name: unknown): Channel | null {
  if (typeof name !== "string" || name.length > 120) return null;
  for (const [re, make] of PATTERNS) {
    const m = re.exec(name);
    if (m) return make(m);
  }
  return null;
}

/** The event a status change is: created (no previous status), finished, failed (error), else updated. */
export function eventName(kind: "job" | "task", to: Status, created = false): string {
  if (created) return `${kind}.created`;
  return `${kind}.${to === "finished" ? "finished" : to === "error" ? "failed" : "updated"}`;
}

/** The channels a job's events go to (none for the hidden job of a standalone task). */
export function jobChannels(jobId: string, userNum: number, standalone: boolean): string[] {
  return standalone ? [] : [`private-job.${jobId}`, `private-user.${userNum}.jobs`];
}

/** The channels a task's events go to; a standalone task has no job channel. */
export function taskChannels(taskId: string, jobId: string, userNum: number, standalone: boolean): string[] {
  return [
    `private-task.${taskId}`,
    ...(standalone ? [] : [`private-job.${jobId}.tasks`]),
    `private-user.${userNum}.tasks`,
  ];
}
