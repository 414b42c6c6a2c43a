/**
 * Over the Worker's page budget → the native engine's qpdf row (container/engines/qpdf.ts, issue 12):
 * a 2,400-page PDF that pdf-lib refuses OVER_BUDGET is rotated and cut by native qpdf, reached
 * through the real runner (`execute`) with the engine table's routing (WebAssembly engines first,
 * the native rows after them). Judged by poppler (pdfinfo, pdftotext) and corpus/facts.json.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineInstances } from "../../src/engines/registry";
import type { OperationContext } from "../../src/operations/types";
import { execute } from "../../src/runner/execute";
import { nodeEngines } from "../../src/runtime/node/engines";
import { corpusPath } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { fullContext, repeatedPdf, spied, type Call } from "../support/native-fixtures";
import { qpdfVersion, sh } from "../support/native-oracles";
import {
  bytesInput,
  expectTaskError,
  pageRotations,
  pageText,
  pdfinfo,
  testContext,
  tmpFile,
} from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";

let native: NativeServer;
/** The in-process WebAssembly engines, created once (their modules load on first use). */
let wasm: EngineInstances;
/** This file's own scratch folder (the 2,400-page PDF). */
let scratch: string;
let bigPdf: string;

/** A context with the WebAssembly engines and the native rows (the production order). */
const full = (): OperationContext => fullContext(wasm, native);

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "native-qpdf-"));
  wasm = nodeEngines();
  native = await startNativeEngine();
  // 200 × the 12-page corpus PDF = 2,400 pages (qpdf shares the repeated file's resources: ~0.6 MB)
  bigPdf = repeatedPdf("pdf/gotenberg-pages_12.pdf", 200, join(scratch, "big.pdf"));
}, scaled(120_000));

afterAll(async () => {
  await native?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// Over the Worker's page budget → native qpdf
// ---------------------------------------------------------------------------------------------

describe("a 2,400-page PDF: pdf-lib answers OVER_BUDGET, native qpdf does the work", () => {
  const bigInput = () => bytesInput("big.pdf", new Uint8Array(readFileSync(bigPdf)));

  it("the input really has 2,400 pages (pdfinfo)", () => {
    expect(pdfinfo(bigPdf).Pages).toBe("2400");
  });

  it("pdf/rotate-pages 90: pdf-lib refuses OVER_BUDGET, qpdf rotates every page", async () => {
    const calls: Call[] = [];
    const ctx = testContext({ engines: { ...wasm, pdflib: spied(wasm.pdflib!, calls), ...native.engines() } });
    const r = await execute("pdf/rotate-pages", { rotation: "90" }, [bigInput()], ctx);
    expect(calls).toContainEqual({ method: "rotate", code: "OVER_BUDGET" });
    expect(r.engine).toEqual({ name: "qpdf", version: qpdfVersion() });
    const path = tmpFile(r.out.files[0]!);
    expect(pdfinfo(path).Pages).toBe("2400");
    for (const page of [1, 2400]) {
      const line = sh("pdfinfo", ["-f", String(page), "-l", String(page), path]).stdout;
      expect(line).toMatch(new RegExp(`Page\\s+${page} rot:\\s+90\\b`));
    }
    expect(new Set(pageRotations(r.out.files[0]!))).toEqual(new Set([90]));
  });

  it('pdf/extract-pages "2399-" gives the last 2 pages (= pages 11 and 12 of the 12-page source)', async () => {
    const r = await execute("pdf/extract-pages", { pages: "2399-" }, [bigInput()], full());
    expect(r.engine.name).toBe("qpdf");
    const path = tmpFile(r.out.files[0]!);
    expect(pdfinfo(path).Pages).toBe("2");
    const src = corpusPath("pdf/gotenberg-pages_12.pdf");
    expect(pageText(path, 1)).toBe(pageText(src, 11));
    expect(pageText(path, 2)).toBe(pageText(src, 12));
    expect(pageText(path, 1)).not.toBe(pageText(path, 2));
  });

  it("without the native engines the same tasks end OVER_BUDGET", async () => {
    const ctx = testContext({ engines: { ...wasm } });
    const rot = await expectTaskError(
      () => execute("pdf/rotate-pages", { rotation: "90" }, [bigInput()], ctx),
      "OVER_BUDGET",
    );
    expect(rot.message).toContain("2400");
    await expectTaskError(() => execute("pdf/extract-pages", { pages: "2399-" }, [bigInput()], ctx), "OVER_BUDGET");
  });
});
