/**
 * Issue 47, "Done when": the browser build converts a raw photo, a font, a spreadsheet, a Markdown file and a DXF client-side
 * — real files written by others, each output held to a native oracle (identify and the corpus facts, fc-scan,
 * Python's zipfile reading the workbook's cells, Debian's pandoc reading the document back, ezdxf's entity counts) —
 * with nothing sent to the
 * API (the page's requests are counted: none to /v2/, none carrying a body). The capability query says which tasks
 * cannot run in the page and why, and the hybrid run sends a docx → pdf job to the API and answers the same shape.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corpusPath, fact } from "../support/corpus";
import { fcScan } from "../support/font-oracles";
import { identify, pdfinfo, tempFile } from "../support/native";
import { xlsxCells } from "../support/office-oracles";
import { sharedServer, type SharedServer } from "../support/servers";
import { runLocalIn } from "./harness/run-local";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
let server: SharedServer;
let browser: Browser;
let page: Page;
const requests: { url: string; method: string; bodyBytes: number }[] = [];

beforeAll(async () => {
  server = sharedServer("guarded");
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
  page = await browser.newPage();
  page.on("request", (r) => requests.push({ url: r.url(), method: r.method(), bodyBytes: r.postData()?.length ?? 0 }));
  await page.goto(`${server.base}/browser/`, { waitUntil: "load" });
});
afterAll(async () => {
  await browser?.close();
});

/** Requests the page made to the API (anything under /v2/) or with a body, since `from`. */
const apiRequests = (from: number) =>
  requests.slice(from).filter((r) => new URL(r.url).pathname.startsWith("/v2/") || r.bodyBytes > 0);

const words = (s: string) => new Set(s.toLowerCase().match(/\p{L}{3,}/gu) ?? []);

describe("client-side, nothing uploaded", () => {
  it("a raw photo, a font, a spreadsheet, a Markdown file and a DXF convert in the page", async () => {
    const from = requests.length;

    const raw = await runLocalIn(page, "raw/rawpy-RAW_KODAK_DC50.KDC", {
      png: { operation: "convert", input: "in", output_format: "png" },
    });
    expect(raw.task("png")).toMatchObject({ status: "finished", engine: "imagemagick" });
    const [w, h] = fact("raw/rawpy-RAW_KODAK_DC50.KDC").dcraw_decoded_wh as [number, number];
    expect(identify(raw.files.png![0]!.path)).toMatchObject({ format: "PNG", width: w, height: h });

    const font = await runLocalIn(page, "fonts/opensans-OpenSans-Regular.ttf", {
      woff: { operation: "convert", input: "in", output_format: "woff" },
    });
    expect(font.task("woff")).toMatchObject({ status: "finished", engine: "fonteditor" });
    expect(fcScan(font.files.woff![0]!.path)).toEqual(fcScan(corpusPath("fonts/opensans-OpenSans-Regular.ttf")));

    const sheet = await runLocalIn(page, "office/tika-testEXCEL.xlsx", {
      csv: { operation: "convert", input: "in", output_format: "csv" },
    });
    expect(sheet.task("csv")).toMatchObject({ status: "finished", engine: "sheetjs" });
    const csv = readFileSync(sheet.files.csv![0]!.path, "utf8");
    const cells = xlsxCells(corpusPath("office/tika-testEXCEL.xlsx"), 1);
    expect(cells.length).toBeGreaterThan(5);
    for (const c of cells) expect(csv).toContain(c.value);

    const md = await runLocalIn(page, "markup/tika-testMARKDOWN.md", {
      docx: { operation: "convert", input: "in", output_format: "docx" },
      html: { operation: "convert", input: "in", output_format: "html" },
    });
    expect(md.task("docx")).toMatchObject({ status: "finished", engine: "pandoc-wasm" });
    expect(md.task("html")).toMatchObject({ status: "finished", engine: "pandoc-wasm" });
    const source = words(
      execFileSync("pandoc", ["-f", "markdown", "-t", "plain", corpusPath("markup/tika-testMARKDOWN.md")], {
        encoding: "utf8",
      }),
    );
    for (const [format, path] of [
      ["docx", md.files.docx![0]!.path],
      ["html", md.files.html![0]!.path],
    ] as const) {
      const got = words(execFileSync("pandoc", ["-f", format, "-t", "plain", path], { encoding: "utf8" }));
      const missing = [...source].filter((w) => !got.has(w));
      expect(missing.length / source.size, `${format} misses ${missing.join(" ")}`).toBeLessThan(0.03);
    }

    const dxf = await runLocalIn(page, "cad/tika-testDXF_ascii.dxf", {
      svg: { operation: "convert", input: "in", output_format: "svg" },
    });
    expect(dxf.task("svg")).toMatchObject({ status: "finished", engine: "dxf" });
    // one path per LINE and POLYLINE, one circle per CIRCLE, as ezdxf counts them (the corpus facts)
    const types = fact("cad/tika-testDXF_ascii.dxf").modelspace_entity_types as Record<string, number>;
    const svg = readFileSync(dxf.files.svg![0]!.path, "utf8");
    expect(svg.match(/<path /g)?.length).toBe(types.LINE! + types.POLYLINE!);
    expect(svg.match(/<circle /g)?.length).toBe(types.CIRCLE);

    expect(apiRequests(from)).toEqual([]);
  }, 300_000);
});

describe("the capability query and the hybrid run", () => {
  it("says which tasks cannot run in the page and why", async () => {
    const answer = await page.evaluate(async () => {
      const { canRunLocally } = await new Function('return import("/browser/edge-convert.js")')();
      const job = (output: string) => ({
        tasks: {
          in: { operation: "import/upload" },
          c: { operation: "convert", input: "in", output_format: output },
          out: { operation: "export/url", input: "c" },
        },
      });
      return {
        docxPdf: await canRunLocally(job("pdf"), { files: { in: "letter.docx" } }),
        mdDocx: await canRunLocally(job("docx"), { files: { in: "notes.md" } }),
      };
    });
    expect(answer.mdDocx.local).toBe(true);
    expect(answer.mdDocx.tasks.find((t: { task: string }) => t.task === "c")).toMatchObject({
      local: true,
      engines: ["pandoc-wasm"],
    });
    expect(answer.docxPdf.local).toBe(false);
    const c = answer.docxPdf.tasks.find((t: { task: string }) => t.task === "c");
    expect(c).toMatchObject({ local: false, engines: [] });
    expect(c.why).toMatch(/libreoffice \(native\)/);
    expect(
      answer.docxPdf.tasks.filter((t: { local: boolean }) => !t.local).map((t: { task: string }) => t.task),
    ).toEqual(["c"]);
  });

  it("runs docx → pdf through the API and md → html in the page, with the same answer shape", async () => {
    const docx = readFileSync(corpusPath("office/gotenberg-pages_3.docx")).toString("base64");
    const md = readFileSync(corpusPath("markup/tika-testMARKDOWN.md")).toString("base64");
    const from = requests.length;
    const r = await page.evaluate(
      async (docx, md, base) => {
        const { runJobHybrid } = await new Function('return import("/browser/edge-convert.js")')();
        const file = (b64: string, name: string) =>
          new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name);
        const job = (output: string) => ({
          tasks: {
            in: { operation: "import/upload" },
            c: { operation: "convert", input: "in", output_format: output },
            out: { operation: "export/url", input: "c" },
          },
        });
        const api = { url: base, key: "key-a" };
        const shape = async (x: {
          where: string;
          job: { status: string; tasks: { name: string; status: string; engine: string | null }[] };
          outputs: { task: string; filename: string; blob: Blob }[];
        }) => ({
          where: x.where,
          status: x.job.status,
          engine: x.job.tasks.find((t) => t.name === "c")?.engine,
          outputs: await Promise.all(
            x.outputs.map(async (o) => ({
              task: o.task,
              filename: o.filename,
              b64: btoa(String.fromCharCode(...new Uint8Array(await o.blob.arrayBuffer()))),
            })),
          ),
        });
        return {
          remote: await shape(await runJobHybrid(job("pdf"), { files: { in: file(docx, "pages.docx") }, api })),
          local: await shape(await runJobHybrid(job("html"), { files: { in: file(md, "notes.md") }, api })),
        };
      },
      docx,
      md,
      server.base,
    );
    expect(r.remote).toMatchObject({ where: "api", status: "finished", engine: "libreoffice" });
    expect(r.remote.outputs).toMatchObject([{ task: "out", filename: "pages.pdf" }]);
    const pdf = tempFile("hybrid.pdf", Buffer.from(r.remote.outputs[0]!.b64, "base64"));
    expect(pdfinfo(pdf).Pages).toBe("3");
    expect(execFileSync("pdftotext", [pdf, "-"], { encoding: "utf8" })).toMatch(/Page 1[\s\S]*Page 2[\s\S]*Page 3/);
    expect(r.local).toMatchObject({ where: "browser", status: "finished", engine: "pandoc-wasm" });
    expect(r.local.outputs).toMatchObject([{ task: "out", filename: "notes.html" }]);
    expect(Buffer.from(r.local.outputs[0]!.b64, "base64").toString("utf8")).toMatch(/<html[\s\S]*Title/);
    // the API saw the docx job only: its create, the upload, the wait and the download
    const toApi = apiRequests(from).map(
      (q) => `${q.method} ${new URL(q.url).pathname.replace(/[0-9a-f-]{36}/g, ":id")}`,
    );
    expect(toApi.filter((q) => q === "POST /v2/jobs")).toHaveLength(1);
  }, 300_000);
});
