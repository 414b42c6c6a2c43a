/**
 * The script vectors of test/support/script-vectors.ts run in Chromium (issue 37): each one, written into a page the
 * way the browser pool writes a task's HTML (`setContent`), calls the page's `RAN` binding with nobody clicking. The
 * unit test of guard.ts mayRunScript requires a yes for each; this test keeps the table honest — a vector that does
 * not run in Debian's Chromium fails here and is not a vector. Oracle: Chromium itself (puppeteer-core, a binding).
 * The fetch vectors of the same file each request a loopback counting server while the page loads or prints, and
 * guard.ts mayFetch flags each. The bench's invoice (a static document) calls nothing and gets a no from both.
 */
import puppeteer, { type Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mayFetch, mayRunScript } from "../../src/engines/chrome/guard";
import { startCountingServer } from "../support/hostile-probes";
import { SCRIPT_VECTORS_RUN, fetchVectors } from "../support/script-vectors";
import { INVOICE_HTML } from "../../scripts/bench-web";

let browser: Browser;
beforeAll(async () => {
  browser = await puppeteer.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
});
afterAll(() => browser?.close());

/** Whether `html`, written into a fresh page, calls RAN within `ms`. */
async function runs(html: string, ms = 1500): Promise<boolean> {
  const page = await browser.newPage();
  try {
    let ran = false;
    await page.exposeFunction("RAN", () => {
      ran = true;
    });
    await page.setContent(html, { waitUntil: "load", timeout: 10_000 }).catch(() => {});
    for (let t = 0; t < ms && !ran; t += 50) await new Promise((r) => setTimeout(r, 50));
    return ran;
  } finally {
    await page.close().catch(() => {});
  }
}

describe("script vectors, checked in Chromium", () => {
  it.each(SCRIPT_VECTORS_RUN.map((v) => [v.name, v.html]))(
    "%s runs a script, and mayRunScript says so",
    async (_n, html) => {
      expect(await runs(html)).toBe(true);
      expect(mayRunScript(html)).toBe(true);
    },
  );

  it("the bench's invoice runs nothing and names no URL: mayRunScript and mayFetch say no", async () => {
    expect(await runs(INVOICE_HTML, 300)).toBe(false);
    expect(mayRunScript(INVOICE_HTML)).toBe(false);
    expect(mayFetch(INVOICE_HTML)).toBe(false);
  });
});

describe("fetch vectors, checked in Chromium", () => {
  it("each vector requests the counting server while the page loads or prints, and mayFetch says so", async () => {
    const server = await startCountingServer();
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const silent: string[] = [];
      for (const v of fetchVectors(base)) {
        const before = server.hits.length;
        const page = await browser.newPage();
        try {
          await page.setContent(v.html, { waitUntil: "load", timeout: 10_000 }).catch(() => {});
          await page.pdf({ printBackground: true, timeout: 10_000 }).catch(() => {});
          for (let t = 0; t < 1000 && server.hits.length === before; t += 50)
            await new Promise((r) => setTimeout(r, 50));
        } finally {
          await page.close().catch(() => {});
        }
        if (server.hits.length === before) silent.push(v.name);
        expect(mayFetch(v.html), v.name).toBe(true);
      }
      expect(silent).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
