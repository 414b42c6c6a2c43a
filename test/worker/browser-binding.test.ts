/**
 * The api Worker's Browser Rendering binding (wrangler.toml [browser], issue 14) works offline inside workerd: miniflare's
 * local binding launches Debian's Chromium through the wrapper scripts/setup-browser.mjs seeds under .cache/xdg (the
 * vitest config points XDG_CACHE_HOME there), so nothing is downloaded. Worker code is the production code path:
 * @cloudflare/puppeteer's launch / sessions / connect against env.BROWSER.
 */
import puppeteer, { type Browser } from "@cloudflare/puppeteer";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import type { Env } from "../../src/env";

const BROWSER = () => {
  const b = (env as unknown as Env).BROWSER;
  if (!b) throw new Error('no BROWSER binding: wrangler.toml needs [browser] binding = "BROWSER"');
  return b;
};

/** The page's document, in functions `page.evaluate` runs in Chromium (this program has no DOM types). */
declare const document: { querySelector(selector: string): { textContent: string | null } | null };

// Browsers still open when a test fails midway: closed so no Chromium outlives the test.
const open: Browser[] = [];
afterEach(async () => {
  for (const b of open.splice(0)) await b.close().catch(() => {});
});

describe("BROWSER binding (local Browser Rendering on Debian's Chromium)", () => {
  it("launches Chromium, prints HTML to PDF and reports its version", async () => {
    const browser = await puppeteer.launch(BROWSER());
    open.push(browser);
    const version = await browser.version();
    expect(version).toContain("Chrome");
    const major = Number(/Chrome\/(\d+)/.exec(version)?.[1]);
    expect(major, version).toBeGreaterThanOrEqual(120);

    const page = await browser.newPage();
    await page.setContent("<h1>Hello</h1>");
    const pdf = await page.pdf();
    expect(pdf.byteLength).toBeGreaterThan(500);
    expect(new TextDecoder().decode(pdf.subarray(0, 4))).toBe("%PDF");
    await browser.close();
    open.pop();
  });

  it("keeps a session alive after disconnect, lists it and reconnects to it", async () => {
    const first = await puppeteer.launch(BROWSER(), { keep_alive: 60_000 });
    const sessionId = first.sessionId();
    expect(sessionId).toBeTruthy();
    first.disconnect();

    const sessions = await puppeteer.sessions(BROWSER());
    const listed = sessions.find((s) => s.sessionId === sessionId);
    expect(listed, JSON.stringify(sessions)).toBeDefined();

    const again = await puppeteer.connect(BROWSER(), sessionId);
    open.push(again);
    expect(again.sessionId()).toBe(sessionId);
    const page = await again.newPage();
    await page.setContent("<title>again</title><p>reconnected</p>");
    expect(await page.title()).toBe("again");
    expect(await page.evaluate(() => document.querySelector("p")?.textContent)).toBe("reconnected");
    await again.close();
    open.pop();
  });
});
