/**
 * Issue 18, the console page: in headless Chromium (Debian's, driven by puppeteer-core), a user
 * pastes a key, uploads a file through the page, sees the job finish live without a reload, and
 * downloads the result (a real browser download; oracle: identify); the same job run in the browser
 * with the page's switch (issue 19) posts nothing.
 */
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { identify } from "../support/native";
import { sharedServer, type SharedServer } from "../support/servers";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
let server: SharedServer;
let browser: Browser;

beforeAll(async () => {
  server = sharedServer("guarded");
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
});
afterAll(async () => {
  await browser?.close();
});

describe("the console page", () => {
  it("/openapi.json is served by the Worker and / answers JSON to API clients", async () => {
    const doc = await (await fetch(`${server.base}/openapi.json`)).json();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toContain("/v2/convert");
    expect(await (await fetch(`${server.base}/`, { headers: { accept: "application/json" } })).json()).toMatchObject({
      openapi: `${server.base}/openapi.json`,
    });
  });

  it("uploads a file, shows the job finishing live without a reload, and downloads the result", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    let navigations = 0;
    page.on("framenavigated", (f) => {
      if (f === page.mainFrame()) navigations++;
    });
    await page.goto(`${server.base}/`, { waitUntil: "load" });
    expect(await page.title()).toBe("edge-convert console");

    await page.type("#key", "key-a");
    await page.$eval("#key", (el) => el.dispatchEvent(new Event("change")));
    await page.waitForFunction(() => document.getElementById("me")!.textContent!.includes("alice"), {
      timeout: 15_000,
    });
    // the examples come from GET /v2/operations
    await page.waitForFunction(() => (document.getElementById("example") as HTMLSelectElement).options.length > 10, {
      timeout: 15_000,
    });
    const job = {
      tasks: {
        upload: { operation: "import/upload" },
        small: { operation: "convert", input: "upload", output_format: "jpg", width: 120 },
        export: { operation: "export/url", input: "small" },
      },
    };
    await page.$eval("#job", (el, text) => ((el as HTMLTextAreaElement).value = text), JSON.stringify(job));
    const input = await page.$("#files");
    await (input as unknown as { uploadFile(p: string): Promise<void> }).uploadFile(
      corpusPath("images/cloudconvert-input.png"),
    );

    // statuses seen by the page as they change, recorded in the page itself
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => seen.push(document.getElementById("jobstatus")!.dataset.status ?? "")).observe(
        document.getElementById("jobstatus")!,
        { attributes: true, childList: true, subtree: true },
      );
    });
    await page.click("#run");
    await page.waitForFunction(() => document.getElementById("jobstatus")!.dataset.status === "finished", {
      timeout: 60_000,
    });
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen[0]).not.toBe("finished"); // the page showed the job before it ended, then the end arrived live
    expect(seen).toContain("finished");
    expect(navigations).toBe(1);
    const statuses = await page.$$eval("#tasks tr", (trs) =>
      trs.map((tr) => [tr.children[0].textContent, tr.children[2].textContent]),
    );
    expect(statuses).toEqual([
      ["upload", "finished"],
      ["small", "finished"],
      ["export", "finished"],
    ]);

    const dir = mkdtempSync(join(tmpdir(), "console-dl-"));
    const cdp = await page.createCDPSession();
    await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: dir });
    await page.click("a.download");
    const deadline = Date.now() + 15_000;
    while (!readdirSync(dir).some((f) => f.endsWith(".jpg")) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const file = readdirSync(dir).find((f) => f.endsWith(".jpg"));
    expect(file).toBe("cloudconvert-input.jpg");
    expect(identify(join(dir, file!))).toMatchObject({ format: "JPEG", width: 120 });

    // the same job in this browser (issue 19): nothing is posted, the result is a blob: download
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() !== "GET") posts.push(r.url());
    });
    await page.click("#local");
    await page.evaluate(() => {
      (window as unknown as { seen: string[] }).seen.length = 0;
    });
    await page.click("#run");
    await page.waitForFunction(
      () =>
        (window as unknown as { seen: string[] }).seen.includes("finished") &&
        document.querySelector("a.download")?.getAttribute("href")?.startsWith("blob:"),
      { timeout: 60_000 },
    );
    expect(posts).toEqual([]);
    const local = await page.evaluate(async () => {
      const a = document.querySelector("a.download") as HTMLAnchorElement;
      const bytes = new Uint8Array(await (await fetch(a.href)).arrayBuffer());
      return { name: a.getAttribute("download"), head: Array.from(bytes.subarray(0, 3)) };
    });
    expect(local).toEqual({ name: "cloudconvert-input.jpg", head: [0xff, 0xd8, 0xff] });

    // signed-URL bases are shown where a CloudConvert user finds them: on the console
    await page.click("#newbase");
    await page.waitForFunction(() => document.querySelectorAll("#bases tr").length === 1, { timeout: 10_000 });
    const [url, secret] = await page.$$eval("#bases tr td", (tds) => tds.map((td) => td.textContent));
    expect(url).toMatch(new RegExp(`^${server.base}/s/[0-9a-f-]{36}$`));
    expect(secret).toMatch(/^[0-9a-f]{48}$/);
    expect(errors).toEqual([]);
  });
});
