/**
 * The native engine's instances behind one router (issue 48, engines/native/client.ts spreadNative): K native engine
 * processes (K = 1, 2, 3) take a burst of office conversions, and one of three killed with SIGKILL mid-burst — the server
 * and its soffice processes, as a container dies — loses no conversion: each call it held is sent again to another.
 * Real parts: container/server.ts processes with their LibreOffice pools, the router the Worker uses. Oracle: the
 * corpus's facts (gotenberg's pages_3.docx renders to 3 pages, its text "Page 1 Page 2 Page 3"), read with pdfinfo and
 * pdftotext from each answer.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpNative, nativeSpread, spreadNative } from "../../src/engines/native/client";
import { nativeEngines } from "../../src/engines/native/engines";
import type { OfficeEngine } from "../../src/engines/kinds/office";
import { corpusPath, fact } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { scaled } from "../support/time-scale";

const DOC = "office/gotenberg-pages_3.docx";
const BURST = 24;
const tmp = mkdtempSync(join(tmpdir(), "native-spread-"));
const servers: NativeServer[] = [];

beforeAll(async () => {
  servers.push(...(await Promise.all([0, 1, 2].map(() => startNativeEngine()))));
  // each instance's LibreOffice pool warm before anything is timed
  for (const s of servers)
    expect((await (s.engines().libreoffice as OfficeEngine).convert({ input: input(), format: "pdf" })).ok).toBe(true);
}, scaled(180_000));
afterAll(async () => {
  for (const s of servers) await s.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** The office engine over `list`, as the Worker reaches several instances; `key` names the set's loads. */
function officeOver(list: NativeServer[]): { engine: OfficeEngine; key: string } {
  const key = `native-spread-test:${list.map((s) => s.url).join(",")}`;
  const engines = nativeEngines({
    fetch: spreadNative(
      key,
      list.map((s) => httpNative(s.url)),
    ),
    key,
  });
  return { engine: engines.libreoffice as OfficeEngine, key };
}

/** Pages and text of a PDF, by poppler. */
function pdfFacts(data: Uint8Array, i: number): { pages: number; text: string } {
  const file = join(tmp, `out-${i}-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, data);
  const pages = Number(/^Pages:\s+(\d+)/m.exec(execFileSync("pdfinfo", [file], { encoding: "utf8" }))?.[1]);
  const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
  return { pages, text };
}

const input = () => ({ data: new Uint8Array(readFileSync(corpusPath(DOC))), filename: "pages_3.docx" });

/** A burst of BURST conversions over `engine`; every answer held to the corpus's facts. */
async function burst(engine: OfficeEngine, during?: () => Promise<void>): Promise<number> {
  const facts = fact(DOC) as unknown as { expected_pdf_pages: number; text_excerpt: string };
  const t0 = performance.now();
  const calls = Array.from({ length: BURST }, () => engine.convert({ input: input(), format: "pdf" }));
  await during?.();
  const answers = await Promise.all(calls);
  const ms = performance.now() - t0;
  answers.forEach((a, i) => {
    expect(a.ok, JSON.stringify(a.ok ? {} : a.error)).toBe(true);
    if (!a.ok) return;
    // a buffered call (bytes in) answers bytes; a stream here would fail the check
    expect(a.data).toBeInstanceOf(Uint8Array);
    const got = pdfFacts(a.data as Uint8Array, i);
    expect(got.pages).toBe(facts.expected_pdf_pages);
    expect(got.text).toContain(facts.text_excerpt);
  });
  return ms;
}

describe("native instances behind one router (issue 48)", () => {
  it(`a burst of ${BURST} docx → pdf over K = 1, 2, 3 instances: every answer right, throughput per K`, async () => {
    const figures: string[] = [];
    for (const k of [1, 2, 3]) {
      const { engine } = officeOver(servers.slice(0, k));
      const ms = await burst(engine);
      figures.push(`K=${k}: ${(BURST / (ms / 1000)).toFixed(2)} conversions/s (${Math.round(ms)} ms)`);
    }
    console.log(`native-spread: ${figures.join("; ")}`);
  });

  it(`one of 3 instances killed with SIGKILL mid-burst: all ${BURST} conversions still right`, async () => {
    const { engine, key } = officeOver(servers);
    let victim = -1;
    let held = 0;
    const ms = await burst(engine, async () => {
      // the victim: the instance holding the most calls once the burst is under way
      for (let t = 0; t < 200 && held === 0; t++) {
        await new Promise((r) => setTimeout(r, 10));
        const spread = nativeSpread(key)!;
        for (let i = 0; i < 3; i++) if (spread.load(i) > held) [victim, held] = [i, spread.load(i)];
      }
      expect(held, "no instance held a call").toBeGreaterThan(0);
      await servers[victim]!.kill();
    });
    console.log(
      `native-spread: instance ${victim} killed holding ${held} calls; ${BURST}/${BURST} right in ${Math.round(ms)} ms`,
    );
  });
});
