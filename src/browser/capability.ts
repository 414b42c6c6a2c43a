/**
 * The capability query of the browser build (issue 47): can a job run entirely where it is asked — in a page, with
 * that host's engines — and which tasks cannot, and why. It decides as the runner does: the job is validated by the
 * API's own rules (graph/parse.ts), each task is routed by operations/registry.ts `route` (formats from the files
 * given and the tasks before it), and a task is local when one of its candidate engines is present on the host. So a
 * docx → pdf task answers "libreoffice (the native engine) only", an md → docx task "pandoc-wasm".
 */
import { TaskError } from "../engines/errors";
import type { EngineInstances } from "../engines/registry";
import { hasEngine } from "../engines/use";
import { parseJobTasks, type TaskSpec } from "../graph/parse";
import { extensionOf } from "../operations/io/filenames";
import { route } from "../operations/registry";
import { TASK_CATALOG } from "../operations/validate";
import { LocalJobError } from "./local-job";

/** One task's answer. */
export interface TaskCapability {
  task: string;
  operation: string;
  /** True when an engine of this host can run it. */
  local: boolean;
  /** The engines that would run it here, in routing order (empty when none). */
  engines: string[];
  /** Why it cannot run here: the engines that can (and where they run), or why no engine does. */
  why?: string;
}

/** A job's answer: `local` when every task can run here. */
export interface JobCapability {
  local: boolean;
  tasks: TaskCapability[];
}

/** The name of the file a task hands on, as far as the job tells: what routes the tasks after it. */
function handedOn(spec: TaskSpec, inputName: string | undefined, files: Record<string, string>): string | undefined {
  const p = spec.params;
  if (spec.operation === "import/upload") return files[spec.name];
  if (typeof p.filename === "string" && p.filename) return p.filename;
  if (spec.operation.startsWith("import/")) {
    const url = typeof p.url === "string" ? p.url : typeof p.file === "string" ? p.file : undefined;
    return url?.split(/[?#]/)[0]?.split("/").pop() || undefined;
  }
  const out = typeof p.output_format === "string" ? p.output_format : undefined;
  if (!out) return inputName;
  const base = (inputName ?? "file").replace(/\.[^.]+$/, "");
  return `${base}.${out}`;
}

/**
 * Whether `body` ({tasks}) can run with `engines`, task by task. `files` names the file each import/upload task will
 * be given (task → filename; its extension stands for the input format, as in the API).
 * @throws LocalJobError with the API's 422 body when the job is invalid
 */
export function jobCapability(
  body: { tasks?: unknown },
  engines: EngineInstances,
  files: Record<string, string> = {},
): JobCapability {
  const parsed = parseJobTasks(body.tasks, TASK_CATALOG);
  if ("errors" in parsed) throw new LocalJobError(parsed.errors);
  const names = new Map<string, string | undefined>();
  const specs = new Map(parsed.specs.map((s) => [s.name, s]));
  const nameOf = (task: string, seen = new Set<string>()): string | undefined => {
    if (names.has(task)) return names.get(task);
    const spec = specs.get(task);
    if (!spec || seen.has(task)) return undefined;
    seen.add(task);
    const name = handedOn(spec, spec.input[0] ? nameOf(spec.input[0], seen) : undefined, files);
    names.set(task, name);
    return name;
  };
  const tasks = parsed.specs.map((spec): TaskCapability => {
    const inputName = spec.input[0] ? nameOf(spec.input[0]) : undefined;
    let candidates;
    try {
      candidates = route(spec.operation, spec.params, inputName);
    } catch (err) {
      const message = err instanceof TaskError ? err.message : String(err);
      return { task: spec.name, operation: spec.operation, local: false, engines: [], why: message };
    }
    const here = [...new Set(candidates.map((c) => c.engine.name).filter((n) => hasEngine({ engines }, n)))];
    if (spec.operation === "import/upload" && !files[spec.name])
      return {
        task: spec.name,
        operation: spec.operation,
        local: false,
        engines: here,
        why: "No file is given for this import/upload task.",
      };
    if (here.length) return { task: spec.name, operation: spec.operation, local: true, engines: here };
    const elsewhere = [...new Set(candidates.map((c) => `${c.engine.name} (${c.engine.placement})`))];
    const what = inputName ? `${extensionOf(inputName) || "this input"}` : "this input";
    return {
      task: spec.name,
      operation: spec.operation,
      local: false,
      engines: [],
      why: `${spec.operation} of ${what}${typeof spec.params.output_format === "string" ? ` to ${spec.params.output_format}` : ""} runs on ${elsewhere.join(", ")}, which this host does not have.`,
    };
  });
  return { local: tasks.every((t) => t.local), tasks };
}
