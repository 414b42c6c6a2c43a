/**
 * Issue 19, "Done when": the engine contract suites (test/contract/engines.cases.ts, the same cases
 * Node and workerd run) with the browser's engines in Debian's headless Chromium — the third host.
 * The cases are bundled with esbuild (vitest's describe/it/expect replaced by a small shim over
 * chai) and run in a Web Worker of a page of the dev server, whose /browser/ folder serves the
 * engines' assets.
 */
import { NODE_BUILTINS, WORKER_ONLY } from "../../scripts/browser-externals.mjs";
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import puppeteer, { type Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedServer, type SharedServer } from "../support/servers";
import { scaled } from "../support/time-scale";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
let server: SharedServer;
let browser: Browser;
let results: { title: string; ok: boolean; error?: string }[] = [];

beforeAll(async () => {
  server = sharedServer("guarded");
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
  const bundle = await build({
    entryPoints: [here("./harness/contract-entry.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    alias: { vitest: here("./harness/vitest-shim.ts") },
    // the same as scripts/build-browser.mjs leaves out
    external: [...WORKER_ONLY, ...NODE_BUILTINS],
  });
  const page = await browser.newPage();
  await page.goto(`${server.base}/browser/`, { waitUntil: "load" });
  // in a Web Worker, as the product's engines run (harness/contract-entry.ts)
  results = await page.evaluate(
    (code, base) =>
      new Promise<typeof results>((resolve) => {
        const w = new Worker(URL.createObjectURL(new Blob([code], { type: "text/javascript" })), { type: "module" });
        w.onmessage = (e) => resolve(e.data);
        w.onerror = (e) => resolve([{ title: "harness", ok: false, error: e.message }]);
        w.postMessage({ base });
      }),
    bundle.outputFiles[0].text,
    `${server.base}/browser/`,
  );
}, scaled(240_000));
afterAll(async () => {
  await browser?.close();
});

describe("engine contract (browser)", () => {
  it("every case of every engine kind passes with the in-page engines", () => {
    console.log(`${results.filter((r) => r.ok).length}/${results.length} contract cases pass in Chromium`);
    expect(results.length).toBeGreaterThan(10);
    for (const kind of [
      "PDF engine contract (browser): pdflib",
      "PDF engine contract (browser): pdfium",
      "image engine contract (browser): imagemagick",
      "media engine contract (browser): ffmpeg",
      "metadata engine contract (browser): exiftool",
      "office engine contract (browser): sheetjs",
      "office engine contract (browser): pandoc-wasm",
      "CAD engine contract (browser): dxf",
    ]) {
      expect(
        results.some((r) => r.title.startsWith(kind)),
        kind,
      ).toBe(true);
    }
    expect(results.filter((r) => !r.ok)).toEqual([]);
  });
});
