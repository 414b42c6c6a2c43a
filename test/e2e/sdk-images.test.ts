/**
 * Issue 3, end to end through the official SDK under `wrangler dev` (API Worker → ImageMagick
 * engine Worker over a service binding): real images from the corpus, oracles from Debian's
 * `identify`, never from the engine under test.
 */
import { createReadStream, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { corpusPath, fact } from "../support/corpus";
import { identify, run, tempFile } from "../support/native";
import { runCorpusJob, type TaskDefs } from "../support/jobs";
import { sdk } from "../support/sdk";
import { sharedServer, type SharedServer } from "../support/servers";

let server: SharedServer;
beforeAll(async () => {
  server = sharedServer("guarded");
});

const runJob = (rel: string, tasks: TaskDefs) => runCorpusJob(server.base, rel, tasks);

describe("images through the SDK", () => {
  it("runs the README's first example: JPEG with EXIF orientation 6 → 800 px WEBP, orientation applied", async () => {
    const src = "images/exif-orientation-Landscape_6.jpg";
    const { job, files, task } = await runJob(src, {
      "convert-my-file": { operation: "convert", input: "in", output_format: "webp", width: 800, quality: 80 },
    });
    expect(job.status).toBe("finished");
    const out = files["convert-my-file"][0];
    expect(out.filename).toBe("exif-orientation-Landscape_6.webp");
    const id = identify(out.path);
    // Stored 1200×1800 with orientation 6: displayed 1800×1200, so 800 wide is 800×533.
    expect([fact(src).width, fact(src).height]).toEqual([1200, 1800]);
    expect(id).toEqual({ format: "WEBP", width: 800, height: 533 });
    expect(task("convert-my-file")).toMatchObject({ engine: "imagemagick", credits: 1 });
    expect(task("convert-my-file").engine_version).toMatch(/^7\.\d+\.\d+/);
  });

  it("converts PNG with alpha, GIF and WEBP, and keeps transparency", async () => {
    const png = await runJob("images/pngsuite-basn6a16.png", {
      webp: { operation: "convert", input: "in", output_format: "webp" },
      jpg: { operation: "convert", input: "in", output_format: "jpg" },
    });
    expect(identify(png.files.webp[0].path)).toEqual({ format: "WEBP", width: 32, height: 32 });
    expect(run("identify", ["-format", "%A", png.files.webp[0].path]).out).toMatch(/True|Blend/i);
    expect(identify(png.files.jpg[0].path).format).toBe("JPEG");
    const gif = await runJob("images/pillow-chi.gif", {
      png: { operation: "convert", input: "in", output_format: "png" },
    });
    expect(identify(gif.files.png[0].path)).toEqual({ format: "PNG", width: 320, height: 240 });
    const webp = await runJob("images/libwebp-test.webp", {
      gif: { operation: "convert", input: "in", output_format: "gif", width: 64 },
    });
    expect(identify(webp.files.gif[0].path)).toEqual({ format: "GIF", width: 64, height: 64 });
  });

  it("thumbnails with fit max (no upscaling), crop and scale", async () => {
    const src = "images/cloudconvert-input.png";
    const { files } = await runJob(src, {
      max: { operation: "thumbnail", input: "in", output_format: "png", width: 200, height: 200 },
      crop: { operation: "thumbnail", input: "in", output_format: "jpg", width: 200, height: 200, fit: "crop" },
      scale: { operation: "thumbnail", input: "in", output_format: "webp", width: 300, height: 100, fit: "scale" },
      big: { operation: "thumbnail", input: "in", output_format: "png", width: 4000 },
    });
    expect(identify(files.max[0].path)).toEqual({ format: "PNG", width: 200, height: Math.round((200 * 668) / 1015) });
    expect(identify(files.crop[0].path)).toEqual({ format: "JPEG", width: 200, height: 200 });
    expect(identify(files.scale[0].path)).toEqual({ format: "WEBP", width: 300, height: 100 });
    expect(identify(files.big[0].path)).toMatchObject({ width: fact(src).width, height: fact(src).height });
  });

  it("ends corrupt, truncated and bomb images in task errors with codes, and keeps serving", async () => {
    const truncated = await runJob("broken/pillow-truncated_image.png", {
      c: { operation: "convert", input: "in", output_format: "jpg" },
    });
    expect(truncated.task("c")).toMatchObject({ status: "error", code: "OPEN_FAILED" });
    const bomb = await runJob("broken/fuzzdb-lottapixel.jpg", {
      c: { operation: "thumbnail", input: "in", output_format: "png", width: 100 },
    });
    expect(bomb.task("c")).toMatchObject({ status: "error", code: "OVER_BUDGET" });
    const ok = await runJob("images/libwebp-test.webp", {
      c: { operation: "convert", input: "in", output_format: "png" },
    });
    expect(ok.job.status).toBe("finished");
  });

  it("lists only what the engine can do in the catalogue", async () => {
    const res = (await (
      await fetch(`${server.base}/v2/operations?filter[operation]=convert&filter[engine]=imagemagick`)
    ).json()) as { data: { input_format: string; output_format: string }[] };
    const pairs = new Set(res.data.map((o) => `${o.input_format}>${o.output_format}`));
    expect(pairs.has("jpg>webp")).toBe(true);
    expect(pairs.has("png>heic")).toBe(false);
    expect(readFileSync(corpusPath("images/tika-IMG_1034.heic")).byteLength).toBeGreaterThan(0);
  });
});
