/**
 * Issue 15 end to end through the official SDK under `wrangler dev` (the 7-Zip engine Worker behind
 * its service binding): three uploads archived as zip and exported; a PDF split into pages exported
 * with archive_multiple_files; a RAR 5 uploaded and converted to zip; a tar.bz2 and a 7z built and
 * read back. Oracles: unzip/zipinfo, tar, 7z (p7zip-full), bsdtar, pdfinfo.
 */
import { execFileSync } from "node:child_process";
import { createReadStream, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { nativeExtract } from "../support/archive-oracle";
import { corpusPath, fact } from "../support/corpus";
import { runCorpusJob, runUploadJob, type TaskDefs } from "../support/jobs";
import { pdfinfo, tempFile } from "../support/native";
import { type JobBody, sdk } from "../support/sdk";
import { sharedServer, type SharedServer } from "../support/servers";

let server: SharedServer;
beforeAll(async () => {
  server = sharedServer("guarded");
});

const UPLOADS = ["pdf/pdfjs-tracemonkey.pdf", "images/pngsuite-basn6a16.png", "html/gotenberg-pages-3.html"];

const uploadJob = (rels: string[], tasks: TaskDefs) => runUploadJob(server.base, rels, tasks);

describe("archives through the SDK", () => {
  it("three uploads → archive zip → export: unzip lists exactly them and extracts them byte for byte", async () => {
    const present = UPLOADS;
    const { job, downloads } = await uploadJob(present, {
      zip: { operation: "archive", input: ["up0", "up1", "up2"], output_format: "zip", filename: "three.zip" },
      out: { operation: "export/url", input: "zip" },
    });
    expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.status, t.message]))).toBe("finished");
    expect(job.tasks.find((t) => t.name === "zip")).toMatchObject({ engine: "7z", engine_version: "24.09" });
    const [zip] = downloads;
    expect(zip!.filename).toBe("three.zip");
    const names = execFileSync("unzip", ["-Z1", zip!.path], { encoding: "utf8" }).split("\n").filter(Boolean).sort();
    expect(names).toEqual(present.map((r) => r.split("/").pop()!).sort());
    const files = nativeExtract(zip!.path, "bsdtar");
    for (const r of present) expect(files.get(r.split("/").pop()!)!.equals(readFileSync(corpusPath(r))), r).toBe(true);
  });

  it("a PDF split into pages is exported as one zip with archive_multiple_files", async () => {
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
      "pages_12.pdf",
    );
    job = await cc.jobs.wait(job.id);
    const urls = cc.jobs.getExportUrls(job);
    expect(urls.length).toBe(1);
    const path = tempFile(urls[0]!.filename!, new Uint8Array(await (await fetch(urls[0]!.url!)).arrayBuffer()));
    const pages = nativeExtract(path, "bsdtar");
    expect(pages.size).toBe(fact(src).pages);
    for (const [name, data] of pages) expect(Number(pdfinfo(tempFile(name, new Uint8Array(data))).Pages), name).toBe(1);
  });

  it("a RAR 5 upload converted to zip holds exactly the files bsdtar extracts from the RAR", async () => {
    const src = "archives/libarchive-test_read_format_rar5_multiple_files.rar";
    const { job, files } = await runCorpusJob(server.base, src, {
      zip: { operation: "convert", input: "in", output_format: "zip" },
    });
    expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.status, t.message]))).toBe("finished");
    const zip = files.zip![0]!;
    expect(zip.filename).toBe("libarchive-test_read_format_rar5_multiple_files.zip");
    const fromZip = nativeExtract(zip.path, "bsdtar");
    const fromRar = nativeExtract(corpusPath(src), "bsdtar");
    expect([...fromZip.keys()].sort()).toEqual([...fromRar.keys()].sort());
    for (const [k, v] of fromRar) expect(fromZip.get(k)!.equals(v), k).toBe(true);
  });

  it("extracts an encrypted zip's members with its password, and a wrong one is INVALID_PASSWORD", async () => {
    const src = "archives/libarchive-test_read_format_zip_winzip_aes256.zip";
    const { job, files, task } = await runCorpusJob(server.base, src, {
      files: { operation: "convert", input: "in", output_format: "files", password: "password" },
      _bad: { operation: "convert", input: "in", output_format: "files", password: "nope", ignore_error: true },
    });
    expect(task("bad")).toMatchObject({ status: "error", code: "INVALID_PASSWORD" });
    expect(job.tasks.find((t) => t.name === "files")!.status).toBe("finished");
    const native = nativeExtract(corpusPath(src), "7z", "password");
    expect(files.files!.map((f) => f.filename)).toEqual(["README"]);
    expect(readFileSync(files.files![0]!.path).equals(native.get("README")!)).toBe(true);
  });

  it("a zip-slip upload ends in UNSAFE_ARCHIVE; tar.bz2 and 7z archives list natively", async () => {
    const slip = await runCorpusJob(server.base, "broken/yauzl-relative-path-traversal.zip", {
      files: { operation: "convert", input: "in", output_format: "files" },
    });
    expect(slip.task("files")).toMatchObject({ status: "error", code: "UNSAFE_ARCHIVE" });
    const { files } = await runCorpusJob(server.base, "pdf/pdfjs-tracemonkey.pdf", {
      bz: { operation: "archive", input: "in", output_format: "tar.bz2" },
      sz: { operation: "archive", input: "in", output_format: "7z", compression_level: 9 },
    });
    expect(files.bz![0]!.filename).toBe("pdfjs-tracemonkey.tar.bz2");
    expect(execFileSync("tar", ["-tjf", files.bz![0]!.path], { encoding: "utf8" }).trim()).toBe(
      "pdfjs-tracemonkey.pdf",
    );
    const fromSeven = nativeExtract(files.sz![0]!.path, "7z");
    expect(fromSeven.get("pdfjs-tracemonkey.pdf")!.equals(readFileSync(corpusPath("pdf/pdfjs-tracemonkey.pdf")))).toBe(
      true,
    );
  });
});
