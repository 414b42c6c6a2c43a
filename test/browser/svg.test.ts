/**
 * SVG with text in the browser build (issues 31 and 33): the page's own engines draw an Inkscape SVG
 * with text on paths and an SVG with Japanese and Arabic text with resvg (resvg.wasm, faces from the
 * build's fonts/), convert → png and thumbnail → jpg, served as plain static files (dist/browser/).
 * Oracle: Inkscape with the shipped faces (test/support/svg-oracle.ts), the raster oracle's tolerance.
 */
import { readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { matches, rgb } from "../support/raster-oracle";
import { inkscapePng } from "../support/svg-oracle";
import { identify, tempFile } from "../support/native";

const DIST = fileURLToPath(new URL("../../dist/browser/", import.meta.url));
const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
let files: Server;
let base: string;
let browser: Browser;
let page: Page;
const served: string[] = [];
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
  await page.goto(`${base}/`, { waitUntil: "load" });
});
afterAll(async () => {
  await browser?.close();
  files?.close();
});

/** Runs convert → png and thumbnail → jpg (300 px wide) of `svg` in the page; the tasks' engines and outputs. */
async function inPage(svg: Uint8Array, name: string) {
  return page.evaluate(
    async (b64: string, name: string) => {
      const { runJob } = await new Function('return import("/edge-convert.js")')(); // a string: vitest must not rewrite it
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const { job, outputs } = await runJob(
        {
          tasks: {
            in: { operation: "import/upload" },
            png: { operation: "convert", input: "in", output_format: "png" },
            thumb: { operation: "thumbnail", input: "in", output_format: "jpg", width: 300 },
            out: { operation: "export/url", input: ["png", "thumb"] },
          },
        },
        { files: { in: new File([bytes], name) } },
      );
      const enc = async (b: Blob) => {
        const u = new Uint8Array(await b.arrayBuffer());
        let s = "";
        for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode(...u.subarray(i, i + 0x8000));
        return btoa(s);
      };
      return {
        status: job.status as string,
        engines: job.tasks.map((t: { name: string; engine: string | null; code: string | null }) => [
          t.name,
          t.engine,
          t.code,
        ]),
        outputs: await Promise.all(
          outputs.map(async (o: { filename: string; blob: Blob }) => ({
            filename: o.filename,
            b64: await enc(o.blob),
          })),
        ),
      };
    },
    Buffer.from(svg).toString("base64"),
    name,
  );
}

const SCRIPTS = `<svg xmlns="http://www.w3.org/2000/svg" width="420" height="120">
  <text x="16" y="40" style="font-family:sans-serif;font-size:24px">日本語のテキスト、東京</text>
  <text x="16" y="90" style="font-family:'Noto Naskh Arabic';font-size:24px">مرحبا بالعالم</text>
</svg>`;

describe("SVG with text in the browser build", () => {
  it.each([
    [
      "vector/inkscape-text-on-path.svg",
      () => new Uint8Array(readFileSync(corpusPath("vector/inkscape-text-on-path.svg"))),
    ],
    ["Japanese and Arabic text", () => new TextEncoder().encode(SCRIPTS)],
  ])("%s: convert → png and thumbnail → jpg with resvg, as Inkscape draws it", async (_, bytes) => {
    const svg = bytes();
    const r = await inPage(svg, "drawing.svg");
    expect(r.status, JSON.stringify(r.engines)).toBe("finished");
    expect(r.engines.filter(([n]: string[]) => n === "png" || n === "thumb")).toEqual([
      ["png", "resvg", null],
      ["thumb", "resvg", null],
    ]);
    const png = Buffer.from(r.outputs.find((o) => o.filename.endsWith(".png"))!.b64, "base64");
    const m = matches(rgb(png), rgb(inkscapePng(svg)));
    expect(m.ok, m.why).toBe(true);
    const jpg = Buffer.from(r.outputs.find((o) => o.filename.endsWith(".jpg"))!.b64, "base64");
    expect(identify(tempFile("thumb.jpg", jpg))).toMatchObject({ format: "JPEG", width: 300 });
    expect(served).toContain("resvg.wasm");
    expect(errors).toEqual([]);
  });
});
