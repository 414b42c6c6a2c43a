/**
 * The archive engine in WebAssembly (engine table row "7z", kind archive): 7-Zip 24.09 writes zip,
 * 7z, tar, tar.gz and tar.bz2 and reads those plus RAR 4/5, ISO and tar.xz (issue 15) and the rest of
 * CloudConvert's archive list 7-Zip decodes (issue 34: formats.ts says how each is read). Each call
 * runs in a fresh instance (core.ts) with its files in MEMFS, so nothing of one task's archive is
 * left for the next.
 *
 * Reading is list → check → extract: the listing (`l -slt`) is checked first (listing.ts: zip-slip
 * paths refused as UNSAFE_ARCHIVE, entry count, declared total and ratio, decoder dictionaries,
 * a missing password), then `x` runs under a write cap equal to what is left of the budget, so a
 * lying header ends in OVER_BUDGET, not in a full isolate. Only regular files are answered:
 * symbolic links, devices and FIFOs are skipped and reported; a hard link becomes a copy of its
 * target. A compressed tar (tar.gz, tar.bz2, tar.xz, tar.Z, tar.lzma, tar.7z) and rpm's payload are
 * unwrapped first under the same cap; a compressor that records no size is capped at the bomb ratio.
 * Failures are data: OPEN_FAILED, INVALID_PASSWORD, UNSAFE_ARCHIVE, OVER_BUDGET, UNSUPPORTED.
 */
import type { TaskErrorCode } from "../errors";
import { newSevenZip, type SevenZip } from "./core";
import { checkListing, parseListing, type ArchiveEntry, type ArchiveListing } from "./listing";
import { DEFAULT_ARCHIVE_BUDGET } from "./budget";
import { isType, MAX_LAYERS, readPlan } from "./formats";
import type {
  ArchiveBudget,
  ArchiveCreateRequest,
  ArchiveEngine,
  ArchiveExtractRequest,
  ArchiveOutput,
  SkippedEntry,
} from "../kinds/archive";
import { SEVENZIP_ENGINE } from "./version";
import { arMembers } from "./ar";

/** Where the engine's module comes from on this platform (runtime/ seam). */
export interface SevenZipLoader {
  loadWasm(): Promise<WebAssembly.Module>;
  budget?: Partial<ArchiveBudget>;
}

const version = SEVENZIP_ENGINE.version;

/** A member as this engine holds it: its path and bytes (the kind's ArchiveMemberOut, never a stream here). */
type HeldMember = { path: string; data: Uint8Array };

/** A failure on the way, turned into data at the method's edge. */
class Refusal extends Error {
  constructor(
    readonly code: TaskErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1).replace(/\.0$/, "")} MiB`;

/** 7-Zip's -t name and the compression layer (for tar.gz/tar.bz2) of an output format. */
function writePlan(format: ArchiveOutput): { type: "zip" | "7z" | "tar"; outer?: "gzip" | "bzip2"; ext: string } {
  switch (format) {
    case "zip":
      return { type: "zip", ext: "zip" };
    case "7z":
      return { type: "7z", ext: "7z" };
    case "tar":
      return { type: "tar", ext: "tar" };
    case "tar.gz":
    case "tgz":
      return { type: "tar", outer: "gzip", ext: "tar.gz" };
    case "tar.bz2":
    case "tbz2":
      return { type: "tar", outer: "bzip2", ext: "tar.bz2" };
    case "tar.lzo":
      // lzop is not in 7-Zip: the native archive engine writes it (its row claims the pairs)
      throw new Refusal("UNSUPPORTED", "7-Zip does not write tar.lzo; the native archive engine does.");
  }
}

/**
 * The name of a single-file compressor's member that records none (compress .Z, lzma, bzip2, xz):
 * the input's name without its last extension ("notes.txt.Z" → "notes.txt"), as gunzip and 7-Zip name it;
 * only its last path step, so it cannot climb out.
 */
export function memberName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  const stem = dot > 0 ? base.slice(0, dot) : base;
  return stem && stem !== "." && stem !== ".." ? stem : "file";
}

/**
 * The write cap of a listing whose files declare no size (a compressor that records none, compress .Z,
 * lzma-alone): the bomb ratio of the archive's size (at least the ratio floor), at most the budget's
 * total; undefined when every file declares its size (the declared total is then the cap).
 */
function unsizedCap(listing: ArchiveListing, archiveBytes: number, budget: ArchiveBudget): number | undefined {
  const files = listing.entries.filter((e) => e.type === "file");
  if (files.length && files.every((e) => e.sized !== false)) return undefined;
  return Math.min(Math.max(budget.ratioFloorBytes, archiveBytes * budget.maxRatio), budget.maxTotalBytes);
}

/** Why extraction stopped at `cap`, for the OVER_BUDGET message. */
function capReason(cap: number, budget: ArchiveBudget): string {
  return cap < budget.maxTotalBytes
    ? `beyond ${budget.maxRatio}:1 of its size (above ${mib(budget.ratioFloorBytes)}) it is refused as a decompression bomb`
    : `at most ${mib(budget.maxTotalBytes)} is taken out`;
}

/** The first error lines 7-Zip printed, for a message. */
function errorsOf(z: SevenZip): string {
  const lines = [...z.stderr, ...z.stdout].filter((l) =>
    /ERROR|Error|error|aborted|Unexpected|Can not|Cannot|Wrong|Unsupported/.test(l),
  );
  return lines.slice(0, 3).join(" | ").replace(/\s+/g, " ").slice(0, 300) || `exit code ${z.stderr.length}`;
}

/** The task error code for 7-Zip's complaint. */
function codeOf(text: string): TaskErrorCode {
  if (/Wrong password|encrypted archive/i.test(text)) return "INVALID_PASSWORD";
  if (/Unsupported Method|Unsupported feature/i.test(text)) return "UNSUPPORTED";
  return "OPEN_FAILED";
}

/**
 * True when `data` is a 7z archive whose header is itself AES-encrypted (`-mhe`): 7z's start header
 * (7-Zip's 7zFormat.txt) points at an EncodedHeader (0x17) whose coder is 7zAES (06 F1 07 01).
 * 7-Zip in WebAssembly aborts on such an archive with a wrong or missing password instead of
 * saying so, so the engine asks the archive itself.
 */
export function hasEncryptedHeader7z(data: Uint8Array): boolean {
  const sig = [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c];
  if (data.length < 32 || sig.some((b, i) => data[i] !== b)) return false;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const offset = 32 + Number(view.getBigUint64(12, true));
  const size = Number(view.getBigUint64(20, true));
  if (offset >= data.length || data[offset] !== 0x17) return false;
  const header = data.subarray(offset, Math.min(data.length, offset + size));
  for (let i = 0; i + 3 < header.length; i++)
    if (header[i] === 0x06 && header[i + 1] === 0xf1 && header[i + 2] === 0x07 && header[i + 3] === 0x01) return true;
  return false;
}

/** Lists `path` with `password` (empty: none) as 7-Zip `type` (or detected), checked for a readable archive. */
function list(
  z: SevenZip,
  path: string,
  password: string,
  filename: string,
  data?: Uint8Array,
  type?: string,
): ArchiveListing {
  const rc = z.run(["l", "-slt", ...(type ? [`-t${type}`] : []), `-p${password}`, "-sccUTF-8", path]);
  const listing = parseListing(z.stdout.join("\n"));
  if (rc < 0 && data && hasEncryptedHeader7z(data)) {
    throw new Refusal(
      "INVALID_PASSWORD",
      `${filename} is a 7z archive with encrypted names: ${password ? "the password is wrong" : "give its password in the task's `password` parameter"}.`,
    );
  }
  if (rc !== 0 && rc !== 1) {
    const why = errorsOf(z);
    if (
      /Can ?not open the file as archive|Can ?not open encrypted archive|aborted/i.test(why) ||
      listing.entries.length === 0
    ) {
      throw new Refusal(codeOf(why), `${filename} could not be read as an archive: ${why}`);
    }
  }
  if (!listing.type) throw new Refusal("OPEN_FAILED", `${filename} is not an archive 7-Zip reads.`);
  return listing;
}

/** Every regular file under `dir` in MEMFS, relative paths ("/"-separated). */
function walk(z: SevenZip, dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const name of z.FS.readdir(dir)) {
    if (name === "." || name === "..") continue;
    const full = `${dir}/${name}`;
    const st = z.FS.lstat(full);
    if (z.FS.isDir(st.mode)) out.push(...walk(z, full, `${prefix}${name}/`));
    else if (z.FS.isFile(st.mode)) out.push(`${prefix}${name}`);
  }
  return out;
}

/** Makes `dir` and its parents. */
function mkdirs(z: SevenZip, dir: string): void {
  let at = "";
  for (const step of dir.split("/").filter(Boolean)) {
    at += `/${step}`;
    try {
      z.FS.mkdir(at);
    } catch {
      /* exists */
    }
  }
}

/** Writes the archive of everything under `from` (cwd) in `format`; answers its bytes. */
function pack(
  z: SevenZip,
  from: string,
  format: ArchiveOutput,
  level: number,
  password: string | undefined,
  budget: ArchiveBudget,
): Uint8Array {
  const plan = writePlan(format);
  mkdirs(z, "/r");
  z.FS.chdir(from);
  const inner = `/r/archive.${plan.type}`;
  const crypt = password ? (plan.type === "zip" ? [`-p${password}`, "-mem=AES256"] : [`-p${password}`, "-mhe=on"]) : [];
  // 7z: LZMA2 with its dictionary held to 4 MiB, so the encoder stays near 50 MB of WebAssembly memory at every level
  const method =
    plan.type === "7z"
      ? [`-mx=${level}`, "-m0=LZMA2:d=4m", "-mmt=1"]
      : plan.type === "zip"
        ? [`-mx=${level}`, "-mmt=1"]
        : [];
  z.capWrites(budget.maxTotalBytes * 2);
  let rc = z.run(["a", `-t${plan.type}`, ...method, ...crypt, "-bso0", "-bsp0", inner, "--", "*"]);
  if (rc !== 0)
    throw new Refusal(
      z.capped() ? "OVER_BUDGET" : "CONVERSION_FAILED",
      z.capped()
        ? `The archive grew beyond ${mib(budget.maxTotalBytes * 2)}.`
        : `7-Zip could not write the ${format} archive: ${errorsOf(z)}`,
    );
  if (!plan.outer) return z.take(inner);
  const outer = `/r/archive.${plan.ext}`;
  rc = z.run(["a", `-t${plan.outer}`, `-mx=${level}`, "-mmt=1", "-bso0", "-bsp0", outer, inner]);
  if (rc !== 0) throw new Refusal("CONVERSION_FAILED", `7-Zip could not compress the tar: ${errorsOf(z)}`);
  z.FS.unlink(inner);
  return z.take(outer);
}

/** The WebAssembly 7-Zip engine over `loader`'s module; nothing is loaded before the first call. */
export function createSevenZipEngine(loader: SevenZipLoader): ArchiveEngine {
  const budget: ArchiveBudget = { ...DEFAULT_ARCHIVE_BUDGET, ...loader.budget };
  let module: Promise<WebAssembly.Module> | undefined;
  let lastMemory = 0;
  const instance = async () => newSevenZip(await (module ??= loader.loadWasm()));

  /** Runs `body` on a fresh instance; refusals and crashes become data. */
  async function guarded<T extends object>(
    body: (z: SevenZip) => T,
  ): Promise<
    | ({ ok: true; engineVersion: string; ms: number; wasmMemoryBytes: number } & T)
    | {
        ok: false;
        error: { code: TaskErrorCode; message: string; retryable: false };
        engineVersion: string;
        ms: number;
        wasmMemoryBytes: number;
      }
  > {
    const t0 = Date.now();
    let z: SevenZip | undefined;
    try {
      z = await instance();
      const answer = body(z);
      lastMemory = z.memoryBytes();
      return { ok: true, engineVersion: version, ms: Date.now() - t0, wasmMemoryBytes: lastMemory, ...answer };
    } catch (err) {
      if (z) lastMemory = z.memoryBytes();
      const code: TaskErrorCode = err instanceof Refusal ? err.code : "CONVERSION_FAILED";
      const message = err instanceof Error ? err.message : String(err);
      // ms and memory on failures too: the engine Worker's log line (wasm/entry.ts) reports them for operators
      return {
        ok: false,
        error: { code, message, retryable: false },
        engineVersion: version,
        ms: Date.now() - t0,
        wasmMemoryBytes: lastMemory,
      };
    }
  }

  return {
    async create(req: ArchiveCreateRequest) {
      return guarded((z) => {
        // only the native engine takes members as streams (issue 49); this one holds them in MEMFS
        const files = req.files.map((f) => {
          if (!(f.data instanceof Uint8Array))
            throw new Refusal("UNSUPPORTED", `7-Zip in WebAssembly takes ${f.name} as bytes, not as a stream.`);
          return { name: f.name, data: f.data };
        });
        const total = files.reduce((n, f) => n + f.data.byteLength, 0);
        if (total > budget.maxTotalBytes)
          throw new Refusal(
            "OVER_BUDGET",
            `The files total ${mib(total)}; one archive takes at most ${mib(budget.maxTotalBytes)} here.`,
          );
        if (req.password && !["zip", "7z"].includes(writePlan(req.format).type))
          throw new Refusal(
            "UNSUPPORTED",
            `A ${req.format} archive cannot be encrypted; use zip or 7z with a password.`,
          );
        mkdirs(z, "/a");
        for (const f of files) {
          const slash = f.name.lastIndexOf("/");
          if (slash > 0) mkdirs(z, `/a/${f.name.slice(0, slash)}`);
          z.FS.writeFile(`/a/${f.name}`, f.data, { canOwn: true });
        }
        return { data: pack(z, "/a", req.format, req.level ?? 5, req.password, budget) };
      });
    },

    async extract(req: ArchiveExtractRequest) {
      return guarded((z) => {
        const name = req.input.filename;
        const password = req.password ?? "";
        // only the native engine takes an archive as a stream (issue 49); this one holds it in MEMFS
        if (!(req.input.data instanceof Uint8Array))
          throw new Refusal("UNSUPPORTED", `7-Zip in WebAssembly takes ${name} as bytes, not as a stream.`);
        const input = req.input.data;
        if (input.byteLength > budget.maxBytes)
          throw new Refusal(
            "OVER_BUDGET",
            `${name} is ${mib(input.byteLength)}; archives up to ${mib(budget.maxBytes)} are read here.`,
          );
        mkdirs(z, "/in");
        // under its own name: 7-Zip names a gzip/bzip2/xz/lzma/compress stream's single member after the archive's
        // name without its suffix, as gunzip does (issue 44: "archive~" from a fixed name), unless its header names it
        // 7-Zip's ar handler hides a .deb's debian-binary: the ar members are read from their headers too, first
        // (the input's bytes go to the file system below), and any 7-Zip did not give is added (issue 44)
        const arOwn = arMembers(input); // views into the input, which MEMFS keeps unchanged
        mkdirs(z, "/in/src");
        let path = `/in/src/${fsSafeName(name)}`;
        z.FS.writeFile(path, input, { canOwn: true });
        const plan = readPlan(req.format);
        let listing = list(z, path, password, name, input, plan.type);
        const archiveBytes = input.byteLength;
        // a compressed tar (or rpm's compressed cpio payload): unwrap the compression layers first, under the budget
        for (let layer = 0; plan.unwrapTo && !isType(listing.type, plan.unwrapTo); layer++) {
          if (layer === MAX_LAYERS)
            throw new Refusal("OPEN_FAILED", `${name} holds no ${plan.unwrapTo} archive (found ${listing.type}).`);
          const refusal = checkListing(listing, archiveBytes, budget, true);
          if (refusal) throw new Refusal(refusal.code, refusal.message);
          const dir = `/in/unwrapped${layer}`;
          const cap = unsizedCap(listing, archiveBytes, budget) ?? budget.maxTotalBytes;
          z.capWrites(cap);
          const rc = z.run(["x", `-o${dir}`, "-y", "-bso0", "-bsp0", path]);
          if (z.capped())
            throw new Refusal("OVER_BUDGET", `${name} unpacks to more than ${mib(cap)}; ${capReason(cap, budget)}.`);
          const [inner, ...more] = walk(z, dir);
          // bytes after the end of the compressed stream (old lzma/compress writers pad) are ignored, as bsdtar and gzip do
          if (rc !== 0 && !(inner && /data after the end of the payload/i.test(errorsOf(z))))
            throw new Refusal("OPEN_FAILED", `${name} could not be decompressed: ${errorsOf(z)}`);
          if (!inner || more.length)
            throw new Refusal("OPEN_FAILED", `${name} holds no single ${plan.unwrapTo} archive.`);
          z.FS.unlink(path);
          path = `${dir}/${inner}`;
          listing = list(z, path, password, name);
        }
        const refusal = checkListing(listing, archiveBytes, budget, password !== "");
        if (refusal) throw new Refusal(refusal.code, refusal.message);
        const declared = listing.entries.reduce((n, e) => n + (e.type === "file" ? e.size : 0), 0);
        // a compressor that does not record the size (compress .Z, lzma-alone): capped at the bomb ratio instead
        const unsized = unsizedCap(listing, archiveBytes, budget);
        const cap = unsized ?? Math.min(declared + 1024 * 1024, budget.maxTotalBytes);
        z.capWrites(cap);
        const type = plan.unwrapTo ? [] : plan.type ? [`-t${plan.type}`] : [];
        const rc = z.run(["x", "-o/out", "-y", ...type, `-p${password}`, "-sccUTF-8", "-bso0", "-bsp0", path]);
        if (z.capped())
          throw new Refusal(
            "OVER_BUDGET",
            unsized !== undefined
              ? `${name} unpacks to more than ${mib(cap)}; ${capReason(cap, budget)}.`
              : `${name} unpacks to more than its listing declares (${mib(declared)}) or than ${mib(budget.maxTotalBytes)}; extraction stopped.`,
          );
        if (rc !== 0) {
          // hard links cannot be made in MEMFS: they become copies below; any other complaint ends the call
          const serious = z.stderr.filter(
            (l) =>
              /ERROR|aborted/.test(l) &&
              !/Cannot create hard link|Cannot set file attribute|data after the end of the payload/.test(l),
          );
          if (serious.length || rc < 0) {
            const text = serious.slice(0, 3).join(" | ") || errorsOf(z);
            throw new Refusal(
              codeOf(text),
              `${name} could not be extracted: ${text.replace(/\s+/g, " ").slice(0, 300)}`,
            );
          }
        }
        z.FS.unlink(path);
        const { members, skipped } = collect(z, listing.entries, name);
        const have = new Set(members.map((m) => m.path));
        members.unshift(...arOwn.filter((m) => !have.has(m.name)).map((m) => ({ path: m.name, data: m.data.slice() })));
        if (!req.repack) return { members, skipped };
        // a new archive of the same members, paths kept; what was skipped stays out
        mkdirs(z, "/re");
        for (const m of members) {
          const slash = m.path.lastIndexOf("/");
          if (slash > 0) mkdirs(z, `/re/${m.path.slice(0, slash)}`);
          z.FS.writeFile(`/re/${m.path}`, m.data, { canOwn: true });
        }
        for (const e of listing.entries) if (e.type === "dir" && e.path) mkdirs(z, `/re/${e.path}`);
        return { members: [], skipped, archive: pack(z, "/re", req.repack, req.level ?? 5, undefined, budget) };
      });
    },

    async info() {
      return { engineVersion: version, wasmMemoryBytes: lastMemory };
    },
  };
}

/**
 * The regular files extracted under /out, in the listing's order: symbolic links, devices and
 * FIFOs skipped (even where 7-Zip wrote them as small files), hard links answered as copies of
 * their targets (tar's link entries, and cpio's names sharing one inode).
 */
function collect(
  z: SevenZip,
  entries: ArchiveEntry[],
  filename: string,
): { members: HeldMember[]; skipped: SkippedEntry[] } {
  const skipped: SkippedEntry[] = [];
  const byPath = new Map(entries.map((e) => [e.path, e]));
  const found = walk(z, "/out");
  const data = new Map<string, Uint8Array>();
  for (const p of found) {
    const e = byPath.get(p);
    if (e && (e.type === "symlink" || e.type === "device")) continue;
    data.set(p, z.take(`/out/${p}`));
  }
  const members: HeldMember[] = [];
  const seen = new Set<string>();
  for (const e of entries) {
    if (!e.path || e.type === "dir" || seen.has(e.path)) continue;
    seen.add(e.path);
    if (e.type === "symlink")
      skipped.push({ path: e.path, reason: `a symbolic link (to ${e.link || "?"}); links are not followed` });
    else if (e.type === "device") skipped.push({ path: e.path, reason: "a device, FIFO or socket entry" });
    else if (e.type === "hardlink") {
      const target = data.get(
        e.link
          ? e.link
              .split("/")
              .filter((s) => s && s !== ".")
              .join("/")
          : "",
      );
      if (target) members.push({ path: e.path, data: target });
      else skipped.push({ path: e.path, reason: `a hard link to ${e.link}, which is not a file of this archive` });
    } else {
      const d = data.get(e.path);
      // a cpio hard link carries its bytes under one of its names only: the empty names are copies of it
      const linked =
        e.inode && d && d.byteLength === 0
          ? entries.find((o) => o.inode === e.inode && o.size > 0 && data.get(o.path))
          : undefined;
      if (d) members.push({ path: e.path, data: linked ? data.get(linked.path)! : d });
    }
  }
  // files 7-Zip wrote under names the listing spelled differently (non-UTF-8 names)
  const unnamed = entries.every((e) => !e.path);
  for (const [p, d] of data)
    if (!seen.has(p)) members.push({ path: unnamed && data.size === 1 ? memberName(filename) : p, data: d });
  return { members, skipped };
}

/**
 * `filename` as one safe MEMFS path segment: its last segment, without control characters, at most 200 UTF-16 units
 * (the suffix kept), never empty, "." or ".." ("archive" then).
 */
export function fsSafeName(filename: string): string {
  const base = (filename.split(/[\\/]/).pop() ?? "").replace(/[\u0000-\u001f\u007f]/g, "_");
  const cut = base.length > 200 ? base.slice(base.length - 200) : base;
  return cut === "" || cut === "." || cut === ".." ? "archive" : cut;
}
