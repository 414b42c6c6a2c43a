/**
 * Image and metadata jobs inside workerd through the whole path (issue 11): POST /v2/jobs → JobDO →
 * TASKS queue → runner → service binding → the ImageMagick / ExifTool engine Worker → R2 → export.
 * Outputs are judged by their own headers (JPEG SOF dimensions) and by what another engine reads
 * back; refusals by the engine come back as task errors with a code.
 */
import { describe, expect, it } from "vitest";
import { type ApiJob, createJob, taskByName, waitJob } from "./helpers";
import { bmpOf as bmp } from "../contract/engines.cases";

const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));

/** Width and height from a baseline/progressive JPEG's SOF marker. */
function jpegSize(b: Uint8Array): [number, number] {
  expect([b[0], b[1]]).toEqual([0xff, 0xd8]);
  for (let i = 2; i < b.length;) {
    const marker = b[i + 1];
    const len = (b[i + 2] << 8) | b[i + 3];
    if (marker >= 0xc0 && marker <= 0xc3) return [(b[i + 7] << 8) | b[i + 8], (b[i + 5] << 8) | b[i + 6]];
    i += 2 + len;
  }
  throw new Error("no SOF marker");
}

async function download(job: ApiJob, name = "out"): Promise<Uint8Array> {
  const url = taskByName(job, name).result.files[0].url as string;
  const { exports } = await import("cloudflare:workers");
  return new Uint8Array(await (await exports.default.fetch(url)).arrayBuffer());
}

describe("engine Workers behind the queue", () => {
  it("convert bmp → jpg with a resize runs in the ImageMagick engine Worker and reports it", async () => {
    const job = await createJob({
      in: { operation: "import/base64", file: b64(bmp(120, 80)), filename: "in.bmp" },
      conv: { operation: "convert", input: "in", output_format: "jpg", width: 60 },
      out: { operation: "export/url", input: "conv" },
    });
    const done = await waitJob(job.id);
    expect(done.status, JSON.stringify(taskByName(done, "conv"))).toBe("finished");
    expect(taskByName(done, "conv")).toMatchObject({ engine: "imagemagick" });
    expect(jpegSize(await download(done))).toEqual([60, 40]);
  });

  it("metadata of the converted image comes from the ExifTool engine Worker", async () => {
    const job = await createJob({
      in: { operation: "import/base64", file: b64(bmp(64, 48)), filename: "in.bmp" },
      conv: { operation: "convert", input: "in", output_format: "jpg" },
      meta: { operation: "metadata", input: "conv" },
    });
    const done = await waitJob(job.id);
    const meta = taskByName(done, "meta");
    expect(meta.status, JSON.stringify(meta)).toBe("finished");
    expect(meta.engine).toBe("exiftool");
    expect(meta.result.metadata).toMatchObject({ FileType: "JPEG", ImageWidth: 64, ImageHeight: 48 });
  });

  it("a decompression bomb is refused by the engine Worker as a task error with a code, and the job ends", async () => {
    // 100 000 × 100 000 declared, 2×2 pixels present: refused from the header before decoding.
    const job = await createJob({
      in: { operation: "import/base64", file: b64(bmp(2, 2, [100_000, 100_000])), filename: "bomb.bmp" },
      conv: { operation: "convert", input: "in", output_format: "png" },
    });
    const done = await waitJob(job.id);
    const conv = taskByName(done, "conv");
    expect(done.status).toBe("error");
    expect(conv.status).toBe("error");
    expect(conv.code).toMatch(/^(OVER_BUDGET|INVALID_FILE|OPEN_FAILED)$/);
    expect(conv.engine).toBe("imagemagick");
  });

  it("a file the engine cannot read ends as a task error with a code, not INTERNAL_ERROR", async () => {
    const job = await createJob({
      in: { operation: "import/raw", file: "this is not a bitmap", filename: "fake.bmp" },
      conv: { operation: "convert", input: "in", output_format: "png" },
    });
    const conv = taskByName(await waitJob(job.id), "conv");
    expect(conv.status).toBe("error");
    expect(conv.code).not.toBe("INTERNAL_ERROR");
    expect(typeof conv.code).toBe("string");
  });
});
