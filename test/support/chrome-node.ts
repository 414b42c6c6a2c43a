/**
 * The Chrome engine's rendering in Node (issue 45's egress sweep): Debian's Chromium launched by puppeteer-core, each
 * rendering in a browser context of its own with the engine's own guard (engines/chrome/guard.ts installGuard) and
 * rendering (render.ts renderOn) — what engine.ts does over the Browser Rendering binding, minus acquiring a browser
 * from the binding, which Node has not. A task's operation reaches it as the `chrome` engine of an OperationContext.
 */
import puppeteer, { type Browser } from "puppeteer-core";
import { documentOrigin, installGuard, type GuardState } from "../../src/engines/chrome/guard";
import { renderOn, versionOf } from "../../src/engines/chrome/render";
import type { WebEngine } from "../../src/engines/kinds/web";

/** Chromium in this process's reach, rendering as the Chrome engine does. */
export interface NodeChrome {
  /** A web engine for one task with `timeoutMs` (default 60 s) to render in. */
  engine(timeoutMs?: number): WebEngine;
  /** Closes the browser. */
  close(): Promise<void>;
}

/** Launches Debian's Chromium (/usr/bin/chromium, headless) for {@link NodeChrome} renderings. */
export async function launchNodeChrome(): Promise<NodeChrome> {
  const browser: Browser = await puppeteer.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
  const engineVersion = versionOf(await browser.version());
  return {
    engine: (timeoutMs = 60_000) => ({
      async render(req) {
        const deadline = Date.now() + timeoutMs;
        const context = await browser.createBrowserContext();
        try {
          const page = await context.newPage();
          const state: GuardState = {
            origin: documentOrigin(),
            allowLoopback: req.allowLoopback,
            local: new Map(),
            log: { refused: [] },
          };
          // puppeteer-core's Page and @cloudflare/puppeteer's (a fork of it) differ in types only for what these use
          await installGuard(page as never, state);
          const { answer } = await renderOn(req, {
            page: page as never,
            state,
            engineVersion,
            left: () => Math.max(1, deadline - Date.now()),
            atDocumentOrigin: false,
            mark: () => {},
            cancelled: () => false,
          });
          return answer;
        } finally {
          await context.close().catch(() => {});
        }
      },
    }),
    close: () => browser.close(),
  };
}
