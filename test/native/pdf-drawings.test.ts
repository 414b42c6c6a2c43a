/**
 * PDF → drawings (issue 32): pdf → odd (CloudConvert's name for an OpenDocument drawing) by LibreOffice Draw's PDF
 * import, and pdf → dxf by Inkscape's PDF import and R14 exporter, one DXF per page. Oracles outside our code: unzip of
 * the ODG package (its mimetype, one draw:page per page pdfinfo counts, the page's words pdftotext reads in its text),
 * the DXF's own group-code structure (sections, entity counts, every vertex within the page pdfinfo measures). Issue 49:
 * the PDF streamed (thresholds lowered) reaches Inkscape as a file in its call's folder, its DXFs streamed back.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/runner/execute";
import { corpusPath } from "../support/corpus";
import { nativeEngineForFile } from "../support/native-engine";
import { bytesInput, corpusInput, dataOf, expectTaskError, testContext } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";
import { isStreamed } from "../../native-protocol/frame";
import { heldBytes } from "../../src/operations/kit";

const native = nativeEngineForFile();

const PDF = "pdf/gotenberg-pages_12.pdf";
const dir = mkdtempSync(join(tmpdir(), "pdf-drawings-"));
const ctx = () => testContext({ engines: native.engines() });
const saved = (data: Uint8Array, name: string) => {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
};
const pdfinfo = (path: string, page = 1) =>
  execFileSync("pdfinfo", ["-f", String(page), "-l", String(page), path], { encoding: "utf8" });

/** A DXF's (group code, value) pairs. */
function dxfPairs(text: string): [number, string][] {
  const lines = text.split(/\r?\n/);
  const out: [number, string][] = [];
  for (let i = 0; i + 1 < lines.length; i += 2) out.push([Number(lines[i]!.trim()), lines[i + 1]!.trim()]);
  return out;
}

describe("pdf → odd (LibreOffice Draw)", () => {
  it(
    "an ODG package with one draw:page per PDF page and page 1's words in its text",
    async () => {
      const r = await execute("convert", { output_format: "odd" }, [corpusInput(PDF)], ctx());
      expect(r.engine.name).toBe("libreoffice");
      expect(r.out.files[0]!.filename).toBe("gotenberg-pages_12.odd");
      const path = saved(dataOf(r.out.files[0]!), "out.odd");
      expect(execFileSync("unzip", ["-p", path, "mimetype"], { encoding: "utf8" })).toBe(
        "application/vnd.oasis.opendocument.graphics",
      );
      const content = execFileSync("unzip", ["-p", path, "content.xml"], { encoding: "utf8", maxBuffer: 1 << 28 });
      const pages = Number(/^Pages:\s+(\d+)/m.exec(pdfinfo(corpusPath(PDF)))![1]);
      expect(content.match(/<draw:page /g)?.length).toBe(pages);
      const text = content.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
      const page1 = execFileSync("pdftotext", ["-f", "1", "-l", "1", corpusPath(PDF), "-"], { encoding: "utf8" });
      for (const w of page1.match(/\p{L}{3,}/gu) ?? []) expect(text).toContain(w);
    },
    scaled(300_000),
  );
});

describe("pdf → dxf (Inkscape)", () => {
  it(
    "pages=1-2 → two DXF R14 files, each of paths (text outlined) within its page, different pages",
    async () => {
      const r = await execute("convert", { output_format: "dxf", pages: "1-2" }, [corpusInput(PDF)], ctx());
      expect(r.engine.name).toBe("inkscape-pdf");
      expect(r.out.files.map((f) => f.filename)).toEqual(["gotenberg-pages_12-1.dxf", "gotenberg-pages_12-2.dxf"]);
      const geometry: string[] = [];
      for (const [i, f] of r.out.files.entries()) {
        const pairs = dxfPairs(new TextDecoder().decode(dataOf(f)));
        const entities = pairs.filter(([c, v]) => c === 0 && /^(LWPOLYLINE|SPLINE|LINE|POLYLINE)$/.test(v));
        expect(pairs.find(([c, v]) => c === 1 && /^AC10\d\d$/.test(v))?.[1]).toBe("AC1014");
        expect(pairs.filter(([c, v]) => c === 0 && v === "SECTION").length).toBeGreaterThanOrEqual(2);
        expect(pairs.at(-1)).toEqual([0, "EOF"]);
        expect(entities.length).toBeGreaterThanOrEqual(10);
        // page size in CSS pixels (Inkscape's user unit): points × 96/72
        const [w, h] = /Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/
          .exec(pdfinfo(corpusPath(PDF), i + 1))!
          .slice(1)
          .map(Number);
        const xs = pairs.filter(([c]) => c === 10).map(([, v]) => Number(v));
        const ys = pairs.filter(([c]) => c === 20).map(([, v]) => Number(v));
        expect(Math.min(...xs, ...ys)).toBeGreaterThanOrEqual(-1);
        expect(Math.max(...xs)).toBeLessThanOrEqual((w! * 96) / 72 + 1);
        expect(Math.max(...ys)).toBeLessThanOrEqual((h! * 96) / 72 + 1);
        geometry.push(
          pairs
            .filter(([c]) => c === 10 || c === 20)
            .map(([, v]) => v)
            .join(","),
        );
      }
      expect(geometry[0]).not.toBe(geometry[1]);
    },
    scaled(300_000),
  );

  it(
    "bytes that are no PDF → OPEN_FAILED",
    async () => {
      await expectTaskError(
        () =>
          execute(
            "convert",
            { output_format: "dxf" },
            [bytesInput("x.pdf", new TextEncoder().encode("no pdf"))],
            ctx(),
          ),
        "OPEN_FAILED",
      );
    },
    scaled(60_000),
  );
});

describe("pdf → dxf streamed (issue 49)", () => {
  it(
    "pages=2 of the PDF streamed: a DXF R14 of paths within page 2, the answer a stream",
    async () => {
      const OVER = 512;
      const streaming = testContext({
        engines: native.engines({ streamOver: OVER }),
        settings: { nativeStreamBytes: OVER } as never,
      });
      const r = await execute("convert", { output_format: "dxf", pages: "2" }, [corpusInput(PDF)], streaming);
      expect(r.engine.name).toBe("inkscape-pdf");
      expect(isStreamed(r.out.files[0]!.data)).toBe(true);
      const pairs = dxfPairs(new TextDecoder().decode(await heldBytes(r.out.files[0]!.data as never)));
      expect(pairs.find(([c, v]) => c === 1 && /^AC10\d\d$/.test(v))?.[1]).toBe("AC1014");
      expect(pairs.at(-1)).toEqual([0, "EOF"]);
      expect(pairs.filter(([c, v]) => c === 0 && /^(LWPOLYLINE|SPLINE|LINE|POLYLINE)$/.test(v)).length).toBeGreaterThan(
        10,
      );
      const [w, h] = /Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/
        .exec(pdfinfo(corpusPath(PDF), 2))!
        .slice(1)
        .map(Number);
      expect(Math.max(...pairs.filter(([c]) => c === 10).map(([, v]) => Number(v)))).toBeLessThanOrEqual(
        (w! * 96) / 72 + 1,
      );
      expect(Math.max(...pairs.filter(([c]) => c === 20).map(([, v]) => Number(v)))).toBeLessThanOrEqual(
        (h! * 96) / 72 + 1,
      );
    },
    scaled(300_000),
  );
});
