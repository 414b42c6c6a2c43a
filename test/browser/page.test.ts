/**
 * Issue 19: the page of the browser build converts a chosen file entirely in the browser — served
 * here as plain static files (dist/browser/ behind a minimal Node file server, no Worker, no API),
 * which also shows the build needs no server of ours. Oracle: identify on the downloaded result.
 */
import { readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer, { type Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corpusPath, fact } from "../support/corpus";

const PNG = "images/cloudconvert-input.png";
import { identify, tempFile } from "../support/native";

const DIST = fileURLToPath(new URL("../../dist/browser/", import.meta.url));
const TYPES: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".wasm": "application/wasm",
  ".json": "application/json",
};
let files: Server;
let base: string;
let browser: Browser;
const served: string[] = [];

beforeAll(async () => {
  files = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url!, "http://x").pathname)).replace(/^\/+/, "");
    const file = join(DIST, path.endsWith("/") || path === "" ? `${path}index.html` : path);
    if (!file.startsWith(DIST) || !statSync(file, { throwIfNoEntry: false })?.isFile())
      return void res.writeHead(404).end();
    served.push(`${req.method} ${file.slice(DIST.length)}`);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
  });
  await new Promise<void>((r) => files.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
});
afterAll(async () => {
  await browser?.close();
  files?.close();
});

describe("the /browser/ page as static files", () => {
  it("converts a chosen PNG to WEBP in the page and offers the result for download", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${base}/`, { waitUntil: "load" });
    const input = await page.$("#file");
    await (input as unknown as { uploadFile(p: string): Promise<void> }).uploadFile(corpusPath(PNG));
    await page.select("#to", "webp");
    await page.click("#go");
    await page.waitForFunction(() => document.getElementById("status")!.dataset.status === "finished", {
      timeout: 60_000,
    });
    expect(await page.$eval("#status", (el) => el.textContent)).toMatch(/^finished in \d+ ms by imagemagick /);
    const out = await page.evaluate(async () => {
      const a = document.querySelector("a.download") as HTMLAnchorElement;
      const u = new Uint8Array(await (await fetch(a.href)).arrayBuffer());
      let s = "";
      for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode(...u.subarray(i, i + 0x8000));
      return { name: a.getAttribute("download"), b64: btoa(s) };
    });
    expect(out.name).toBe("cloudconvert-input.webp");
    expect(identify(tempFile("page.webp", Buffer.from(out.b64, "base64")))).toEqual({
      format: "WEBP",
      width: fact(PNG).width,
      height: fact(PNG).height,
    });
    expect(served.every((s) => s.startsWith("GET "))).toBe(true);
    expect(served).toEqual(
      expect.arrayContaining(["GET index.html", "GET edge-convert.js", "GET worker.js", "GET magick.wasm"]),
    );
    expect(errors).toEqual([]);
  });
});
