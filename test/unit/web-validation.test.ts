/**
 * Creation-time validation and routing of the web operations (issue 14): capture-website's URL
 * passes the import/url SSRF guard at creation, CloudConvert's rendering parameters are checked by
 * name, header/footer templates are task references, html/md route to Chrome. Rendering itself is
 * tested end to end (test/e2e/sdk-web.test.ts) and in workerd (test/worker/browser-binding.test.ts).
 */
import { describe, expect, it, vi } from "vitest";
import { parseJobTasks } from "../../src/graph/parse";
import { route } from "../../src/operations/registry";
import { TASK_CATALOG } from "../../src/operations/validate";
import { markdownPage } from "../../src/operations/web/convert";

const job = (tasks: Record<string, unknown>) => parseJobTasks(tasks, TASK_CATALOG);
const errorsOf = (tasks: Record<string, unknown>, name = "t"): string[] => {
  const r = job(tasks);
  return "errors" in r ? (r.errors[`tasks.${name}`] ?? []) : [];
};
const capture = (extra: Record<string, unknown>) => ({
  t: { operation: "capture-website", url: "https://example.com/", output_format: "pdf", ...extra },
});

describe("capture-website at creation", () => {
  it("accepts CloudConvert's parameters and a template task", () => {
    const r = job({
      head: { operation: "import/raw", file: "<span class='title'></span>", filename: "h.html" },
      t: {
        operation: "capture-website",
        url: "https://example.com/a",
        output_format: "pdf",
        page_format: "a4",
        page_orientation: "landscape",
        margin_top: 20,
        margin_bottom: 20,
        print_background: false,
        display_header_footer: true,
        header_template: "head",
        wait_until: "networkidle0",
        wait_for_element: "#main",
        wait_time: 500,
        css_media_type: "screen",
        headers: { "X-Token": "abc" },
        zoom: 0.8,
      },
    });
    expect(r).toHaveProperty("specs");
  });

  it("refuses SSRF URLs, non-http schemes and bad values with the parameter's name", () => {
    expect(errorsOf(capture({ url: "file:///etc/passwd" }))[0]).toMatch(
      /^Task t: url: url scheme file: is not allowed/,
    );
    expect(errorsOf(capture({ url: "http://169.254.169.254/latest/meta-data/" }))[0]).toMatch(
      /^Task t: url: url points to a linkLocal address/,
    );
    expect(errorsOf(capture({ url: "http://[::ffff:10.0.0.1]/" }))[0]).toMatch(/private/);
    expect(errorsOf(capture({ url: "gopher://example.com/" }))[0]).toMatch(/scheme gopher:/);
    expect(errorsOf(capture({ page_format: "a9" }))[0]).toMatch(/^Task t: page_format: /);
    expect(errorsOf(capture({ zoom: 5 }))[0]).toMatch(/^Task t: zoom: /);
    expect(errorsOf(capture({ wait_until: "forever" }))[0]).toMatch(/^Task t: wait_until: /);
    expect(errorsOf(capture({ headers: { "bad header": "x" } }))[0]).toMatch(/^Task t: headers/);
    expect(errorsOf(capture({ page_width: 20 }))).toEqual(["Task t: page_width and page_height go together."]);
    expect(errorsOf(capture({ page_width: 20, page_height: 30, page_format: "a4" }))).toEqual([
      "Task t: page_format and page_width/page_height exclude each other.",
    ]);
    expect(errorsOf(capture({ output_format: "gif" }))[0]).toMatch(/capture-website to gif is not supported/);
  });

  it("a header_template naming a task that does not exist is refused like any missing input", () => {
    expect(JSON.stringify(job(capture({ header_template: "nope", display_header_footer: true })))).toMatch(/nope/);
  });
});

describe("convert html and md", () => {
  it("routes html, htm and md to chrome, and html to pdf is not mistaken for an image or office conversion", () => {
    for (const name of ["a.html", "a.htm", "a.md"])
      expect(route("convert", { output_format: "pdf" }, name).map((c) => c.engine.name)).toEqual(["chrome"]);
    expect(route("convert", { output_format: "png" }, "a.html").map((c) => c.engine.name)).toEqual(["chrome"]);
  });

  it("renders Markdown with marked into a UTF-8 page titled by the file", () => {
    const page = markdownPage("# Héllo <world>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", "notes <1>");
    expect(page).toMatch(/^<!doctype html><html><head><meta charset="utf-8"><title>notes &lt;1&gt;<\/title>/);
    expect(page).toContain("<h1>Héllo <world></h1>");
    expect(page).toMatch(/<table>[\s\S]*<th>a<\/th>[\s\S]*<td>2<\/td>/);
  });
});

describe("the chrome engine without a browser", () => {
  it("answers ENGINE_UNAVAILABLE naming what to install when no browser can be launched, at once", async () => {
    const { createChromeEngine } = await import("../../src/engines/chrome/engine");
    // a binding whose browser service is down (as when Chromium is missing: the local binding's launch fails)
    const asked: string[] = [];
    const down = {
      fetch: async (req: RequestInfo | URL) => {
        asked.push(new URL(req instanceof Request ? req.url : String(req)).pathname);
        return new Response("browser failed to launch: chromium: not found", { status: 500 });
      },
    };
    // "at once" as an event, not a stopwatch: with no timer able to fire, the answer can only come if
    // nothing waits on a timer (no back-off, no retry until the 30 s deadline); waiting would hang
    // this test until its own timeout, the failure bound
    vi.useFakeTimers({ toFake: ["setTimeout", "setInterval", "setImmediate"] });
    try {
      const r = await createChromeEngine(down as never, { timeoutMs: 30_000 }).render({
        source: { html: "<p>x</p>" },
        output: "pdf",
        options: {},
        allowLoopback: false,
      });
      expect(r).toMatchObject({ ok: false, error: { code: "ENGINE_UNAVAILABLE" } });
      if (!r.ok) expect(r.error.message).toContain("apt-get install chromium");
      expect(vi.getTimerCount(), "timers left pending by the failed render").toBe(0);
    } finally {
      vi.useRealTimers();
    }
    // one look for a warm session, one launch: the launch's failure is the answer, not retried
    expect(asked.length, asked.join(", ")).toBeLessThanOrEqual(2);
  });
});
