/**
 * The closed status vocabulary of jobs and tasks (contract §2.3). `queued` exists in the node SDK's
 * types but is never emitted: .NET deserialises status into a closed enum and would throw.
 */
export const STATUSES = ["waiting", "processing", "finished", "error"] as const;
export type Status = (typeof STATUSES)[number];

/** True for the two terminal statuses. */
export const isTerminal = (s: Status): boolean => s === "finished" || s === "error";
