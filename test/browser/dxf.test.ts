/**
 * CAD in the browser (issue 47): the browser build converts a corpus DXF (FreeCAD's R12 schematic) → svg and → png
 * in the page, served as plain static files (dist/browser/), with no API to reach: the dxf engine (loaded lazily, its
 * chunk fetched on the first DXF task only) draws the SVG, resvg (resvg.wasm) rasterises it. Oracles: the same job's
 * outputs from the Node engines (the same code: the SVG byte for byte, the PNG to the raster oracle's tolerance),
 * identify (size by the native engine's rule), Python's ElementTree (the SVG parses, one path per LINE/POLYLINE as
 * ezdxf counts them in facts.json), and the page's request log: GETs of the build's own files only, none carrying a body.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execute } from "../../src/runner/execute";
import { nodeEngines } from "../../src/runtime/node/engines";
import { corpusPath, fact } from "../support/corpus";
import { identify, tempFile } from "../support/native";
import { bytesInput, dataOf, testContext } from "../support/pdf-helpers";
import { matches, rgb } from "../support/raster-oracle";

const DIST = fileURLToPath(new URL("../../dist/browser/", import.meta.url));
const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
const TIKA = "cad/tika-testDXF_ascii.dxf";
let files: Server;
let base: string;
let browser: Browser;
let page: Page;
const served: string[] = [];
const requests: { url: string; method: string; bodyBytes: number }[] = [];
const errors: string[] = [];

beforeAll(async () => {
  files = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url!, "http://x").pathname)).replace(/^\/+/, "");
    const file = join(DIST, path.endsWith("/") || path === "" ? `${path}index.html` : path);
    if (!file.startsWith(DIST) || !statSync(file, { throwIfNoEntry: false })?.isFile())
      return void res.writeHead(404).end();
    served.push(file.slice(DIST.length));
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
  });
  await new Promise<void>((r) => files.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
  page = await browser.newPage();
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("request", (r) => requests.push({ url: r.url(), method: r.method(), bodyBytes: r.postData()?.length ?? 0 }));
  await page.goto(`${base}/`, { waitUntil: "load" });
});
afterAll(async () => {
  await browser?.close();
  files?.close();
});

/** convert → svg and → png of the DXF `bytes` in the page: the job's status, the tasks' engines/codes/warnings, outputs. */
async function inPage(bytes: Uint8Array, name: string) {
  return page.evaluate(
    async (b64: string, name: string) => {
      const { runJob } = await new Function('return import("/edge-convert.js")')(); // a string: vitest must not rewrite it
      const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const { job, outputs } = await runJob(
        {
          tasks: {
            in: { operation: "import/upload" },
            svg: { operation: "convert", input: "in", output_format: "svg" },
            png: { operation: "convert", input: "in", output_format: "png" },
            out: { operation: "export/url", input: ["svg", "png"] },
          },
        },
        { files: { in: new File([data], name) } },
      );
      const enc = async (b: Blob) => {
        const u = new Uint8Array(await b.arrayBuffer());
        let s = "";
        for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode(...u.subarray(i, i + 0x8000));
        return btoa(s);
      };
      type Task = { name: string; engine: string | null; code: string | null; result?: { warnings?: string[] } };
      return {
        status: job.status as string,
        tasks: job.tasks.map((t: Task) => ({
          name: t.name,
          engine: t.engine,
          code: t.code,
          warnings: t.result?.warnings,
        })),
        outputs: await Promise.all(
          outputs.map(async (o: { filename: string; blob: Blob }) => ({
            filename: o.filename,
            b64: await enc(o.blob),
          })),
        ),
      };
    },
    Buffer.from(bytes).toString("base64"),
    name,
  );
}

/** The build's chunk holding the dxf library (its parser's own message), by file name under chunks/. */
function dxfChunk(): string {
  const dir = join(DIST, "chunks");
  const hit = readdirSync(dir).filter(
    (f) => f.endsWith(".js") && readFileSync(join(dir, f), "utf8").includes("Helper constructor expects a DXF string"),
  );
  expect(hit).toHaveLength(1);
  return `chunks/${hit[0]}`;
}

describe("CAD in the browser build", () => {
  it("dxf → svg and → png in the page, the dxf chunk fetched on the first DXF task, nothing sent anywhere", async () => {
    const chunk = dxfChunk();
    expect(served).not.toContain(chunk); // lazy: not loaded with the page
    const dxf = new Uint8Array(readFileSync(corpusPath(TIKA)));
    const r = await inPage(dxf, "drawing.dxf");
    expect(r.status, JSON.stringify(r.tasks)).toBe("finished");
    const types = fact(TIKA).modelspace_entity_types as Record<string, number>;
    for (const name of ["svg", "png"]) {
      const t = r.tasks.find((x: { name: string }) => x.name === name)!;
      expect(t).toMatchObject({ engine: "dxf", code: null });
      expect(t.warnings?.join(" ")).toContain(`${types.TEXT} TEXT`);
    }
    expect(served).toContain(chunk);
    expect(served).toContain("resvg.wasm");

    // the Node engines' outputs of the same conversions: the oracle of the page's
    const node = (format: string) =>
      execute(
        "convert",
        { output_format: format },
        [bytesInput("drawing.dxf", dxf)],
        testContext({ engines: nodeEngines(["cloudflare", "dxf", "resvg", "imagemagick"]) }),
      ).then((x) => dataOf(x.out.files[0]!));
    const out = (ext: string) => Buffer.from(r.outputs.find((o) => o.filename.endsWith(`.${ext}`))!.b64, "base64");
    const svg = out("svg");
    expect(Buffer.compare(svg, Buffer.from(await node("svg")))).toBe(0);
    const py = `import sys, xml.etree.ElementTree as ET
print(sum(1 for e in ET.parse(sys.argv[1]).getroot().iter() if e.tag.endswith('}path')))`;
    const paths = spawnSync("python3", ["-c", py, tempFile("page.svg", svg)], { encoding: "utf8" });
    expect(Number(paths.stdout)).toBe(types.LINE! + types.POLYLINE!);
    const png = out("png");
    expect(identify(tempFile("page.png", png))).toMatchObject({ format: "PNG", width: 1240, height: 744 });
    const m = matches(rgb(png), rgb(Buffer.from(await node("png"))));
    expect(m.ok, m.why).toBe(true);

    // every request of the page: a GET of the build's own files, none with a body, none elsewhere
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((q) => q.method !== "GET" || q.bodyBytes > 0)).toEqual([]);
    expect(requests.filter((q) => !q.url.startsWith(`${base}/`))).toEqual([]);
    expect(errors).toEqual([]);
  });
});
