/**
 * Browser objects scale out (issue 48): the Chrome engine's renderings spread over BROWSER_SHARDS browser Durable
 * Objects (src/runtime/workerd/browser.ts), and a shard killed mid-run loses no rendering — each of its renderings in
 * flight is rendered again on another shard. Real parts: the BrowserDO namespace in workerd, the local Browser
 * Rendering binding on Debian's Chromium. The oracle for every answer is pdf-lib's parser (a PDF of one page), not the
 * engine's own page count; the kill is workerd's own `state.abort()` on the object while it holds renderings.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { PDFDocument } from "@cantoo/pdf-lib";
import { describe, expect, it } from "vitest";
import type { ChromePool } from "../../src/engines/chrome/pool";
import { browserObjectEngine, browserObjectName } from "../../src/runtime/workerd/browser";

const SHARDS = 3;
const RENDERINGS = 12;

describe("browser objects (issue 48)", () => {
  it(`${RENDERINGS} renderings over ${SHARDS} shards: one shard killed mid-run, every rendering still a PDF`, async () => {
    const ns = env.BROWSERS!;
    const engine = browserObjectEngine(ns, { shards: SHARDS, timeoutMs: 120_000 });
    const renders = Array.from({ length: RENDERINGS }, (_, i) =>
      engine.render({
        source: { html: `<h1>document ${i}</h1>`, name: `d${i}.html` },
        output: "pdf",
        options: { wait_time: 3000 },
        allowLoopback: false,
      }),
    );
    // the victim: the first shard seen holding renderings (the two-choice routing leaves none of 3 idle with 12 calls)
    const loadOf = (shard: number) =>
      runInDurableObject(ns.getByName(browserObjectName(shard)), (o: unknown) => {
        const load = (o as { pool: ChromePool | null }).pool?.load;
        return load ? load.running + load.queued : 0;
      });
    let victim = -1;
    let held = 0;
    for (let t = 0; t < 100 && victim < 0; t++) {
      await new Promise((r) => setTimeout(r, 100));
      for (let s = 0; s < SHARDS && victim < 0; s++) if ((held = await loadOf(s)) > 0) victim = s;
    }
    expect(victim, "no shard ever held a rendering").toBeGreaterThanOrEqual(0);
    const killed = await runInDurableObject(
      ns.getByName(browserObjectName(victim)),
      (_o: unknown, st: DurableObjectState) => st.abort("killed by the test"),
    ).then(
      () => false,
      () => true,
    );
    expect(killed, "state.abort() did not end the call").toBe(true);

    const answers = await Promise.all(renders);
    const pages: number[] = [];
    for (const a of answers) {
      expect(a.ok, JSON.stringify(a.ok ? {} : a.error)).toBe(true);
      if (!a.ok) continue;
      pages.push((await PDFDocument.load(a.data)).getPageCount());
    }
    expect(pages).toEqual(new Array(RENDERINGS).fill(1));
    console.log(`browser-shards: shard ${victim} killed holding ${held} renderings; ${RENDERINGS}/${RENDERINGS} PDFs`);
  });
});
