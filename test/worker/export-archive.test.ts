/**
 * export/url with archive_multiple_files (issue 15's export part) inside workerd: one ZIP behind one
 * signed URL, members named uniquely, read back with fflate's own reader (the e2e test checks the
 * same with Debian's unzip).
 */
import { describe, expect, it } from "vitest";
import { unzipSync } from "fflate";
import { createJob, taskByName, waitJob } from "./helpers";

describe("export/url archive_multiple_files", () => {
  it("zips every input file, keeps duplicate names apart, and serves it from one URL", async () => {
    const job = await createJob({
      a: { operation: "import/raw", file: "first", filename: "same.txt" },
      b: { operation: "import/raw", file: "second", filename: "same.txt" },
      c: { operation: "import/raw", file: "x".repeat(5000), filename: "big.csv" },
      out: { operation: "export/url", input: ["a", "b", "c"], archive_multiple_files: true },
    });
    const done = await waitJob(job.id);
    const out = taskByName(done, "out");
    expect(out.status, JSON.stringify(out)).toBe("finished");
    expect(out.result.files).toHaveLength(1);
    expect(out.result.files[0].filename).toBe("archive.zip");
    const { exports } = await import("cloudflare:workers");
    const res = await exports.default.fetch(out.result.files[0].url);
    expect(res.status).toBe(200);
    const zip = new Uint8Array(await res.arrayBuffer());
    expect(zip.byteLength).toBe(out.result.files[0].size);
    const members = unzipSync(zip);
    const text = (k: string) => new TextDecoder().decode(members[k]);
    expect(Object.keys(members)).toEqual(["same.txt", "same-2.txt", "big.csv"]);
    expect([text("same.txt"), text("same-2.txt"), text("big.csv").length]).toEqual(["first", "second", 5000]);
  });

  it("a single file is exported as itself, not zipped", async () => {
    const job = await createJob({
      a: { operation: "import/raw", file: "solo", filename: "solo.txt" },
      out: { operation: "export/url", input: "a", archive_multiple_files: true },
    });
    const out = taskByName(await waitJob(job.id), "out");
    expect(out.result.files.map((f) => f.filename)).toEqual(["solo.txt"]);
  });
});
