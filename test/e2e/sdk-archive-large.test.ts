/**
 * Issue 49 end to end through the official SDK under `npm start` (workerd, R2, the native engine): `archive` of files
 * totalling more than the WebAssembly 7-Zip's budget and the stream threshold (64 MiB) is handed to the native 7-Zip,
 * each file read from R2 only when the framed call reaches it (DeferredBytes joined into the request's
 * FixedLengthStream in workerd), the zip written on the native engine's disk and streamed back into R2.
 * Oracles: 7-Zip's listing (`7z l -slt`: paths, sizes, CRC-32) against Node's zlib crc32 of the generated files, and
 * Python's zipfile `testzip()`.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JobBody, sdk } from "../support/sdk";
import { sharedServer, type SharedServer } from "../support/servers";

let server: SharedServer;
let dir: string;
beforeAll(() => {
  server = sharedServer("guarded");
  dir = mkdtempSync(join(tmpdir(), "sdk-archive-large-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("archive over the WebAssembly budget through the SDK (issue 49)", () => {
  it("two 33 MiB uploads → archive zip on archive-native, members streamed from R2 → every path, size, CRC", async () => {
    const files = ["a.bin", "b.bin"].map((name) => {
      const data = randomBytes(33 * 1024 * 1024);
      writeFileSync(join(dir, name), data);
      return { name, size: data.byteLength, crc: crc32(data).toString(16).toUpperCase().padStart(8, "0") };
    });
    const cc = sdk("key-a", server.base);
    let job = await cc.jobs.create({
      tasks: {
        up0: { operation: "import/upload" },
        up1: { operation: "import/upload" },
        zip: { operation: "archive", input: ["up0", "up1"], output_format: "zip", compression_level: 1 },
        out: { operation: "export/url", input: "zip" },
      },
    } as unknown as JobBody);
    for (const [i, f] of files.entries())
      await cc.tasks.upload(
        job.tasks.find((t) => t.name === `up${i}`)!,
        createReadStream(join(dir, f.name)),
        f.name,
      );
    job = await cc.jobs.wait(job.id);
    const zip = job.tasks.find((t) => t.name === "zip")!;
    expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.status, t.message]))).toBe("finished");
    expect(zip.engine).toBe("archive-native");
    const [url] = cc.jobs.getExportUrls(job);
    const path = join(dir, "out.zip");
    writeFileSync(path, new Uint8Array(await (await fetch(url!.url!)).arrayBuffer()));
    const slt = execFileSync("7z", ["l", "-slt", path], { encoding: "utf8", maxBuffer: 16 << 20 });
    for (const f of files) {
      const block = slt.split(/\n\n/).find((b) => new RegExp(`^Path = ${f.name}$`, "m").test(b));
      expect(block, f.name).toBeDefined();
      expect(block).toMatch(new RegExp(`^Size = ${f.size}$`, "m"));
      expect(block).toMatch(new RegExp(`^CRC = ${f.crc}$`, "m"));
    }
    const test = "import sys,zipfile;z=zipfile.ZipFile(sys.argv[1]);print(z.testzip(), len(z.namelist()))";
    expect(execFileSync("python3", ["-c", test, path], { encoding: "utf8" }).trim()).toBe("None 2");
  }, 300_000);
});
