/**
 * Issue 14 end to end through the official SDK under `npm start` (wrangler dev; the BROWSER binding
 * drives Debian's Chromium offline): an HTML document with a header and footer template printed to
 * PDF; a page served by this test captured as PNG; Markdown to PDF; the SSRF cases (the page URL,
 * a redirect, subresources, local files, WebSocket) refused with the probe server seeing nothing;
 * a page that never loads ending in TIMEOUT. Oracles: pdfinfo, pdftotext, identify/convert.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { refuseUrl } from "../../src/security/ssrf";
import { corpusPath } from "../support/corpus";
import { identify, pdfinfo, run, tempFile } from "../support/native";
import { type TaskDefs } from "../support/jobs";
import { type JobBody, sdk } from "../support/sdk";
import { sharedServer, type SharedServer } from "../support/servers";
import { scaled } from "../support/time-scale";

let open: SharedServer; // ALLOW_PRIVATE_IMPORTS=true: may capture this test's loopback pages
let guarded: SharedServer; // the production rule: loopback refused
let origin: Server;
let originBase: string;
const seen: string[] = [];
/** The page /speculative.html serves (set by the test that captures it). */
let speculativePage = "";

const PAGE = `<!doctype html><html><head><title>Capture me</title><style>body{margin:0}#left{position:absolute;left:0;top:0;width:50%;height:100%;background:#ff0000}</style></head><body><div id="left"></div><h1 style="margin-left:60%">Hello</h1></body></html>`;

beforeAll(async () => {
  origin = createServer((req, res) => {
    const url = req.url ?? "/";
    seen.push(url);
    if (url === "/page.html") return void res.writeHead(200, { "content-type": "text/html" }).end(PAGE);
    if (url === "/to-private") return void res.writeHead(302, { location: "http://10.0.0.1/" }).end();
    if (url === "/hang") return; // never answers
    if (url === "/speculative.html")
      return void res.writeHead(200, { "content-type": "text/html" }).end(speculativePage);
    if (url === "/needs-token") {
      if (req.headers["x-token"] !== "s3cret")
        return void res.writeHead(403, { "content-type": "text/html" }).end("<p>FORBIDDEN</p>");
      return void res.writeHead(200, { "content-type": "text/html" }).end("<p>TOKEN ACCEPTED</p>");
    }
    res.writeHead(200, { "content-type": "text/plain" }).end("probe");
  });
  await new Promise<void>((r) => origin.listen(0, "127.0.0.1", () => r()));
  originBase = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  // one after the other: two wrangler dev sessions starting at once collide on their local sockets
  open = sharedServer("open");
  guarded = sharedServer("guarded");
}, scaled(240_000));
afterAll(async () => {
  origin?.close();
});

/** Runs `tasks` (+ an export of each task named in `exported`) and downloads the exported files. */
async function runJob(server: SharedServer, tasks: TaskDefs, exported: string[]) {
  const cc = sdk("key-a", server.base);
  const exports = Object.fromEntries(exported.map((n) => [`export-${n}`, { operation: "export/url", input: n }]));
  const job = await cc.jobs.wait((await cc.jobs.create({ tasks: { ...tasks, ...exports } } as JobBody)).id);
  const files: Record<string, string> = {};
  for (const t of job.tasks.filter((t) => t.operation === "export/url" && t.status === "finished")) {
    const f = t.result!.files![0]!;
    files[t.name!.slice("export-".length)] = tempFile(
      f.filename,
      new Uint8Array(await (await fetch(f.url!)).arrayBuffer()),
    );
  }
  return { job, files, task: (n: string) => job.tasks.find((t) => t.name === n)! };
}

const pageText = (path: string, page: number) =>
  run("pdftotext", ["-f", String(page), "-l", String(page), "-layout", path, "-"]).out;

describe("html and Markdown to PDF with header and footer templates", () => {
  it("prints a 3-page HTML document on A4 with the header (title) and footer (n/N) on every page", async () => {
    const html = `<!doctype html><html><head><title>Quarterly report</title></head><body>${[1, 2, 3].map((n) => `<section style="page-break-after:${n < 3 ? "always" : "auto"}"><h1>Chapter ${n}</h1><p>Body of chapter ${n}.</p></section>`).join("")}</body></html>`;
    const { job, files, task } = await runJob(
      guarded,
      {
        doc: { operation: "import/raw", file: html, filename: "report.html" },
        head: {
          operation: "import/raw",
          file: `<div style="font-size:10px;width:100%;text-align:center">HEAD <span class="title"></span></div>`,
          filename: "header.html",
        },
        foot: {
          operation: "import/raw",
          file: `<div style="font-size:10px;width:100%;text-align:center">FOOT <span class="pageNumber"></span>/<span class="totalPages"></span></div>`,
          filename: "footer.html",
        },
        pdf: {
          operation: "convert",
          input: "doc",
          output_format: "pdf",
          header_template: "head",
          footer_template: "foot",
          margin_top: 25,
          margin_bottom: 25,
        },
      },
      ["pdf"],
    );
    expect(job.status, JSON.stringify(task("pdf"))).toBe("finished");
    expect(task("pdf").engine).toBe("chrome");
    expect(task("pdf").engine_version).toMatch(/^\d+\.\d+/);
    expect((task("pdf").result as { pages?: number }).pages).toBe(3);
    const info = pdfinfo(files.pdf!);
    expect(info.Pages).toBe("3");
    expect(info["Page size"]).toMatch(/^595\.\d+ x 84[12]\.\d+ pts \(A4\)/); // Chrome rounds A4 to 595.92 x 842.88
    for (const n of [1, 2, 3]) {
      const text = pageText(files.pdf!, n);
      expect(text).toContain(`Chapter ${n}`);
      expect(text).toContain("HEAD Quarterly report");
      expect(text).toMatch(new RegExp(`FOOT ${n}/3`));
    }
  });

  it("renders Markdown (tables, code) to a letter-size landscape PDF", async () => {
    const md = "# Title\n\nSome *text*.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode block\n```\n";
    const { job, files } = await runJob(
      guarded,
      {
        doc: { operation: "import/raw", file: md, filename: "notes.md" },
        pdf: {
          operation: "convert",
          input: "doc",
          output_format: "pdf",
          page_format: "letter",
          page_orientation: "landscape",
        },
      },
      ["pdf"],
    );
    expect(job.status).toBe("finished");
    expect(pdfinfo(files.pdf!)["Page size"]).toMatch(/^792 x 612 pts/);
    const text = run("pdftotext", ["-layout", files.pdf!, "-"]).out;
    expect(text).toMatch(/Title[\s\S]*Some text\.[\s\S]*a\s+b[\s\S]*1\s+2[\s\S]*code block/);
    expect(text).not.toContain("|---|");
  });
});

describe("capture-website", () => {
  it("captures a page served by this test as an 800×600 PNG whose left half is red", async () => {
    const { job, files, task } = await runJob(
      open,
      {
        shot: {
          operation: "capture-website",
          url: `${originBase}/page.html`,
          output_format: "png",
          screen_width: 800,
          screen_height: 600,
          full_page: false,
        },
      },
      ["shot"],
    );
    expect(job.status, JSON.stringify(task("shot"))).toBe("finished");
    expect(identify(files.shot!)).toMatchObject({ format: "PNG", width: 800, height: 600 });
    const mean = (crop: string, channel: string) =>
      Number(run("convert", [files.shot!, "-crop", crop, "+repage", "-format", `%[fx:mean.${channel}]`, "info:"]).out);
    expect(mean("380x600+10+0", "r")).toBeGreaterThan(0.95);
    expect(mean("380x600+10+0", "g")).toBeLessThan(0.05);
    expect(mean("300x600+500+0", "g")).toBeGreaterThan(0.8); // white with black text: not red
    expect(seen).toContain("/page.html");
  });

  it("sends `headers` with the page's own requests", async () => {
    const { files } = await runJob(
      open,
      {
        shot: {
          operation: "capture-website",
          url: `${originBase}/needs-token`,
          output_format: "pdf",
          headers: { "X-Token": "s3cret" },
        },
      },
      ["shot"],
    );
    expect(run("pdftotext", [files.shot!, "-"]).out).toContain("TOKEN ACCEPTED");
  });

  it("refuses a redirect into a private range (IMPORT_FORBIDDEN)", async () => {
    const { task } = await runJob(
      open,
      { shot: { operation: "capture-website", url: `${originBase}/to-private`, output_format: "pdf" } },
      [],
    );
    expect(task("shot")).toMatchObject({ status: "error", code: "IMPORT_FORBIDDEN" });
  });

  it("ends a page that never loads in TIMEOUT at the task's timeout, and the next capture still works", async () => {
    const { task } = await runJob(
      open,
      { shot: { operation: "capture-website", url: `${originBase}/hang`, output_format: "pdf", timeout: 8 } },
      [],
    );
    expect(task("shot")).toMatchObject({ status: "error", code: "TIMEOUT" });
    const again = await runJob(
      open,
      { shot: { operation: "capture-website", url: `${originBase}/page.html`, output_format: "pdf" } },
      ["shot"],
    );
    expect(again.job.status).toBe("finished");
    expect(pdfinfo(again.files.shot!).Pages).toBe("1");
  });
});

describe("SSRF: what a page may not reach (ALLOW_PRIVATE_IMPORTS off)", () => {
  it("refuses file:, metadata and private URLs at creation with a 422", async () => {
    for (const url of [
      "file:///etc/passwd",
      "http://169.254.169.254/latest/meta-data/",
      "http://10.1.2.3/",
      "http://[::ffff:10.0.0.1]/",
      "http://metadata.google.internal/",
    ]) {
      const res = await fetch(`${guarded.base}/v2/jobs`, {
        method: "POST",
        headers: { Authorization: "Bearer key-a", "content-type": "application/json" },
        body: JSON.stringify({ tasks: { shot: { operation: "capture-website", url, output_format: "pdf" } } }),
      });
      expect(res.status, url).toBe(422);
    }
  });

  it("refuses a loopback page URL at run time and the probe server sees no request", async () => {
    const before = seen.length;
    for (const url of [
      `${originBase}/probe-direct`,
      `http://localhost:${new URL(originBase).port}/probe-localhost`,
      `http://[::ffff:127.0.0.1]:${new URL(originBase).port}/probe-mapped`,
    ]) {
      const { task } = await runJob(guarded, { shot: { operation: "capture-website", url, output_format: "png" } }, []);
      expect(task("shot"), url).toMatchObject({ status: "error", code: "IMPORT_FORBIDDEN" });
    }
    expect(seen.slice(before)).toEqual([]);
  });

  it("an HTML input cannot read local files or reach loopback: images, frames, scripts, styles and WebSocket are blocked", async () => {
    const p = originBase;
    const html = `<!doctype html><html><body><p>VISIBLE</p>
      <img src="${p}/probe-img"><iframe src="file:///etc/passwd"></iframe><iframe src="${p}/probe-frame"></iframe>
      <link rel="stylesheet" href="http://localhost:${new URL(p).port}/probe-css">
      <script>fetch("${p}/probe-fetch").catch(()=>{}); try { new WebSocket("ws://127.0.0.1:${new URL(p).port}/probe-ws") } catch (e) {}
      var x = new XMLHttpRequest(); x.open("GET", "${p}/probe-xhr"); x.send();</script></body></html>`;
    const before = seen.length;
    const { job, files, task } = await runJob(
      guarded,
      {
        doc: { operation: "import/raw", file: html, filename: "evil.html" },
        pdf: { operation: "convert", input: "doc", output_format: "pdf" },
      },
      ["pdf"],
    );
    expect(job.status, JSON.stringify(task("pdf"))).toBe("finished");
    const text = run("pdftotext", [files.pdf!, "-"]).out;
    expect(text).toContain("VISIBLE");
    expect(text).not.toMatch(/root:.*:0:0/);
    // Chromium's page is closed once the task ended; what it sent reached the probe server before our own request does
    // (awaited, not slept on): the probe server is then seen recording, and what it recorded besides is nothing
    const sentinel = `/sentinel-${Date.now()}`;
    expect(await (await fetch(`${p}${sentinel}`)).text()).toBe("probe");
    expect(seen.slice(before)).toEqual([sentinel]);
  });
});

describe("issue 45: a captured page's speculation rules and resource hints", () => {
  /**
   * This machine's first address outside loopback (IPv4, else IPv6): the guard refuses it even with
   * ALLOW_PRIVATE_IMPORTS (a private, reserved or unique-local range), yet a server on all interfaces hears it, so a
   * request the guard let through would be counted.
   */
  function refusedLocalAddress(): string {
    const all = Object.values(networkInterfaces())
      .flatMap((l) => l ?? [])
      .filter((a) => !a.internal);
    const a =
      all.find((x) => x.family === "IPv4") ?? all.find((x) => x.family === "IPv6" && !x.address.startsWith("fe80"));
    if (!a) throw new Error("this test needs a network interface besides loopback (ip -4 addr)");
    return a.family === "IPv6" ? `[${a.address}]` : a.address;
  }

  it("capture-website of a page (its loopback origin allowed) whose rules and hints name a refused address: the probe sees no request", async () => {
    const hits: string[] = [];
    const probe = createServer((req, res) => {
      hits.push(req.url ?? "");
      res.writeHead(200, { "content-type": "text/html" }).end("<p>PROBE</p>");
    });
    await new Promise<void>((r) => probe.listen(0, "::", () => r()));
    try {
      const host = refusedLocalAddress();
      const u = `http://${host}:${(probe.address() as AddressInfo).port}`;
      // the guard's own rule refuses the address (open: loopback allowed, the rest of the private ranges not)
      expect(refuseUrl(`${u}/x`, true), u).not.toBeNull();
      const rules = JSON.stringify({
        prefetch: [{ source: "list", urls: [`${u}/rule-prefetch`], eagerness: "immediate" }],
        prerender: [{ source: "list", urls: [`${u}/rule-prerender`], eagerness: "immediate" }],
      });
      speculativePage = `<!doctype html><html><head>
        <script type="speculationrules">${rules}</script>
        <link rel="prefetch" href="${u}/link-prefetch"><link rel="prerender" href="${u}/link-prerender">
        <link rel="preconnect" href="${u}"><link rel="dns-prefetch" href="${u}">
        <link rel="preload" as="image" href="${u}/link-preload"><link rel="modulepreload" href="${u}/link-modulepreload.js">
        </head><body><h1>CAPTURED</h1><a id="a" href="#x" ping="${u}/ping">ping</a><img src="${u}/img">
        <script>
          const s = document.createElement("script"); s.type = "speculationrules"; s.textContent = ${JSON.stringify(rules.replaceAll("rule-", "dynamic-"))};
          document.head.append(s);
          document.getElementById("a").click();
          navigator.sendBeacon("${u}/beacon", "x");
        </script></body></html>`;
      const { task } = await runJob(
        open,
        { shot: { operation: "capture-website", url: `${originBase}/speculative.html`, output_format: "png" } },
        [],
      );
      expect(task("shot").status, JSON.stringify(task("shot"))).toBe("finished");
      // a prefetch or prerender would have reached the probe by now (measured on the HTML input: within 300 ms)
      await new Promise((done) => setTimeout(done, 2000));
      expect(hits).toEqual([]);
    } finally {
      probe.close();
    }
  });
});

describe("the corpus's HTML (Gotenberg's and Tika's test pages)", () => {
  const b64 = (rel: string) => readFileSync(corpusPath(rel)).toString("base64");
  const toPdf = (rel: string) =>
    runJob(
      guarded,
      {
        doc: { operation: "import/base64", file: b64(rel), filename: rel.split("/").pop() },
        pdf: { operation: "convert", input: "doc", output_format: "pdf" },
      },
      ["pdf"],
    );

  it("gotenberg-pages-3.html prints exactly 3 pages", async () => {
    const { files } = await toPdf("html/gotenberg-pages-3.html");
    expect(pdfinfo(files.pdf!).Pages).toBe("3");
  });

  it("gotenberg-feature-rich.html renders without leaking /etc/passwd through its iframes", async () => {
    const { job, files, task } = await toPdf("html/gotenberg-feature-rich.html");
    expect(job.status, JSON.stringify(task("pdf"))).toBe("finished");
    const text = run("pdftotext", [files.pdf!, "-"]).out;
    expect(text).not.toMatch(/root:.*:0:0|daemon:/);
  });

  it("gotenberg-local-storage.html shows a counter of 1 on every run: no state leaks between tasks on a reused browser", async () => {
    for (let i = 0; i < 2; i++) {
      const { files } = await toPdf("html/gotenberg-local-storage.html");
      expect(run("pdftotext", [files.pdf!, "-"]).out).toContain("localStorageCount=1");
    }
  });

  it("reads a UTF-16LE document by its byte-order mark", async () => {
    const { files } = await toPdf("html/tika-testHTML_charset_utf16le.html");
    expect(run("pdftotext", [files.pdf!, "-"]).out).toContain("This is a sample text");
  });

  it("renders gotenberg-table.md's table", async () => {
    const { files } = await toPdf("html/gotenberg-table.md");
    expect(run("pdftotext", ["-layout", files.pdf!, "-"]).out).toMatch(
      /Tables\s+Are\s+Cool[\s\S]*col 2 is\s+centered\s+\$12/,
    );
  });
});
