/**
 * Pure rules of a running job graph (issue 2, contract §2.3): which tasks are ready, which fail
 * because an input failed, and what the job's status is. The Durable Object applies them; unit
 * tests check them without any runtime.
 */
import type { Status } from "../model/status";
import { isTerminal } from "../model/status";

/** The part of a task these rules need. `inputs` are the names (or ids) of the tasks it takes files from. */
export interface NodeState {
  name: string;
  status: Status;
  inputs: string[];
  ignoreError: boolean;
  /** Import tasks wait for something other than inputs (an upload) and are never "ready". */
  external: boolean;
}

/** Names of waiting tasks whose every input has finished. */
export function readyTasks(nodes: NodeState[]): string[] {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  return nodes
    .filter((n) => n.status === "waiting" && !n.external && n.inputs.every((i) => byName.get(i)?.status === "finished"))
    .map((n) => n.name);
}

/** Names of non-terminal tasks that must end in INPUT_TASK_FAILED because an input (transitively) ended in error. */
export function failedDependents(nodes: NodeState[]): string[] {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const doomed = new Set<string>();
  let changed = true;
  while (changed) {
    changed = false;
    for (const n of nodes) {
      if (isTerminal(n.status) || doomed.has(n.name)) continue;
      if (n.inputs.some((i) => byName.get(i)?.status === "error" || doomed.has(i))) {
        doomed.add(n.name);
        changed = true;
      }
    }
  }
  return [...doomed];
}

/**
 * The job's status, derived from its tasks (contract §2.3 [I]): all waiting → waiting; any task not
 * terminal → processing; all terminal → error if some task failed without ignore_error, else finished.
 */
export function jobStatus(nodes: NodeState[]): Status {
  if (nodes.length === 0) return "finished";
  if (nodes.every((n) => n.status === "waiting")) return "waiting";
  if (nodes.some((n) => !isTerminal(n.status))) return "processing";
  return nodes.some((n) => n.status === "error" && !n.ignoreError) ? "error" : "finished";
}
