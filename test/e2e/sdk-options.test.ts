/**
 * Issue 31, end to end through the official SDK: the options CloudConvert accepts are accepted —
 * honoured where an engine can (docx → pdf `pages` and `pdf_a`, pdf → pdf), otherwise ignored and
 * named in result.warnings — and a standalone task's payload is CloudConvert's. Oracles: pdfinfo
 * (pages), exiftool (XMP pdfaid of PDF/A), ffprobe (audio codec), qpdf --check, tesseract --psm 0 (a page's
 * orientation as displayed), pdftotext.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { corpusPath, fact } from "../support/corpus";
import { runCorpusJob, runFileJob, type TaskDefs } from "../support/jobs";
import { identify, pdfinfo, run } from "../support/native";
import { sdk, withPayload } from "../support/sdk";
import { sleep } from "../support/wait";
import { sharedServer, type SharedServer } from "../support/servers";

let server: SharedServer;
beforeAll(async () => {
  server = sharedServer("guarded");
});

const runJob = (rel: string, tasks: TaskDefs) => runCorpusJob(server.base, rel, tasks);
const pdfaid = (path: string) =>
  run("exiftool", ["-s3", "-XMP-pdfaid:Part", "-XMP-pdfaid:Conformance", path]).out.trim();
const ffprobe = (path: string) =>
  JSON.parse(
    run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,bit_rate:format=bit_rate", "-of", "json", path])
      .out,
  ) as { streams: { codec_name: string; bit_rate?: string }[] };
const warningsOf = (t: { result?: object }) => (t.result as { warnings?: string[] } | undefined)?.warnings ?? [];
const SCAN = "scans/ocrmypdf-c02-22.pdf";
/** tesseract's orientation and script detection (--psm 0) on the first page rendered at 300 ppi: the clockwise turn it says the page needs. */
function osdRotate(pdf: string): number {
  const png = join(mkdtempSync(join(tmpdir(), "osd-")), "p");
  run("pdftoppm", ["-r", "300", "-f", "1", "-l", "1", "-singlefile", "-png", pdf, png]);
  const m = /^Rotate: (\d+)/m.exec(run("tesseract", [`${png}.png`, "-", "--psm", "0"]).out);
  if (!m) throw new Error(`no orientation from tesseract for ${pdf}`);
  return Number(m[1]);
}

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

  it("pdf/ocr auto_orient turns a scan rotated by 90° upright (tesseract's own OSD) and it is searchable; without it the page stays turned", async () => {
    // a scan whose content is turned 90° clockwise, /Rotate 0: qpdf turns the corpus page, Ghostscript bakes it in
    const dir = mkdtempSync(join(tmpdir(), "auto-orient-"));
    const turned = join(dir, "turned.pdf");
    expect(run("qpdf", ["--rotate=+90", corpusPath(SCAN), join(dir, "r.pdf")]).code).toBe(0);
    run("gs", ["-q", "-sDEVICE=pdfwrite", "-dAutoRotatePages=/None", "-o", turned, join(dir, "r.pdf")]);
    expect(pdfinfo(turned)["Page rot"]).toBe("0");
    expect(osdRotate(turned)).toBe(270); // tesseract: the page as shown needs a 270° clockwise turn
    const { job, files, task } = await runFileJob(server.base, turned, {
      ocr: { operation: "pdf/ocr", input: "in", language: ["eng"], auto_orient: true },
      plain: { operation: "pdf/ocr", input: "in", language: ["eng"] },
    });
    expect(job.status).toBe("finished");
    const [out, plain] = [files.ocr[0].path, files.plain[0].path];
    expect(pdfinfo(out)).toMatchObject({ Pages: "1", "Page rot": "270" });
    expect(osdRotate(out)).toBe(0); // upright as displayed
    expect(pdfinfo(plain)["Page rot"]).toBe("0");
    expect(osdRotate(plain)).toBe(270);
    const text = run("pdftotext", [out, "-"]).out;
    for (const word of fact(SCAN).ocr_keywords as string[]) expect(text).toContain(word);
    expect(task("ocr").result?.ocr).toMatchObject({ rotated_pages: { 1: 90 }, oriented_pages: { 1: 270 } });
    expect(task("plain").result?.ocr).not.toHaveProperty("oriented_pages");
    expect(warningsOf(task("ocr"))).toEqual([]);
    // the oracles above block the event loop for many seconds (spawnSync), past the server's idle timeout for the
    // download's kept-alive connection: let undici see it closed before the next test reuses it ("other side closed")
    await sleep(200);
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

  it("pdf/encrypt as the n8n node sends it by default (no password, allow_extract false): encrypted, opens, no extraction", async () => {
    const { job, files, task } = await runJob("pdf/cloudconvert-input.pdf", {
      enc: { operation: "pdf/encrypt", input: "in", allow_extract: false, allow_accessibility: true },
    });
    expect(job.status).toBe("finished");
    const out = files.enc[0].path;
    expect(run("qpdf", ["--is-encrypted", out]).code).toBe(0);
    expect(run("qpdf", ["--requires-password", out]).code).toBe(3); // encrypted; the empty password opens it
    expect(Number(pdfinfo(out).Pages)).toBe(fact("pdf/cloudconvert-input.pdf").pages);
    const enc = run("qpdf", ["--show-encryption", out]).out;
    expect(enc).toContain("Supplied password is user password");
    expect(enc).toMatch(/extract for any purpose: not allowed/);
    expect(enc).toMatch(/extract for accessibility: allowed/);
    expect(warningsOf(task("enc"))).toEqual([]);
  });

  it("html → pdf with header_template/footer_template as HTML (the .NET and node SDKs' string): on every page", async () => {
    const { job, files, task } = await runJob("html/gotenberg-pages-3.html", {
      c: {
        operation: "convert",
        input: "in",
        output_format: "pdf",
        engine: "chrome",
        display_header_footer: true,
        header_template: '<div style="font-size:10px;width:100%">HEADMARK <span class="title"></span></div>',
        footer_template:
          '<div style="font-size:10px;width:100%">FOOTMARK <span class="pageNumber"></span>/<span class="totalPages"></span></div>',
        margin_top: 20,
        margin_bottom: 20,
      },
    });
    expect(job.status).toBe("finished");
    const out = files.c[0].path;
    const pages = Number(pdfinfo(out).Pages);
    expect(pages).toBeGreaterThan(1);
    for (let n = 1; n <= pages; n++) {
      const text = run("pdftotext", ["-f", String(n), "-l", String(n), "-layout", out, "-"]).out;
      expect(text).toContain("HEADMARK");
      expect(text).toMatch(new RegExp(`FOOTMARK ${n}/${pages}`));
    }
    expect(warningsOf(task("c"))).toEqual([]);
  });

  it("pdf → png with page_range (the old docs' name of pages) and pixel_density: the pages asked for, at that density", async () => {
    const { job, files, task } = await runJob("pdf/cloudconvert-input.pdf", {
      c: { operation: "convert", input: "in", output_format: "png", page_range: "2-3", pixel_density: 72 },
    });
    expect(job.status).toBe("finished");
    expect(files.c).toHaveLength(2);
    for (const f of files.c) expect(identify(f.path)).toMatchObject({ format: "PNG", width: 595, height: 842 });
    expect(warningsOf(task("c"))).toEqual([]);
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
    const shown = await cc.tasks.get(created.id, withPayload());
    expect(shown.payload).toEqual(body);
    const job = await cc.jobs.create({ tasks: { imp: { operation: "import/url", ...body } } });
    const inJob = await cc.tasks.get(job.tasks[0].id, withPayload());
    expect(inJob.payload).toEqual({ operation: "import/url", ...body });
  });
});
