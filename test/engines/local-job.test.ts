/**
 * The local job runner of the browser build (issue 19), run in Node with Node's engines: the same
 * validation (the API's 422 messages), graph rules, routing and task objects as the service.
 * Oracles: identify, qpdf/pdfinfo on the outputs.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LocalJobError, runLocalJob } from "../../src/browser/local-job";
import { nodeEngines } from "../../src/runtime/node/engines";
import { corpusPath, fact } from "../support/corpus";
import { identify, pdfinfo, tempFile } from "../support/native";

const engines = nodeEngines(["cloudflare", "imagemagick", "pdflib", "pdfium"]);
const PNG = "images/cloudconvert-input.png";

describe("runLocalJob", () => {
  it("runs upload → convert → export with the service's engines and task objects", async () => {
    const seen: string[] = [];
    const { job, outputs } = await runLocalJob(
      {
        tasks: {
          up: { operation: "import/upload" },
          small: { operation: "convert", input: "up", output_format: "jpg", width: 150 },
          out: { operation: "export/url", input: "small" },
        },
        tag: "t",
      },
      {
        engines,
        files: { up: { name: "input.png", data: readFileSync(corpusPath(PNG)) } },
        onProgress: (j) => seen.push(j.status),
      },
    );
    expect(job.status).toBe("finished");
    expect(job.tag).toBe("t");
    expect(job.tasks!.map((t) => [t.name, t.status, t.engine])).toEqual([
      ["up", "finished", "cloudflare"],
      ["small", "finished", "imagemagick"],
      ["out", "finished", "cloudflare"],
    ]);
    expect(job.tasks![1].depends_on_task_ids).toEqual([job.tasks![0].id]);
    expect(seen).toContain("processing");
    expect(outputs).toHaveLength(1);
    expect(outputs[0].filename).toBe("input.jpg");
    expect(identify(tempFile("local.jpg", new Uint8Array(await outputs[0].blob.arrayBuffer())))).toMatchObject({
      format: "JPEG",
      width: 150,
    });
  });

  it("splits a PDF with pdf-lib; a failed task fails its dependents with INPUT_TASK_FAILED", async () => {
    const pdf = "pdf/gotenberg-pages_12.pdf";
    const { job, outputs } = await runLocalJob(
      {
        tasks: {
          up: { operation: "import/upload" },
          split: { operation: "pdf/split-pages", input: "up" },
          out: { operation: "export/url", input: "split" },
          bad: { operation: "convert", input: "up", input_format: "png", output_format: "jpg" },
          after: { operation: "export/url", input: "bad" },
        },
      },
      { engines, files: { up: { name: "doc.pdf", data: readFileSync(corpusPath(pdf)) } } },
    );
    expect(job.status).toBe("error");
    expect(outputs.filter((o) => o.task === "out")).toHaveLength(fact(pdf).pages!);
    expect(Number(pdfinfo(tempFile("p1.pdf", new Uint8Array(await outputs[0].blob.arrayBuffer()))).Pages)).toBe(1);
    const byName = Object.fromEntries(job.tasks!.map((t) => [t.name, t]));
    expect(byName.bad.status).toBe("error");
    expect(byName.after).toMatchObject({ status: "error", code: "INPUT_TASK_FAILED" });
  });

  it("import/raw runs as on the server; an operation that needs the server ends ENGINE_UNAVAILABLE naming its engine", async () => {
    const { job, outputs } = await runLocalJob(
      {
        tasks: {
          raw: { operation: "import/raw", file: "hello", filename: "a.txt" },
          out: { operation: "export/url", input: "raw" },
          pdfa: { operation: "pdf/a", input: "raw", input_format: "pdf" },
        },
      },
      { engines },
    );
    expect(new TextDecoder().decode(await outputs[0].blob.arrayBuffer())).toBe("hello");
    const pdfa = job.tasks!.find((t) => t.name === "pdfa")!;
    expect(pdfa).toMatchObject({ status: "error", code: "ENGINE_UNAVAILABLE" });
    expect(pdfa.message).toMatch(/ghostscript/i);
  });

  it("an invalid job throws the API's 422 (nothing runs); a missing upload file is named", async () => {
    const e = await runLocalJob(
      { tasks: { c: { operation: "convert", input: "nope", output_format: "jpg" } } },
      { engines },
    ).catch((x) => x);
    expect(e).toBeInstanceOf(LocalJobError);
    expect(e.message).toBe("The given data was invalid.");
    expect(JSON.stringify(e.errors)).toMatch(/nope/);
    const m = await runLocalJob({ tasks: { up: { operation: "import/upload" } } }, { engines }).catch((x) => x);
    expect(m.errors).toEqual({ "tasks.up": ["No file was given for this import/upload task (options.files[name])."] });
  });
});
