/**
 * Issue 49's large `archive` (the `slow` project, `npm run test:slow`; never in `npm test`): four generated files of
 * about LARGE_ARCHIVE_BYTES in all (default 1 GB = 10^9 bytes: two of random bytes, incompressible, a text log
 * and a run of zeros) served from loopback go import/url ×4 → archive (zip and tar) → export/url through the running
 * Worker and the native engine, by the official node SDK. Over the WebAssembly 7-Zip's budget the task goes to the
 * native archive row (container/engines/archive.ts `create`): every file is a DeferredBytes part of one framed call,
 * its R2 read opened only when the body reaches it, written to the call's folder; Debian's 7-Zip writes the archive
 * there and it streams back into R2.
 *
 * Every native tool runs under a 256 MB address-space limit (NATIVE_MEMORY_MB), below the largest member's size (375 MB;
 * a quarter of the files'), so the job finishing shows that no tool held a member whole.
 *
 * Oracles: the CRC-32 and size of each file, computed by node:zlib while it was generated, against 7-Zip's listing of
 * the zip export/url serves (`7z l -slt`: path, size, CRC) and against Python's zipfile and tarfile reading each member
 * back (its own CRC-32 of the bytes, by zlib); the resident memory (VmRSS from /proc, every 250 ms) of the service's
 * workerd and of the native engine's server, from before the job until the download has ended.
 */
import { execFileSync } from "node:child_process";
import { randomFillSync } from "node:crypto";
import { closeSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { growthDuring, growthLine, mb, runSlowJob, secs, slowRig } from "../support/slow-job";

const TOTAL = Number(process.env.LARGE_ARCHIVE_BYTES ?? 1e9);
/** The members: name, share of TOTAL, content. The largest is the first. */
const MEMBERS = [
  { name: "noise-a.bin", share: 0.375, kind: "random" },
  { name: "noise-b.bin", share: 0.25, kind: "random" },
  { name: "server.log", share: 0.25, kind: "text" },
  { name: "disk.img", share: 0.125, kind: "zeros" },
] as const;
/** The native tools' memory limit, MB (NATIVE_MEMORY_MB: RLIMIT_AS of each run), below the largest member's size. */
const NATIVE_MEMORY_MB = 256;
/**
 * Most workerd may grow over its idle size over the job: 40% of the files, the slow project's bound
 * (large-transfer.test.ts: miniflare's R2 simulator digests every put in JavaScript — here the four imports and the
 * archive's put). The members read whole into the Worker show as +1 GB. During each archive task, over workerd's size as
 * the task started (after the imports), it may grow by 40% of the largest member: a member held whole shows as +375 MB.
 */
const WORKERD_GROWTH = 0.4;
/**
 * Most the native server may grow over its idle size: 40% of the largest member (150 MB at the default size). It only
 * writes the parts it receives to disk and streams the archive back from disk: one member held whole passes the bound.
 */
const NATIVE_GROWTH = 0.4;
const KEY = "key-archive";
const MB = 1e6;

/** A generated file: its name, path, size and CRC-32 (node:zlib, as 7-Zip prints it: 8 upper-case hex digits). */
interface Generated {
  name: string;
  path: string;
  size: number;
  crc: string;
}
let generated: Generated[] = [];

/** Writes `size` bytes of `kind` to `path` in 16 MiB chunks, answering their CRC-32 (computed as they are written). */
function writeMember(path: string, size: number, kind: (typeof MEMBERS)[number]["kind"]): string {
  const fd = openSync(path, "w");
  const chunk = Buffer.alloc(16 << 20);
  let crc = 0;
  let line = 0;
  for (let at = 0; at < size;) {
    let part: Buffer;
    if (kind === "random") part = randomFillSync(chunk);
    else if (kind === "zeros") part = chunk;
    else {
      // log lines that differ (a counter and a hash-like number): compressible, not trivially
      let text = "";
      while (text.length < chunk.length - 200)
        text += `2026-11-29T12:00:00Z ${String(line).padStart(9, "0")} GET /v2/jobs/${(line++ * 7919) % 100003} 200\n`;
      part = Buffer.from(text, "latin1");
    }
    part = part.subarray(0, Math.min(part.length, size - at));
    writeSync(fd, part);
    crc = crc32(part, crc);
    at += part.length;
  }
  closeSync(fd);
  return (crc >>> 0).toString(16).toUpperCase().padStart(8, "0");
}

/** 7-Zip's listing of an archive: each file member's path → [size, CRC as 7-Zip prints it ("" when it has none)]. */
function listing(path: string): Map<string, [number, string]> {
  const out = execFileSync("7z", ["l", "-slt", path], { encoding: "utf8", maxBuffer: 16 << 20 });
  const entries = new Map<string, [number, string]>();
  for (const block of out.split(/\n\n/)) {
    if (!/^Folder = -$/m.test(block)) continue;
    entries.set(/^Path = (.*)$/m.exec(block)![1]!, [
      Number(/^Size = (\d+)$/m.exec(block)![1]),
      /^CRC = ([0-9A-F]+)$/m.exec(block)?.[1] ?? "",
    ]);
  }
  return entries;
}

/**
 * Each member of a zip or tar as Python reads it back (zipfile, tarfile; 1 MiB at a time): name → [size, CRC-32 of
 * its bytes by zlib]. For a zip, zipfile also checks each member's bytes against the CRC stored for it.
 */
function readBack(path: string): Map<string, [number, string]> {
  const py = `
import sys, tarfile, zipfile, zlib
p = sys.argv[1]
def each():
  if zipfile.is_zipfile(p):
    z = zipfile.ZipFile(p)
    for i in z.infolist():
      if not i.is_dir(): yield i.filename, z.open(i)
  else:
    t = tarfile.open(p)
    for m in t:
      if m.isfile(): yield m.name, t.extractfile(m)
for name, f in each():
  c, n = 0, 0
  for b in iter(lambda: f.read(1 << 20), b''): c, n = zlib.crc32(b, c), n + len(b)
  print('%s\\t%d\\t%08X' % (name, n, c))
`;
  const out = execFileSync("python3", ["-c", py, path], { encoding: "utf8" });
  return new Map(
    out
      .trim()
      .split("\n")
      .map((l) => l.split("\t"))
      .map(([name, n, c]) => [name!, [Number(n), c!]]),
  );
}

const rig = slowRig({
  name: "archive",
  key: KEY,
  user: "archive",
  // every native tool under a 256 MB address-space limit (RLIMIT_AS), below the largest member's size (issue 49)
  nativeMemoryMb: NATIVE_MEMORY_MB,
  generate(dir) {
    generated = MEMBERS.map(({ name, share, kind }) => {
      const path = join(dir, name);
      const size = Math.round(TOTAL * share);
      return { name, path, size, crc: writeMember(path, size, kind) };
    });
    return Object.fromEntries(generated.map((g) => [`/${g.name}`, { path: g.path, type: "application/octet-stream" }]));
  },
});

describe(`archive of ${MEMBERS.length} files, ${(TOTAL / MB).toFixed(0)} MB, through the native 7-Zip`, () => {
  it("import/url ×4 → archive zip and tar → export/url: 7-Zip's listing and Python's read-back give every file's size and CRC; neither workerd nor the native server holds a file", async () => {
    const total = generated.reduce((n, g) => n + g.size, 0);
    const largest = Math.max(...generated.map((g) => g.size));
    expect(largest).toBeGreaterThan(NATIVE_MEMORY_MB * 1024 * 1024);
    const imports = Object.fromEntries(
      generated.map((g, i) => [`in${i}`, { operation: "import/url", url: `${rig.base}/${g.name}` }]),
    );
    const input = Object.keys(imports);
    // one job, two archives of the same imports (a second job would import the files again)
    const run = await runSlowJob(rig, {
      ...imports,
      zip: { operation: "archive", input, output_format: "zip", compression_level: 1 },
      tar: { operation: "archive", input, output_format: "tar" },
      out: { operation: "export/url", input: ["zip", "tar"] },
    });
    const [zipTask, tarTask] = [run.task("zip"), run.task("tar")];
    expect([zipTask.engine, tarTask.engine]).toEqual(["archive-native", "archive-native"]);
    const files = new Map(run.files.map((f) => [f.filename, f.path]));
    expect([...files.keys()].sort()).toEqual(["archive.tar", "archive.zip"]);
    const [zip, tar] = [files.get("archive.zip")!, files.get("archive.tar")!];
    const { workerd, native } = run.memory;
    const [zipW, tarW] = [growthDuring(workerd, zipTask), growthDuring(workerd, tarTask)];
    const during = (t: typeof zipTask, g: typeof zipW) => {
      const span = (Date.parse(t.ended_at!) - Date.parse(t.started_at ?? t.created_at)) / 1000;
      return `${t.name} ${span.toFixed(0)} s, workerd +${mb(g.peak - g.before)} MB over ${mb(g.before)} MB`;
    };
    const imported = generated.map((_, i) => Date.parse(run.task(`in${i}`).ended_at!));
    console.log(
      `large-archive: ${generated.length} files, ${mb(total)} MB (largest ${mb(largest)} MB; generated in ` +
        `${secs(rig.generateMs)} s) → ${mb(statSync(zip).size)} MB zip (-mx1) + ${mb(statSync(tar).size)} MB tar; ` +
        `job ${secs(run.jobMs)} s (imports ${((Math.max(...imported) - Date.parse(run.job.created_at)) / 1000).toFixed(0)} s; ` +
        `${during(zipTask, zipW)}; ${during(tarTask, tarW)}), downloads ${secs(run.downloadMs)} s; ${growthLine(run.memory)}; ` +
        `tools under RLIMIT_AS ${NATIVE_MEMORY_MB} MB`,
    );
    const want = new Map(generated.map((g) => [g.name, [g.size, g.crc]]));
    // the zip: 7-Zip's listing (the CRC the native 7-Zip recorded) and Python's zipfile reading each member back
    expect(listing(zip)).toEqual(want);
    expect(readBack(zip)).toEqual(want);
    rmSync(zip);
    // the tar: 7-Zip's listing (names and sizes; a tar has no CRC) and Python's tarfile reading each member back
    expect(new Map([...listing(tar)].map(([p, [n]]) => [p, n]))).toEqual(
      new Map(generated.map((g) => [g.name, g.size])),
    );
    expect(readBack(tar)).toEqual(want);
    rmSync(tar);
    expect(workerd.peak - workerd.idle).toBeLessThan(WORKERD_GROWTH * total);
    expect(native.peak - native.idle).toBeLessThan(NATIVE_GROWTH * largest);
    for (const g of [zipW, tarW]) expect(g.peak - g.before).toBeLessThan(WORKERD_GROWTH * largest);
  });
});
