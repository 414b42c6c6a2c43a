/**
 * Issue 5, end to end through the official SDK under `wrangler dev` (API Worker → ExifTool engine
 * Worker): `metadata` agrees with Debian's `exiftool -json` on the spec's keys, credits 0; a
 * `metadata/write` round trip reads back the written values natively.
 */
import { createReadStream } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { run, tempFile } from "../support/native";
import { type TaskDefs } from "../support/jobs";
import { type JobBody, sdk } from "../support/sdk";
import { sharedServer, type SharedServer } from "../support/servers";

let server: SharedServer;
beforeAll(async () => {
  server = sharedServer("guarded");
});

const KEYS = [
  "FileName",
  "FileSize",
  "FileType",
  "FileTypeExtension",
  "MIMEType",
  "PDFVersion",
  "Author",
  "Title",
  "Creator",
  "Producer",
  "CreateDate",
  "ModifyDate",
  "PageCount",
  "ImageWidth",
  "ImageHeight",
  "ImageSize",
  "Duration",
];
const native = (path: string) => JSON.parse(run("exiftool", ["-json", path]).out)[0] as Record<string, unknown>;

async function upload(rel: string, tasks: TaskDefs) {
  const cc = sdk("key-a", server.base);
  let job = await cc.jobs.create({ tasks: { in: { operation: "import/upload" }, ...tasks } } as JobBody);
  await cc.tasks.upload(
    job.tasks.find((t) => t.name === "in")!,
    createReadStream(corpusPath(rel)),
    rel.split("/").pop()!,
  );
  job = await cc.jobs.wait(job.id);
  return { job, task: (n: string) => job.tasks.find((t) => t.name === n)! };
}

describe("metadata through the SDK", () => {
  for (const rel of [
    "pdf/cloudconvert-input.pdf",
    "images/exif-orientation-Landscape_6.jpg",
    "audio/tika-testMP3id3v2.mp3",
    "video/tika-testVideoMp4.mp4",
  ]) {
    it(`reads ${rel} as exiftool -json does`, async () => {
      const { task } = await upload(rel, { meta: { operation: "metadata", input: "in" } });
      const t = task("meta");
      expect(t).toMatchObject({ status: "finished", credits: 0, engine: "exiftool" });
      const ours = t.result!.metadata as Record<string, unknown>;
      const theirs = native(corpusPath(rel));
      const compared = KEYS.filter((k) => k in theirs);
      expect(compared.length).toBeGreaterThan(4);
      for (const k of compared) expect(ours[k], k).toEqual(theirs[k]);
      for (const v of Object.values(ours)) expect(["string", "number"]).toContain(typeof v);
    });
  }

  it("writes Title/Author into a PDF and reads them back natively", async () => {
    const { job, task } = await upload("pdf/gotenberg-pages_12.pdf", {
      w: { operation: "metadata/write", input: "in", metadata: { Title: "Edge Title", Author: "Edge Author" } },
      back: { operation: "metadata", input: "w" },
      out: { operation: "export/url", input: "w" },
    });
    expect(job.status).toBe("finished");
    expect(task("back").result!.metadata).toMatchObject({ Title: "Edge Title", Author: "Edge Author" });
    const file = task("out").result!.files![0];
    const path = tempFile(file.filename, new Uint8Array(await (await fetch(file.url!)).arrayBuffer()));
    expect(native(path)).toMatchObject({ Title: "Edge Title", Author: "Edge Author" });
    expect(run("qpdf", ["--check", path]).code).toBe(0);
  });

  it("reports a broken file the way exiftool does (its Warning), without failing the service", async () => {
    const rel = "broken/ocrmypdf-invalid.pdf";
    const { task } = await upload(rel, { meta: { operation: "metadata", input: "in" } });
    const theirs = native(corpusPath(rel));
    expect(theirs.Warning).toBeTruthy();
    expect(task("meta").status).toBe("finished");
    expect(task("meta").result!.metadata).toMatchObject({ FileType: theirs.FileType, Warning: theirs.Warning });
  });
});
