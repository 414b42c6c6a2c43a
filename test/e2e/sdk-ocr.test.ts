/**
 * Issue 17 end to end through the official SDK under `wrangler dev` (the tesseract engine Worker
 * behind its service binding, PDFium and pdf-lib in the api Worker): a scanned PDF uploaded, made
 * searchable by pdf/ocr with language ["eng"], exported; pdftotext finds the words native
 * tesseract finds on the page (corpus facts), and the task reports its engine and pages.
 */
import { execFileSync } from "node:child_process";
import { createReadStream } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corpusPath, fact } from "../support/corpus";
import { tempFile } from "../support/native";
import { sdk } from "../support/sdk";
import { startDevServer, type DevServer } from "../support/server";

let server: DevServer;
beforeAll(async () => {
  server = await startDevServer({ API_KEYS: "key-a:alice" });
});
afterAll(async () => server?.stop());

describe("pdf/ocr through the SDK", () => {
  it("upload a scanned PDF → pdf/ocr (eng) → export: pdftotext finds its words", async () => {
    const src = "scans/ocrmypdf-c02-22.pdf";
    const cc = sdk("key-a", server.base);
    let job = await cc.jobs.create({
      tasks: {
        in: { operation: "import/upload" },
        ocr: { operation: "pdf/ocr", input: "in", language: ["eng"] },
        out: { operation: "export/url", input: "ocr" },
      },
    });
    await cc.tasks.upload(job.tasks.find((t) => t.name === "in")!, createReadStream(corpusPath(src)), "scan.pdf");
    job = await cc.jobs.wait(job.id);
    expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.status, t.message]))).toBe("finished");
    const task = job.tasks.find((t) => t.name === "ocr")!;
    expect(task).toMatchObject({ engine: "tesseract", percent: 100 });
    expect((task.result as any).ocr.pages).toEqual([1]);
    const [file] = cc.jobs.getExportUrls(job);
    const path = tempFile(file!.filename!, new Uint8Array(await (await fetch(file!.url!)).arrayBuffer()));
    const text = execFileSync("pdftotext", [path, "-"], { encoding: "utf8" });
    const keywords = fact(src).ocr_keywords as string[];
    expect(keywords.length).toBeGreaterThan(2);
    for (const word of keywords) expect(text, word).toContain(word);
  });

  it("an unknown language is a 422 naming the available ones; the catalogue lists pdf/ocr's engines", async () => {
    const res = await fetch(`${server.base}/v2/jobs`, {
      method: "POST",
      headers: { Authorization: "Bearer key-a", "content-type": "application/json" },
      body: JSON.stringify({ tasks: { in: { operation: "import/upload" }, ocr: { operation: "pdf/ocr", input: "in", language: ["xxx"] } } }),
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toMatch(/xxx is not available; available: .*eng/);
    const ops = (await (await fetch(`${server.base}/v2/operations?filter[operation]=pdf/ocr`)).json()) as { data: { engine: string }[] };
    expect(ops.data.map((o) => o.engine)).toContain("tesseract");
  });
});
