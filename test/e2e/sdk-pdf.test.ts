/**
 * Issue 4, end to end through the official SDK under `wrangler dev`: real PDFs from the corpus,
 * oracles from native tools (qpdf --check, pdfinfo, qpdf --show-encryption, pdftotext, identify).
 */
import { execFileSync } from "node:child_process";
import { createReadStream } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { corpusPath, fact } from "../support/corpus";
import { identify, pdfinfo, run, tempFile } from "../support/native";
import { runCorpusJob, type TaskDefs } from "../support/jobs";
import { type JobBody, sdk } from "../support/sdk";
import { sharedServer, type SharedServer } from "../support/servers";

let server: SharedServer;
beforeAll(async () => {
  server = sharedServer("guarded");
});

const runJob = (rel: string, tasks: TaskDefs) => runCorpusJob(server.base, rel, tasks);

describe("PDF operations through the SDK", () => {
  it("rotates, splits, extracts and keeps the document info", async () => {
    const src = "pdf/cloudconvert-input.pdf";
    const { job, files } = await runJob(src, {
      rot: { operation: "pdf/rotate-pages", input: "in", rotation: "+90", pages: "1,3-4" },
      split: { operation: "pdf/split-pages", input: "in" },
      ext: { operation: "pdf/extract-pages", input: "in", pages: "2,5-6" },
    });
    expect(job.status).toBe("finished");
    const rot = files.rot[0].path;
    expect(run("qpdf", ["--check", rot]).code).toBe(0);
    const info = pdfinfo(rot, ["-f", "1", "-l", "5"]);
    expect(Number(info.Pages)).toBe(fact(src).pages);
    expect([1, 2, 3, 4, 5].map((p) => info[`Page    ${p} rot`])).toEqual(["90", "0", "90", "90", "0"]);
    expect(info.Author).toBe(fact(src).author);
    expect(files.split.length).toBe(fact(src).pages);
    expect(files.split[0].filename).toBe("cloudconvert-input-1.pdf");
    for (const f of files.split.slice(0, 3)) expect(Number(pdfinfo(f.path).Pages)).toBe(1);
    expect(Number(pdfinfo(files.ext[0].path).Pages)).toBe(3);
    expect(job.tasks.find((t) => t.name === "rot")).toMatchObject({ engine: "pdflib", credits: 1 });
  });

  it("encrypts with AES-256 and the asked permissions, and decrypts a corpus file with its password", async () => {
    const { job, files } = await runJob("pdf/gotenberg-pages_12.pdf", {
      enc: {
        operation: "pdf/encrypt",
        input: "in",
        set_password: "user-pw",
        set_owner_password: "owner-pw",
        allow_print: "none",
        allow_extract: false,
      },
    });
    expect(job.status).toBe("finished");
    const enc = files.enc[0].path;
    const shown = run("qpdf", ["--show-encryption", "--password=user-pw", enc]).out;
    expect(shown).toMatch(/AESv3|AES-256|R = 6/);
    expect(shown).toMatch(/print low resolution: not allowed/);
    expect(shown).toMatch(/extract for any purpose: not allowed/);
    expect(run("qpdf", ["--check", "--password=user-pw", enc]).code).toBe(0);

    const enc2 = "pdf-encrypted/qpdf-enc-XI-R6-V5-U_view-O_master.pdf";
    const dec = await runJob(enc2, {
      dec: { operation: "pdf/decrypt", input: "in", password: "view" },
      bad: { operation: "pdf/decrypt", input: "in", password: "wrong", ignore_error: true },
    });
    expect(dec.job.tasks.find((t) => t.name === "bad")).toMatchObject({ status: "error", code: "INVALID_PASSWORD" });
    const plain = dec.files.dec[0].path;
    expect(run("qpdf", ["--show-encryption", plain]).out).toContain("File is not encrypted");
    expect(Number(pdfinfo(plain).Pages)).toBe(fact(enc2).pages);
  });

  it("watermarks text that pdftotext finds, and rasterizes pages like pdftoppm sizes them", async () => {
    const src = "pdf/pdfjs-tracemonkey.pdf";
    const { job, files } = await runJob(src, {
      wm: { operation: "watermark", input: "in", text: "CONFIDENTIAL", font_size: 40, opacity: 50, pages: "1" },
      png: { operation: "convert", input: "in", output_format: "png", pages: "1-2", pixel_density: 100 },
      thumb: { operation: "thumbnail", input: "in", output_format: "png", width: 200 },
    });
    expect(job.status).toBe("finished");
    expect(run("qpdf", ["--check", files.wm[0].path]).code).toBe(0);
    expect(run("pdftotext", ["-f", "1", "-l", "1", files.wm[0].path, "-"]).out).toContain("CONFIDENTIAL");
    expect(files.png.map((f) => f.filename)).toEqual(["pdfjs-tracemonkey-1.png", "pdfjs-tracemonkey-2.png"]);
    const ref = tempFile("ref", new Uint8Array());
    run("pdftoppm", ["-r", "100", "-f", "1", "-l", "1", "-png", corpusPath(src), ref]);
    const native = identify(`${ref}-01.png`);
    const ours = identify(files.png[0].path);
    expect(ours.format).toBe("PNG");
    expect([ours.width, ours.height]).toEqual([native.width, native.height]);
    const t = identify(files.thumb[0].path);
    expect(t.width).toBe(200);
  });

  it("merges PDFs and images in the given order, converting GIF/WEBP with the ImageMagick engine first", async () => {
    const cc = sdk("key-a", server.base);
    const names = [
      "pdf/gotenberg-pages_12.pdf",
      "images/pillow-chi.gif",
      "images/libwebp-test.webp",
      "images/exif-orientation-Landscape_1.jpg",
    ];
    const uploads = Object.fromEntries(names.map((_, i) => [`in${i}`, { operation: "import/upload" }]));
    let job = await cc.jobs.create({
      tasks: {
        ...uploads,
        merged: { operation: "merge", input: Object.keys(uploads), output_format: "pdf" },
        out: { operation: "export/url", input: "merged" },
      },
    });
    for (const [i, rel] of names.entries())
      await cc.tasks.upload(
        job.tasks.find((t) => t.name === `in${i}`)!,
        createReadStream(corpusPath(rel)),
        rel.split("/").pop()!,
      );
    job = await cc.jobs.wait(job.id);
    expect(job.status).toBe("finished");
    const [file] = cc.jobs.getExportUrls(job);
    const path = tempFile(file.filename!, new Uint8Array(await (await fetch(file.url!)).arrayBuffer()));
    expect(run("qpdf", ["--check", path]).code).toBe(0);
    expect(Number(pdfinfo(path).Pages)).toBe(fact(names[0]).pages! + 3);
    // The GIF page (13) keeps the GIF's aspect ratio 320×240.
    const box = pdfinfo(path, ["-f", "13", "-l", "13"])["Page   13 size"];
    const [w, h] = box
      .match(/([\d.]+) x ([\d.]+)/)!
      .slice(1)
      .map(Number);
    expect(w / h).toBeCloseTo(320 / 240, 2);
  });

  it("exports a PDF split into pages as one ZIP with archive_multiple_files (oracle: unzip, pdftotext)", async () => {
    const src = "pdf/gotenberg-pages_12.pdf";
    const cc = sdk("key-a", server.base);
    let job = await cc.jobs.create({
      tasks: {
        in: { operation: "import/upload" },
        split: { operation: "pdf/split-pages", input: "in" },
        out: { operation: "export/url", input: "split", archive_multiple_files: true },
      },
    } as unknown as JobBody); // an operation beyond the SDK's union
    await cc.tasks.upload(
      job.tasks.find((t) => t.name === "in")!,
      createReadStream(corpusPath(src)),
      "pages.pdf",
    );
    job = await cc.jobs.wait(job.id);
    expect(job.status).toBe("finished");
    const urls = cc.jobs.getExportUrls(job);
    expect(urls.map((u) => u.filename)).toEqual(["archive.zip"]);
    const res = await fetch(urls[0].url!);
    expect(res.headers.get("content-type")).toBe("application/zip");
    const zip = tempFile("archive.zip", new Uint8Array(await res.arrayBuffer()));
    expect(run("unzip", ["-tq", zip]).code).toBe(0);
    const listed = run("zipinfo", ["-1", zip]).out.trim().split("\n");
    const pages = fact(src).pages!;
    expect(listed).toEqual(Array.from({ length: pages }, (_, i) => `pages-${i + 1}.pdf`));
    // Each member is its page: the text of member 3 is the text of page 3 of the source.
    const member = tempFile("m3.pdf", new Uint8Array(execFileSync("unzip", ["-p", zip, "pages-3.pdf"])));
    const text = (path: string, page = 1) =>
      run("pdftotext", ["-f", String(page), "-l", String(page), path, "-"])
        .out.replace(/\s+/g, " ")
        .trim();
    expect(text(member)).toBe(text(corpusPath(src), 3));
    expect(text(member)).not.toBe(text(corpusPath(src), 4));
  });

  it("ends broken and hostile PDFs in task errors with codes, and keeps serving", async () => {
    const { job } = await runJob("broken/ocrmypdf-invalid.pdf", {
      rot: { operation: "pdf/rotate-pages", input: "in", rotation: "90" },
    });
    expect(job.tasks.find((t) => t.name === "rot")).toMatchObject({ status: "error", code: "OPEN_FAILED" });
    const bomb = await runJob("broken/ocrmypdf-hugemono.pdf", {
      png: { operation: "convert", input: "in", output_format: "png" },
    });
    expect(bomb.job.tasks.find((t) => t.name === "png")).toMatchObject({ status: "error", code: "OVER_BUDGET" });
    const ok = await runJob("pdf/gotenberg-pages_12.pdf", {
      rot: { operation: "pdf/rotate-pages", input: "in", rotation: "180" },
    });
    expect(ok.job.status).toBe("finished");
  });
});
