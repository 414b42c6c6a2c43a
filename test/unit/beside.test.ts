/**
 * Which tasks a JobDO runs beside itself instead of through the queue (runner/beside.ts, issue 37): only those every
 * routing candidate of which is the Chrome engine behind the browser object, with small inputs, where the object is
 * bound and not switched off. Oracle: the engine table's routing (operations/registry.ts `route`) for the same task.
 */
import { describe, expect, it } from "vitest";
import { BESIDE_MAX_INPUT_BYTES, runsBesideJob } from "../../src/runner/beside";
import { route } from "../../src/operations/registry";

const bound = { BROWSER: {} as never, BROWSERS: {} as never };
const html = [{ filename: "page.html", size: 4_000 }];

describe("runsBesideJob", () => {
  it("html → pdf and capture-website run beside the job; their routes hold only chrome", () => {
    expect(route("convert", { output_format: "pdf" }, "page.html").map((c) => c.engine.name)).toEqual(["chrome"]);
    expect(runsBesideJob(bound, "convert", { output_format: "pdf" }, html)).toBe(true);
    expect(runsBesideJob(bound, "capture-website", { url: "https://example.com", output_format: "png" }, [])).toBe(
      true,
    );
  });

  it("a task another engine can run, or that routing refuses, goes through the queue", () => {
    const docx = [{ filename: "a.docx", size: 10_000 }];
    expect(route("convert", { output_format: "pdf" }, "a.docx").some((c) => c.engine.name !== "chrome")).toBe(true);
    expect(runsBesideJob(bound, "convert", { output_format: "pdf" }, docx)).toBe(false);
    expect(runsBesideJob(bound, "convert", { output_format: "nope" }, html)).toBe(false);
    expect(runsBesideJob(bound, "no/such-operation", {}, html)).toBe(false);
  });

  it("not without the browser object, with it switched off, or with large inputs", () => {
    const pdf = { output_format: "pdf" };
    expect(runsBesideJob({}, "convert", pdf, html)).toBe(false);
    expect(runsBesideJob({ BROWSER: {} as never }, "convert", pdf, html)).toBe(false);
    expect(runsBesideJob({ ...bound, BROWSER_REUSE: "session" }, "convert", pdf, html)).toBe(false);
    expect(runsBesideJob({ ...bound, BROWSER_REUSE: "false" }, "convert", pdf, html)).toBe(false);
    expect(runsBesideJob({ ...bound, BROWSER_BESIDE: "false" }, "convert", pdf, html)).toBe(false);
    const big = [{ filename: "page.html", size: BESIDE_MAX_INPUT_BYTES + 1 }];
    expect(runsBesideJob(bound, "convert", pdf, big)).toBe(false);
  });
});
