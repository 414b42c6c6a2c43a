/**
 * Issue 37: the browser object (durable-objects/browser.ts) renders every task's page in one shared browser, several
 * at once, each on a warm page that no rendering in flight shares, reused by later HTML renderings after a reset
 * (engines/chrome/pool.ts). What that must not change, end to end under `npm start`: renderings in flight together
 * see nothing of each other (each of four concurrent conversions of Gotenberg's localStorage counter page shows 1,
 * and a cookie one page sets is absent from the others), a later rendering on a reused page sees no storage,
 * window.name, cookie or history entry an earlier one left, an HTML
 * input whose script never yields ends in TIMEOUT at the task's timeout rather than holding the browser, and the
 * next rendering still works. Oracles: pdftotext, pdfinfo.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { pdfinfo, run, tempFile } from "../support/native";
import { sdk } from "../support/sdk";
import { sharedServer } from "../support/servers";
import { startCountingServer } from "../support/hostile-probes";

const guarded = sharedServer("guarded");

/** Converts `html` (named `name`) to PDF with an export; answers the pdf task and the PDF's path when it finished. */
async function toPdf(html: string | Buffer, name: string, convert: Record<string, unknown> = {}) {
  const cc = sdk("key-a", guarded.base);
  const job = await cc.jobs.wait(
    (
      await cc.jobs.create({
        tasks: {
          doc: { operation: "import/base64", file: Buffer.from(html).toString("base64"), filename: name },
          pdf: { operation: "convert", input: "doc", output_format: "pdf", ...convert },
          out: { operation: "export/url", input: "pdf" },
        },
      })
    ).id,
  );
  const task = job.tasks.find((t) => t.name === "pdf")!;
  const url = job.tasks.find((t) => t.name === "out")?.result?.files?.[0]?.url;
  const path = url ? tempFile("out.pdf", new Uint8Array(await (await fetch(url)).arrayBuffer())) : null;
  return { task, path };
}

const text = (path: string | null) => (path ? run("pdftotext", [path, "-"]).out : "");

describe("the shared browser: renderings side by side", () => {
  it("four concurrent conversions each see a fresh origin: localStorage counter 1, no cookie of another task", async () => {
    const counter = readFileSync(corpusPath("html/gotenberg-local-storage.html"));
    // each page reads the cookies it finds, then sets its own
    const cookie = (n: number) =>
      `<!doctype html><p id="p">none</p><script>document.getElementById("p").textContent = "SEEN[" + (document.cookie || "none") + "]"; document.cookie = "task${n}=secret${n}; max-age=3600";</script>`;
    const results = await Promise.all([
      ...[0, 1, 2, 3].map(() => toPdf(counter, "gotenberg-local-storage.html")),
      ...[0, 1, 2, 3].map((n) => toPdf(cookie(n), `cookie-${n}.html`)),
    ]);
    for (const r of results.slice(0, 4)) {
      expect(r.task.status, JSON.stringify(r.task)).toBe("finished");
      expect(text(r.path)).toContain("localStorageCount=1");
    }
    for (const r of results.slice(4)) {
      expect(r.task.status, JSON.stringify(r.task)).toBe("finished");
      expect(text(r.path)).toContain("SEEN[none]");
    }
    // and after them, on pages warmed meanwhile: still nothing of theirs
    const after = await toPdf(cookie(9), "cookie-9.html");
    expect(text(after.path)).toContain("SEEN[none]");
  });

  it("a page reused by later conversions keeps nothing of an earlier one: storage, window.name, cookies, history", async () => {
    // the planting task leaves what a page can: origin storage, the tab's name, a cookie, history entries
    const plant = `<!doctype html><p>PLANTED</p><script>
      localStorage.setItem("secret", "A-LOCAL"); sessionStorage.setItem("secret", "A-SESSION"); window.name = "A-NAME";
      document.cookie = "secret=A-COOKIE; max-age=3600"; history.pushState({}, "", "/a-2"); history.pushState({}, "", "/a-3");
    </script>`;
    const probe = `<!doctype html><p id="p">none</p><script>
      document.getElementById("p").textContent = "PROBE local=" + (localStorage.getItem("secret") || "none") +
        " session=" + (sessionStorage.getItem("secret") || "none") + " name=" + (window.name || "none") +
        " cookie=" + (document.cookie || "none") + " history=" + history.length;
    </script>`;
    for (let round = 0; round < 2; round++) {
      const planted = await toPdf(plant, "plant.html");
      expect(planted.task.status, JSON.stringify(planted.task)).toBe("finished");
      expect(text(planted.path)).toContain("PLANTED");
      // one at a time: the pool hands the last page it reset to the next rendering
      for (let i = 0; i < 3; i++) {
        const seen = await toPdf(probe, "probe.html");
        expect(seen.task.status, JSON.stringify(seen.task)).toBe("finished");
        const t = text(seen.path).replace(/\s+/g, " ");
        expect(t).toContain("PROBE local=none session=none name=none cookie=none history=");
        // about:blank and the document: the planting task's entries are gone
        expect(Number(/history=(\d+)/.exec(t)?.[1])).toBeLessThanOrEqual(2);
      }
    }
  });

  it("a page cannot open another window, whose requests the guard would not see: no loopback request is made", async () => {
    const probe = await startCountingServer();
    try {
      const u = `http://127.0.0.1:${probe.port}`;
      // every way a document opens a window without a user: window.open, document.open's 3-argument form, a link, a
      // form and a submit button aimed at _blank (clicked, submitted, dispatched), an iframe's window.open
      const html = `<!doctype html><h1>POPUPS TRIED</h1>
        <form id="f" action="${u}/form" target="_blank"></form>
        <form id="g" action="${u}/form-button"><button id="b" formtarget="_blank">go</button></form>
        <iframe srcdoc="<script>open('${u}/iframe-open')</script>"></iframe>
        <script>
          open("${u}/window-open");
          document.open("${u}/document-open", "w", "");
          const a = document.createElement("a"); a.href = "${u}/link"; a.target = "_blank"; document.body.append(a);
          a.click(); a.dispatchEvent(new MouseEvent("click", { bubbles: true }));
          document.getElementById("f").submit(); document.getElementById("f").requestSubmit();
          document.getElementById("b").click();
        </script>`;
      const r = await toPdf(html, "popups.html");
      expect(r.task.status, JSON.stringify(r.task)).toBe("finished");
      expect(text(r.path)).toContain("POPUPS TRIED");
      // a popup's page would have loaded by now
      await new Promise((done) => setTimeout(done, 1500));
      expect(probe.hits).toEqual([]);
      // and the page it ran on is not handed to the next task (it was closed or reset): the next rendering works
      const next = await toPdf("<!doctype html><h1>AFTER POPUPS</h1>", "after.html");
      expect(text(next.path)).toContain("AFTER POPUPS");
    } finally {
      await probe.close();
    }
  });

  it("speculation rules and prerender/prefetch links reach no loopback address (issue 45)", async () => {
    const probe = await startCountingServer();
    try {
      const u = `http://127.0.0.1:${probe.port}`;
      const rules = (path: string) =>
        JSON.stringify({
          prefetch: [{ source: "list", urls: [`${u}/${path}-prefetch`], eagerness: "immediate" }],
          prerender: [{ source: "list", urls: [`${u}/${path}-prerender`], eagerness: "immediate" }],
        });
      // the rules in the head, the same inserted by a script, and the link forms of prefetch and prerender
      const html = `<!doctype html><html><head>
        <script type="speculationrules">${rules("inline")}</script>
        <script type="SpeculationRules ">${rules("inline-case")}</script>
        <link rel="prefetch" href="${u}/link-prefetch"><link rel="prerender" href="${u}/link-prerender">
        </head><body><h1>SPECULATION TRIED</h1><p id="s">none</p>
        <script>
          const s = document.createElement("script"); s.type = "speculationrules"; s.textContent = ${JSON.stringify(rules("dynamic"))};
          document.head.append(s);
          document.getElementById("s").textContent = "SUPPORTS[" + HTMLScriptElement.supports("speculationrules") + "]";
        </script></body></html>`;
      const r = await toPdf(html, "speculation.html");
      expect(r.task.status, JSON.stringify(r.task)).toBe("finished");
      const t = text(r.path);
      expect(t).toContain("SPECULATION TRIED");
      expect(t).toContain("SUPPORTS[false]");
      // a prefetch or prerender would have reached the server by now (measured before the fix: within 300 ms)
      await new Promise((done) => setTimeout(done, 2000));
      expect(probe.hits).toEqual([]);
    } finally {
      await probe.close();
    }
  });

  it("self-contained pages are written over without a navigation; a page that may run a script never lands on one", async () => {
    // Chromium prints the document's URL in the header (<span class="url">): its origin names the document a task
    // was written into (pool.ts: a self-contained task keeps the page's document; any other task gets a fresh origin)
    const withUrl = {
      display_header_footer: true,
      header_template: '<div style="font-size:7px">URL[<span class="url"></span>]</div>',
    };
    const originIn = (t: string) =>
      /URL\[(https:\/\/d[0-9a-f]{32}\.document\.invalid)\//.exec(t.replace(/\s+/g, ""))?.[1];
    const kept: string[] = [];
    const probed: string[] = [];
    for (let round = 0; round < 3; round++) {
      // two self-contained documents, then one that may run a script (it prints its own origin)
      for (let i = 0; i < 2; i++) {
        const a = await toPdf(`<!doctype html><p>STATIC-${round}-${i}</p>`, "static.html", withUrl);
        expect(a.task.status, JSON.stringify(a.task)).toBe("finished");
        const t = text(a.path);
        // the document's own text, and nothing of the one written before it
        expect(t).toContain(`STATIC-${round}-${i}`);
        expect(t).not.toContain(i ? `STATIC-${round}-0` : "PROBE[");
        kept.push(originIn(t)!);
      }
      const p = await toPdf(
        '<!doctype html><p id="p">none</p><script>document.getElementById("p").textContent = "PROBE[" + location.origin + "]";</script>',
        "probe.html",
      );
      expect(p.task.status, JSON.stringify(p.task)).toBe("finished");
      probed.push(/PROBE\[(\S+?)\]/.exec(text(p.path).replace(/\s+/g, ""))?.[1] ?? "none");
    }
    expect(
      kept.every((o) => /^https:\/\/d[0-9a-f]{32}\.document\.invalid$/.test(o)),
      kept.join(" "),
    ).toBe(true);
    // the second self-contained document of a round was written into the first one's page at least once (no navigation)
    expect(new Set(kept).size, kept.join(" ")).toBeLessThan(kept.length);
    // a page that may run a script never met a self-contained one's document, nor another probe's
    for (const o of probed) expect(o).toMatch(/^https:\/\/d[0-9a-f]{32}\.document\.invalid$/);
    expect(
      probed.filter((o) => kept.includes(o)),
      `${probed.join(" ")} / ${kept.join(" ")}`,
    ).toEqual([]);
    expect(new Set(probed).size).toBe(probed.length);
  });

  it("an HTML input whose script never yields ends in TIMEOUT, and the next conversion still works", async () => {
    const hung = await toPdf("<!doctype html><p>spin</p><script>for (;;) {}</script>", "spin.html", { timeout: 8 });
    expect(hung.task).toMatchObject({ status: "error", code: "TIMEOUT" });
    const next = await toPdf("<!doctype html><h1>NEXT PAGE</h1>", "next.html");
    expect(next.task.status, JSON.stringify(next.task)).toBe("finished");
    expect(pdfinfo(next.path!).Pages).toBe("1");
    expect(text(next.path)).toContain("NEXT PAGE");
  });
});
