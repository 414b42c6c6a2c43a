/**
 * Issue 49's large archive (the `slow` project, `npm run test:slow`; never in `npm test`): a generated zip of about
 * LARGE_ZIP_BYTES (default 1.5 GB = 1.5 × 10^9 bytes: LARGE_ZIP_FILES random files in folders, stored by Debian's
 * 7-Zip) served from loopback goes import/url → convert (output_format "files") → export/url through the running
 * Worker and the native engine. Over the WebAssembly 7-Zip's 32 MiB the task goes to the native archive row, and over
 * 64 MiB the archive travels on the framed wire to its folder, and the members come back streamed, one R2 object each.
 *
 * Every native tool runs under a 512 MB address-space limit (NATIVE_MEMORY_MB), below the file's size, so the job
 * finishing shows that no tool held the file whole (the issue's "same test with the native engine's memory limit
 * lowered").
 *
 * Oracles: 7-Zip's listing of the source (`7z l -slt`: each member's path, size and CRC) against the task's
 * `members` and Python's zlib CRC-32 of every file export/url serves; the resident memory (VmRSS from /proc, every
 * 250 ms) of the service's workerd and of the native engine's server, from before the job until the last download.
 */
import { execFileSync } from "node:child_process";
import { randomFillSync } from "node:crypto";
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { growthLine, mb, runSlowJob, secs, slowRig } from "../support/slow-job";

const TARGET = Number(process.env.LARGE_ZIP_BYTES ?? 1.5e9);
const FILES = Number(process.env.LARGE_ZIP_FILES ?? 300);
/**
 * Most either process may grow over its idle size during the job: 40% of the archive, the slow project's bound
 * (large-transfer.test.ts: miniflare's R2 simulator digests every put in JavaScript — here the import and every
 * member). A whole-archive buffer on either side of the native wire shows as +1.5 GB.
 */
const MAX_GROWTH = 0.4 * TARGET;
/** The native tools' memory limit, MB (NATIVE_MEMORY_MB: RLIMIT_AS of each run), below the file's size. */
const NATIVE_MEMORY_MB = 512;
const KEY = "key-zip";
const MB = 1e6;

let source: string;

/** 7-Zip's listing of a zip: each file member's path → [size, CRC as 7-Zip prints it]. */
function listing(path: string): Map<string, [number, string]> {
  const out = execFileSync("7z", ["l", "-slt", path], { encoding: "utf8", maxBuffer: 64 << 20 });
  const entries = new Map<string, [number, string]>();
  for (const block of out.split(/\n\n/)) {
    if (!/^Folder = -$/m.test(block)) continue;
    entries.set(/^Path = (.*)$/m.exec(block)![1]!, [
      Number(/^Size = (\d+)$/m.exec(block)![1]),
      /^CRC = ([0-9A-F]+)$/m.exec(block)![1]!,
    ]);
  }
  return entries;
}

/** CRC-32 of each file as 7-Zip prints it, by Python's zlib (one process for all of them). */
function crcs(paths: string[]): string[] {
  const py =
    "import sys,zlib\nfor p in sys.argv[1:]:\n c=0\n with open(p,'rb') as f:\n  for b in iter(lambda:f.read(1<<20),b''): c=zlib.crc32(b,c)\n print('%08X'%c)";
  return execFileSync("python3", ["-c", py, ...paths], { encoding: "utf8", maxBuffer: 64 << 20 })
    .trim()
    .split("\n");
}

// every native tool runs under a 512 MB address-space limit (RLIMIT_AS), below the file's size: a tool holding the
// file whole fails, so the job's success shows that nothing is held whole (issue 49)
const rig = slowRig({
  name: "zip",
  key: KEY,
  user: "zip",
  nativeMemoryMb: NATIVE_MEMORY_MB,
  setupMs: 900_000,
  generate(dir) {
    const tree = join(dir, "project");
    const each = Math.ceil(TARGET / FILES);
    const chunk = new Uint8Array(each);
    for (let i = 0; i < FILES; i++) {
      const folder = join(tree, `part-${String(i % 10).padStart(2, "0")}`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `data-${String(i).padStart(4, "0")}.bin`), randomFillSync(chunk));
    }
    source = join(dir, "project.zip");
    execFileSync("7z", ["a", "-tzip", "-mx=0", "-bso0", "-bsp0", source, "."], { cwd: tree });
    rmSync(tree, { recursive: true, force: true });
    return { "/project.zip": { path: source, type: "application/zip" } };
  },
});

describe(`a ${(TARGET / MB).toFixed(0)} MB zip of ${FILES} files through the native 7-Zip`, () => {
  it("import/url → convert to files → export/url: every member's path and CRC as 7-Zip lists them; neither workerd nor the native server grows by the archive", async () => {
    const size = statSync(source).size;
    const want = listing(source);
    expect(want.size).toBe(FILES);
    const run = await runSlowJob(rig, {
      in: { operation: "import/url", url: `${rig.base}/project.zip` },
      unpack: { operation: "convert", input: "in", output_format: "files" },
      out: { operation: "export/url", input: "unpack" },
    });
    const unpack = run.task("unpack");
    expect(unpack.engine).toBe("archive-native");
    const members = (unpack.result as unknown as { members: { path: string; filename: string; size: number }[] })
      .members;
    expect(new Map(members.map((m) => [m.path, m.size]))).toEqual(new Map([...want].map(([p, [n]]) => [p, n])));
    expect(run.files).toHaveLength(FILES);
    const got = new Map(run.files.map((f) => [f.filename, f.path]));
    const { workerd, native } = run.memory;
    console.log(
      `large-zip: ${mb(size)} MB zip of ${FILES} files (stored; generated in ${secs(rig.generateMs)} s); ` +
        `job ${secs(run.jobMs)} s, downloads ${secs(run.downloadMs)} s; ${growthLine(run.memory)}`,
    );
    // each member's file (named by the task's members list) has the CRC 7-Zip recorded for it
    const paths = members.map((m) => got.get(m.filename)!);
    expect(paths.every(Boolean)).toBe(true);
    expect(crcs(paths)).toEqual(members.map((m) => want.get(m.path)![1]));
    expect(workerd.peak - workerd.idle).toBeLessThan(MAX_GROWTH);
    expect(native.peak - native.idle).toBeLessThan(MAX_GROWTH);
  });
});
