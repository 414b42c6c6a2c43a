/**
 * metadata by range reads inside workerd (issue 49): a stored file larger than the WebAssembly ExifTool's byte budget
 * (64 MiB) is read by the ExifTool engine Worker through R2 range reads called back over its RPC
 * (src/engines/exiftool/ranged.ts), so it finishes there — this project has no native engine to hand it to, and read
 * whole it would be OVER_BUDGET. The file: a 454-byte JPEG (32×24, Artist set by Debian's exiftool when this test was
 * written) followed by 70 MiB of zeros, uploaded through import/upload.
 */
import { describe, expect, it } from "vitest";
import { createJob, taskByName, waitJob } from "./helpers";

/** The JPEG: `convert -size 32x24 gradient:red-blue -quality 80`, then `exiftool -Artist="Ranged in workerd"`. */
const JPEG = Uint8Array.from(
  atob(
    "/9j/4AAQSkZJRgABAQAAAQABAAD/4QB0RXhpZgAATU0AKgAAAAgABQEaAAUAAAABAAAASgEbAAUAAAABAAAAUgEoAAMAAAABAAEAAAE7AAIAAAASAAAAWgITAAMAAAABAAEAAAAAAAAAAAABAAAAAQAAAAEAAAABUmFuZ2VkIGluIHdvcmtlcmQA/9sAQwAGBAUGBQQGBgUGBwcGCAoQCgoJCQoUDg8MEBcUGBgXFBYWGh0lHxobIxwWFiAsICMmJykqKRkfLTAtKDAlKCko/9sAQwEHBwcKCAoTCgoTKBoWGigoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgo/8AAEQgAGAAgAwEiAAIRAQMRAf/EABYAAQEBAAAAAAAAAAAAAAAAAAAFB//EABYQAQEBAAAAAAAAAAAAAAAAAAATYf/EABYBAQEBAAAAAAAAAAAAAAAAAAAHBP/EABkRAAEFAAAAAAAAAAAAAAAAAAADFBZRYf/aAAwDAQACEQMRAD8AzC+l9Sr6X1ujOFbkOlW+l9Sr6X0jOCQ6SL6X0FzYIURt6tYvpfQGCFB6tZ//2Q==",
  ),
  (c) => c.charCodeAt(0),
);

describe("metadata by ranges in the ExifTool engine Worker (issue 49)", () => {
  it("a 70 MiB stored JPEG, over the engine's 64 MiB budget, is read by ranges and finishes on exiftool", async () => {
    const job = await createJob({
      up: { operation: "import/upload" },
      meta: { operation: "metadata", input: "up" },
    });
    const form = taskByName(job, "up").result.form;
    const fd = new FormData();
    for (const [k, v] of Object.entries(form.parameters)) fd.set(k, v as string);
    fd.set("file", new File([JPEG, new Uint8Array(70 * 1024 * 1024)], "padded.jpg"));
    const { exports } = await import("cloudflare:workers");
    expect((await exports.default.fetch(form.url, { method: "POST", body: fd })).status).toBe(201);
    const done = await waitJob(job.id);
    const meta = taskByName(done, "meta");
    expect(meta.status, JSON.stringify(meta)).toBe("finished");
    expect(meta.engine).toBe("exiftool");
    expect(meta.result.metadata).toMatchObject({
      FileType: "JPEG",
      ImageWidth: 32,
      ImageHeight: 24,
      Artist: "Ranged in workerd",
      FileName: "padded.jpg",
    });
    // the size of the stored file, not of what was read
    expect(String(meta.result.metadata.FileSize)).toMatch(/^7[0-9](\.\d+)? MB$/);
  }, 120_000);
});
