/**
 * Issue 49 end to end through the official SDK under `npm start` (workerd, R2, the native engine): the graphics rows
 * take inputs over 64 MiB from R2 as streams and answer their outputs from the native engine's disk into R2 — an
 * ImageMagick `command` on a generated 75 MB scan (its input a DeferredBytes part of the framed call, opened when the
 * body reaches it) and a generated 68 MB Illustrator file → pdf on Inkscape. Oracles: identify (sizes, the pixels'
 * SHA-256 signature) and pdfimages (the picture's samples against the generated noise's SHA-256).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writePicturePdf } from "../support/picture-pdf";
import { writeScanTiff } from "../support/scan-tiff";
import { type JobBody, sdk } from "../support/sdk";
import { sharedServer, type SharedServer } from "../support/servers";

let server: SharedServer;
let dir: string;
beforeAll(() => {
  server = sharedServer("guarded");
  dir = mkdtempSync(join(tmpdir(), "sdk-graphics-large-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a job of one upload of `file` and `task` on it, exported; the finished job's task and its exported files. */
async function run(file: string, task: Record<string, unknown>) {
  const cc = sdk("key-a", server.base);
  let job = await cc.jobs.create({
    tasks: {
      up: { operation: "import/upload" },
      t: { ...task, input: "up" },
      out: { operation: "export/url", input: "t" },
    },
  } as unknown as JobBody);
  await cc.tasks.upload(
    job.tasks.find((t) => t.name === "up")!,
    createReadStream(file),
    file.split("/").pop()!,
  );
  job = await cc.jobs.wait(job.id);
  expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.status, t.message]))).toBe("finished");
  const saved: Record<string, string> = {};
  for (const f of cc.jobs.getExportUrls(job)) {
    saved[f.filename!] = join(dir, `out-${f.filename}`);
    writeFileSync(saved[f.filename!]!, new Uint8Array(await (await fetch(f.url!)).arrayBuffer()));
  }
  return { task: job.tasks.find((t) => t.name === "t")!, saved };
}

const identify = (path: string, format: string) =>
  execFileSync("identify", ["-format", format, path], { encoding: "utf8" }).trim();

describe("graphics rows over 64 MiB through the SDK (issue 49)", () => {
  it("command on a 75 MB scan: a 75 MB png of the same pixels and a 500 px png, from the native engine's disk", async () => {
    const scan = join(dir, "scan.tiff");
    writeScanTiff(scan, { pages: 1, width: 5000, height: 5000, dpi: 300 });
    const { task, saved } = await run(scan, {
      operation: "command",
      engine: "imagemagick",
      command: "convert",
      arguments: "/input/up/scan.tiff ( +clone -resize 10% -write /output/small.png +delete ) /output/copy.png",
    });
    expect(task.engine).toBe("imagemagick");
    expect(Object.keys(saved).sort()).toEqual(["copy.png", "small.png"]);
    expect(identify(saved["copy.png"]!, "%m %wx%h")).toBe("PNG 5000x5000");
    expect(identify(saved["copy.png"]!, "%#")).toBe(identify(scan, "%#"));
    expect(identify(saved["small.png"]!, "%m %wx%h")).toBe("PNG 500x500");
  }, 300_000);

  it("a 68 MB Illustrator file → pdf on Inkscape: every sample of its picture (pdfimages)", async () => {
    const ai = join(dir, "poster.ai");
    const written = writePicturePdf(ai, 4750);
    const { task, saved } = await run(ai, { operation: "convert", output_format: "pdf" });
    expect(task.engine).toBe("inkscape");
    execFileSync("pdfimages", [saved["poster.pdf"]!, join(dir, "img")]);
    const ppm = readFileSync(join(dir, "img-000.ppm"));
    const header = "P6\n4750 4750\n255\n";
    expect(ppm.subarray(0, header.length).toString("latin1")).toBe(header);
    expect(createHash("sha256").update(ppm.subarray(header.length)).digest("hex")).toBe(written.pixelsSha256);
  }, 300_000);
});
