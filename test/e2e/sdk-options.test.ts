/**
 * Issue 31, end to end through the official SDK: the options CloudConvert accepts are accepted —
 * honoured where an engine can (docx → pdf `pages` and `pdf_a`, pdf → pdf), otherwise ignored and
 * named in result.warnings — and a standalone task's payload is CloudConvert's. Oracles: pdfinfo
 * (pages), exiftool (XMP pdfaid of PDF/A), ffprobe (audio codec), qpdf --check.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { fact } from "../support/corpus";
import { runCorpusJob } from "../support/jobs";
import { pdfinfo, run } from "../support/native";
import { sdk } from "../support/sdk";
import { sharedServer, type SharedServer } from "../support/servers";

let server: SharedServer;
beforeAll(async () => {
  server = sharedServer("guarded");
});

const runJob = (rel: string, tasks: Record<string, any>) => runCorpusJob(server.base, rel, tasks);
const pdfaid = (path: string) =>
  run("exiftool", ["-s3", "-XMP-pdfaid:Part", "-XMP-pdfaid:Conformance", path]).out.trim();
const ffprobe = (path: string) =>
  JSON.parse(
    run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,bit_rate:format=bit_rate", "-of", "json", path])
      .out,
  ) as { streams: { codec_name: string; bit_rate?: string }[] };
const warningsOf = (t: { result?: any }) => (t.result?.warnings ?? []) as string[];

describe("options CloudConvert accepts", () => {
  it("docx → pdf with the API docs' and the Job Builder's options: pages, pdf_a, include_markup, bookmarks honoured (issue 32), the rest warned", async () => {
    const { job, files, task } = await runJob("office/gotenberg-pages_3.docx", {
      c: {
        operation: "convert",
        input: "in",
        output_format: "pdf",
        engine: "office",
        pages: "1-2",
        optimize_print: true,
        pdf_a: true,
        include_markup: false,
        bookmarks: true,
        some_other_option: "value",
      },
    });
    expect(job.status).toBe("finished");
    const out = files.c[0].path;
    expect(Number(pdfinfo(out).Pages)).toBe(2);
    expect(pdfaid(out)).toBe("2\nB");
    expect(task("c").engine).toBe("libreoffice");
    expect(warningsOf(task("c"))).toEqual(
      ["optimize_print", "some_other_option"].map(
        (k) => `${k} is not supported by convert from docx to pdf; it was ignored.`,
      ),
    );
  });

  it("audio_codec copy with the Job Builder's audio_bitrate 128, and audio_bitrate on a wav output", async () => {
    const src = "audio/tika-testMP3id3v2.mp3";
    const { job, files, task } = await runJob(src, {
      copy: { operation: "convert", input: "in", output_format: "mp3", audio_codec: "copy", audio_bitrate: 128 },
      wav: { operation: "convert", input: "in", output_format: "wav", audio_bitrate: 128 },
    });
    expect(job.status).toBe("finished");
    expect(ffprobe(files.copy[0].path).streams[0].codec_name).toBe("mp3");
    expect(warningsOf(task("copy"))).toEqual([
      "audio_bitrate does not apply with audio_codec copy (the audio is kept as it is); it was ignored.",
    ]);
    expect(ffprobe(files.wav[0].path).streams[0].codec_name).toMatch(/^pcm_/);
    expect(warningsOf(task("wav"))).toEqual([
      "audio_bitrate is not supported by convert from mp3 to wav; it was ignored.",
    ]);
  });

  it("pdf/ocr with auto_orient finishes with the option named in result.warnings", async () => {
    const { job, files, task } = await runJob("scans/ocrmypdf-c02-22.pdf", {
      ocr: { operation: "pdf/ocr", input: "in", language: ["eng"], auto_orient: true },
    });
    expect(job.status).toBe("finished");
    expect(run("pdftotext", [files.ocr[0].path, "-"]).out.trim().length).toBeGreaterThan(0);
    expect(warningsOf(task("ocr"))).toEqual(["auto_orient is not supported by pdf/ocr from pdf; it was ignored."]);
  });

  it("optimize with flatten_signatures draws a signed PDF's signature into its page: no signature field left (qpdf --json)", async () => {
    const sig = (path: string) => (run("qpdf", ["--json", path]).out.match(/"\/Sig"/g) ?? []).length;
    const { job, files, task } = await runJob("pdf/pdflib-with_signature.pdf", {
      opt: { operation: "optimize", input: "in", flatten_signatures: true, profile: "web" },
    });
    expect(job.status).toBe("finished");
    expect(sig(files.opt[0].path)).toBe(0);
    expect(run("qpdf", ["--check", files.opt[0].path]).code).toBe(0);
    expect(warningsOf(task("opt"))).toEqual([]);
  });

  it("a known option with an invalid value is still a 422 naming the task and the field", async () => {
    const res = await fetch(`${server.base}/v2/jobs`, {
      method: "POST",
      headers: { Authorization: "Bearer key-a", "content-type": "application/json" },
      body: JSON.stringify({
        tasks: {
          in: { operation: "import/upload", filename: "a.docx" },
          c: { operation: "convert", input: "in", output_format: "pdf", pages: "2-1", some_other_option: 1 },
        },
      }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { code: string; errors: Record<string, string[]> };
    expect(body.code).toBe("INVALID_DATA");
    expect(body.errors["tasks.c"]).toEqual([expect.stringMatching(/^Task c: pages: /)]);
  });

  it("the catalogue describes the options honoured, not the ignored ones", async () => {
    const url = `${server.base}/v2/operations?include=options&filter[operation]=convert&filter[input_format]=docx&filter[output_format]=pdf`;
    const ops = (await (await fetch(url)).json()) as { data: { options: { name: string }[] }[] };
    const names = ops.data[0].options.map((o) => o.name);
    expect(names).toEqual(expect.arrayContaining(["pages", "pdf_a", "password"]));
    expect(names).not.toContain("optimize_print");
  });
});

describe("convert pdf → pdf (the PHP SDK's README job)", () => {
  it("re-saves every page; pages and pdf_a give the pages asked for as PDF/A-2b", async () => {
    const src = "pdf/cloudconvert-input.pdf";
    const { job, files, task } = await runJob(src, {
      same: { operation: "convert", input: "in", output_format: "pdf" },
      part: { operation: "convert", input: "in", output_format: "pdf", pages: "1-2", pdf_a: true },
    });
    expect(job.status).toBe("finished");
    expect(run("qpdf", ["--check", files.same[0].path]).code).toBe(0);
    expect(Number(pdfinfo(files.same[0].path).Pages)).toBe(fact(src).pages);
    expect(files.same[0].filename).toBe("cloudconvert-input.pdf");
    expect(task("same").engine).toBe("pdflib");
    expect(Number(pdfinfo(files.part[0].path).Pages)).toBe(2);
    expect(pdfaid(files.part[0].path)).toBe("2\nB");
    expect(task("part").engine).toBe("ghostscript");
  });
});

describe("payload", () => {
  it("a standalone task's payload is what was posted, without operation; a job's task keeps it", async () => {
    const cc = sdk("key-a", server.base);
    const body = { url: "https://example.invalid/file.pdf", filename: "file.pdf" };
    const created = await cc.tasks.create("import/url", body);
    const shown = await cc.tasks.get(created.id, { include: ["payload"] });
    expect(shown.payload).toEqual(body);
    const job = await cc.jobs.create({ tasks: { imp: { operation: "import/url", ...body } } });
    const inJob = await cc.tasks.get(job.tasks[0].id, { include: ["payload"] });
    expect(inJob.payload).toEqual({ operation: "import/url", ...body });
  });
});
