/** Pure graph rules (issue 2): validation, cycles, readiness, failure propagation, job status. */
import { describe, expect, it } from "vitest";
import { findCycle, parseJobTasks } from "../../src/graph/parse";
import { failedDependents, jobStatus, readyTasks, type NodeState } from "../../src/graph/state";
import { TASK_CATALOG } from "../../src/operations/validate";

const node = (name: string, status: NodeState["status"], inputs: string[] = [], ignoreError = false): NodeState => ({
  name,
  status,
  inputs,
  ignoreError,
  external: false,
});

describe("parseJobTasks", () => {
  it("accepts a typical job and normalises input to arrays", () => {
    const r = parseJobTasks(
      { a: { operation: "import/raw", file: "x", filename: "a.txt" }, b: { operation: "export/url", input: "a" } },
      TASK_CATALOG,
    );
    expect("specs" in r && r.specs.map((s) => [s.name, s.input])).toEqual([
      ["a", []],
      ["b", ["a"]],
    ]);
  });
  it("treats null parameters as absent (PHP sends nulls)", () => {
    const r = parseJobTasks(
      { a: { operation: "import/url", url: "https://example.com/a.png", filename: null, headers: null } },
      TASK_CATALOG,
    );
    expect("specs" in r).toBe(true);
  });
  it("names the task in every message", () => {
    const r = parseJobTasks({ conv: { operation: "export/url", input: ["nope"] } }, TASK_CATALOG);
    expect("errors" in r && r.errors["tasks.conv.input"]).toEqual([
      'Task conv: input task "nope" does not exist in this job.',
    ]);
  });
  it("finds cycles, including self-references", () => {
    const spec = (name: string, input: string[]) => ({
      name,
      operation: "export/url",
      input,
      ignoreError: false,
      timeout: 1,
      params: {},
      payload: {},
      refs: [],
    });
    expect(findCycle([spec("a", ["a"])])).toEqual(["a", "a"]);
    expect(findCycle([spec("a", ["b"]), spec("b", ["c"]), spec("c", ["a"])])).toEqual(["a", "b", "c", "a"]);
    expect(findCycle([spec("a", []), spec("b", ["a"])])).toBeNull();
  });
});

describe("graph state", () => {
  it("makes a task ready only when every input finished", () => {
    expect(
      readyTasks([
        node("a", "finished"),
        node("b", "processing"),
        node("c", "waiting", ["a"]),
        node("d", "waiting", ["a", "b"]),
      ]),
    ).toEqual(["c"]);
  });
  it("fails transitive dependents of a failed task", () => {
    expect(
      failedDependents([
        node("a", "error"),
        node("b", "waiting", ["a"]),
        node("c", "waiting", ["b"]),
        node("d", "waiting"),
      ]).sort(),
    ).toEqual(["b", "c"]);
  });
  it("derives the job status from its tasks", () => {
    expect(jobStatus([node("a", "waiting")])).toBe("waiting");
    expect(jobStatus([node("a", "finished"), node("b", "waiting")])).toBe("processing");
    expect(jobStatus([node("a", "finished"), node("b", "error")])).toBe("error");
    expect(jobStatus([node("a", "finished"), node("b", "error", [], true)])).toBe("finished");
  });
});
