/**
 * The Chrome engine alone (issue 37), for `npm run bench -- web`: the browser pool of the service
 * (src/engines/chrome/pool.ts — its guard, slots, reset and turns, through @cloudflare/puppeteer as in the Worker)
 * driven from Node against a Chromium of its own, launched like the bare floor's, with no workerd, no local Browser
 * Rendering relay and no job path around it. Beside ours (the whole service) and the floor, it shows what the engine's
 * own page work costs and, by difference, what the local binding's emulation and the job path add. DIRECT_PROFILE=1 logs
 * the pool's phases per rendering (as WEB_PROFILE=1 does in the Worker).
 */
import WebSocket from "ws";
import puppeteer from "puppeteer-core";
import type { Browser, BrowserWorker } from "@cloudflare/puppeteer";
// the transport-level entry @cloudflare/puppeteer's own connect() uses once it has a WebSocket
import { connectToCDPBrowser } from "../node_modules/@cloudflare/puppeteer/lib/esm/puppeteer/cloudflare/utils.js";
import type { ChromePool as Pool } from "../src/engines/chrome/pool.ts";
import type { WebRenderRequest } from "../src/engines/kinds/web.ts";
import { bundleForNode } from "./bench-kit.ts";

/** One document through the pool: ms and whether it gave a 1-page PDF. */
export interface DirectResult {
  ms: number;
  ok: boolean;
  why?: string;
}

/** A pool on a Chromium launched here (Debian's, headless, as the floor's); `one` renders `html` to PDF. */
export async function directEngine(
  html: string,
): Promise<{ one: () => Promise<DirectResult>; close(): Promise<void> }> {
  const chrome = await puppeteer.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
  const open = async (): Promise<Browser> => {
    const ws = new WebSocket(chrome.wsEndpoint(), { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    const transport = {
      send: (m: string) => ws.send(m),
      close: () => ws.close(),
      onmessage: undefined as ((m: string) => void) | undefined,
      onclose: undefined as (() => void) | undefined,
    };
    ws.on("message", (d: Buffer) => transport.onmessage?.(d.toString()));
    ws.on("close", () => transport.onclose?.());
    return (await connectToCDPBrowser(transport, { sessionId: "bench-direct" })) as unknown as Browser;
  };
  const { ChromePool } = await bundleForNode<{ ChromePool: typeof Pool }>(
    "bench-web-pool",
    'export { ChromePool } from "./src/engines/chrome/pool.ts";',
  );
  const pool = new ChromePool({} as BrowserWorker, !!process.env.DIRECT_PROFILE, open);
  const req: WebRenderRequest = {
    source: { html, name: "page.html" },
    output: "pdf",
    options: {},
    allowLoopback: false,
  };
  return {
    async one() {
      const t0 = performance.now();
      const answer = await pool.render(req, { timeoutMs: 60_000 });
      const ms = performance.now() - t0;
      if (!answer.ok) return { ms, ok: false, why: `engine alone: ${answer.error.code} ${answer.error.message}` };
      return answer.pages === 1 ? { ms, ok: true } : { ms, ok: false, why: `engine alone: ${answer.pages} pages` };
    },
    close: () => chrome.close(),
  };
}
