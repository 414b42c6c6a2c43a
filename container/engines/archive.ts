/**
 * Archives 7-Zip in WebAssembly does not decode (issue 34; formats: native-protocol/archive.ts), read and
 * repacked by native tools: lzip (lz), lzop (lzo, and tar.lzo/tzo before the tar), rzip (rz), unalz (alz),
 * nomarch (arc), and Debian's 7-Zip 26 (`7z`) for the tars inside and the disk images CloudConvert repacks as
 * tar.lzo (dmg, img, iso). Writes through 7-Zip (zip, 7z, tar, tar.gz, tar.bz2) and lzop (tar.lzo).
 *
 * The WebAssembly engine's hostile-archive rules hold (src/engines/sevenzip/engine.ts): the listing is
 * checked before a byte is inflated (native-protocol/archive-listing.ts: zip-slip paths → UNSAFE_ARCHIVE,
 * entry count, declared total and ratio, dictionaries, a missing password); a stream that records no size
 * (lzip/lzop/rzip as one member, lzop around a tar) is capped at the bomb ratio of the archive's size; every
 * extraction runs under RLIMIT_FSIZE (a member cannot outgrow the cap) and a watchdog on the folder's total,
 * either ending in OVER_BUDGET; only regular files are answered (symbolic links, devices and FIFOs skipped
 * and reported); a tool that fails is OPEN_FAILED, one that hangs TIMEOUT.
 */
import { lstat, mkdir, readdir, rename } from "node:fs/promises";
import { dirname, join } from "node:path";
import {
  NATIVE_ARCHIVE_BUDGET as BUDGET,
  NATIVE_ARCHIVE_STREAM_BUDGET as STREAM_BUDGET,
  type NativeArchiveCreateRequest,
  type NativeArchiveExtractRequest,
  type NativeArchiveOutput,
} from "../../native-protocol/archive.ts";
import {
  checkListing,
  parseListing,
  unsafePath,
  relativePath,
  type ArchiveEntry,
  type ArchiveListing,
} from "../../native-protocol/archive-listing.ts";
import type { ToolRun } from "../run.ts";
import { LocalFile } from "../../native-protocol/frame.ts";
import { NativeError, place, run, tool, why, type NativeCall, type NativeEngineDef } from "./common.ts";

/** The limits of one call (native-protocol/archive.ts): BUDGET for an archive sent as bytes, STREAM_BUDGET when streamed. */
type Limits = { [K in keyof typeof BUDGET]: number };

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1).replace(/\.0$/, "")} MiB`;

/** The write cap of a stream that records no size: the bomb ratio of the archive's size, within the budget. */
export function bombCap(archiveBytes: number, budget: Limits = BUDGET): number {
  return Math.min(Math.max(budget.ratioFloorBytes, archiveBytes * budget.maxRatio), budget.maxTotalBytes);
}

/** Why extraction stopped at `cap`, for the OVER_BUDGET message. */
function capReason(cap: number, budget: Limits): string {
  return cap < budget.maxTotalBytes
    ? `beyond ${budget.maxRatio}:1 of its size (above ${mib(budget.ratioFloorBytes)}) it is refused as a decompression bomb`
    : `at most ${mib(budget.maxTotalBytes)} is taken out`;
}

/**
 * The name of a single-file compressor's member: the input's name without its last extension
 * ("notes.txt.lz" → "notes.txt"), its last path step only, so it cannot climb out.
 */
export function memberName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  const stem = dot > 0 ? base.slice(0, dot) : base;
  return stem && stem !== "." && stem !== ".." ? stem : "file";
}

/** Bytes of every file under `dir` (links not followed); 0 when it does not exist. */
async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  for (const n of names) {
    const st = await lstat(join(dir, n)).catch(() => undefined);
    if (!st) continue;
    total += st.isDirectory() ? await folderBytes(join(dir, n)) : st.size;
  }
  return total;
}

/**
 * Runs an extracting tool with its writes capped at `cap` bytes: RLIMIT_FSIZE for each file, and a watchdog
 * stopping it when `watch` (its output folder or file) holds more. Exit codes are the caller's.
 * @throws NativeError OVER_BUDGET past the cap, TIMEOUT when the call's time ran out
 */
async function capped(
  call: NativeCall,
  cmd: string,
  args: string[],
  opts: { cap: number; watch: string; cwd?: string; name: string; budget?: Limits },
): Promise<ToolRun> {
  const stop = new AbortController();
  let over = false;
  const timer = setInterval(() => {
    folderBytes(opts.watch).then(async (n) => {
      const file = await lstat(opts.watch).catch(() => undefined);
      const bytes = file?.isFile() ? file.size : n;
      if (bytes > opts.cap && !over) {
        over = true;
        stop.abort();
      }
    });
  }, 200);
  try {
    const r = await run(call, cmd, args, {
      cwd: opts.cwd ?? call.work,
      fileSizeBytes: opts.cap + 1,
      signal: AbortSignal.any([call.signal, stop.signal]),
    });
    const final = (await lstat(opts.watch).catch(() => undefined))?.isFile()
      ? (await lstat(opts.watch)).size
      : await folderBytes(opts.watch);
    if (over || r.signal === "SIGXFSZ" || final > opts.cap)
      throw new NativeError(
        "OVER_BUDGET",
        `${opts.name} unpacks to more than ${mib(opts.cap)}; ${capReason(opts.cap, opts.budget ?? BUDGET)}.`,
      );
    if (r.killed) throw new NativeError("TIMEOUT", `${cmd} did not finish within its time limit and was stopped.`);
    return r;
  } finally {
    clearInterval(timer);
  }
}

/** Throws OPEN_FAILED when a reading tool did not succeed. */
function readOk(r: ToolRun, name: string, what: string): void {
  if (r.signal) throw new NativeError("OPEN_FAILED", `${name} could not be read by ${what} (it crashed: ${r.signal}).`);
  if (r.code !== 0)
    throw new NativeError(
      "OPEN_FAILED",
      `${name} could not be read as ${what}: ${why(`${r.stderr}\n${r.stdout}`, /error|corrupt|unexpected|not|bad|invalid|crc/i)}`,
    );
}

/** Throws the listing's refusal, if any. */
function refuse(listing: ArchiveListing, archiveBytes: number, hasPassword: boolean, budget: Limits): void {
  const refusal = checkListing(listing, archiveBytes, budget, hasPassword);
  if (refusal) throw new NativeError(refusal.code, refusal.message);
}

/** An entry of a listing a tool other than 7-Zip printed (unalz, nomarch): a named file of a declared size. */
function fileEntry(raw: string, size: number): ArchiveEntry {
  return { raw, path: relativePath(raw.replace(/\\/g, "/")), type: "file", size, encrypted: false, method: "" };
}

/** unalz -l's listing: "A___  <size>  <packed>  <date> <time>  <name>" between dashed rules. */
export function parseUnalzListing(out: string): ArchiveListing {
  const entries: ArchiveEntry[] = [];
  for (const l of out.split("\n")) {
    const m = /^([A-Z_]{4})\s+(\d+)\s+(\d+)\s+\S+\s+\S+\s+(.+)$/.exec(l.trimEnd());
    if (!m) continue;
    const e = fileEntry(m[4]!, Number(m[2]));
    entries.push(m[1]!.includes("D") ? { ...e, type: "dir", size: 0 } : e);
  }
  return { type: "alz", entries, errors: [] };
}

/** nomarch -l's listing: "<name>\t<size> <date> <time>". */
export function parseNomarchListing(out: string): ArchiveListing {
  const entries: ArchiveEntry[] = [];
  for (const l of out.split("\n")) {
    const m = /^(.*?)\s*\t\s*(\d+)\s+\S+\s+\S+\s*$/.exec(l);
    if (m) entries.push(fileEntry(m[1]!, Number(m[2])));
  }
  return { type: "arc", entries, errors: [] };
}

/**
 * The names in folder `at`, each valid UTF-8: a name a tool wrote in another encoding (a tar's Latin-1 names) is
 * renamed to its UTF-8 reading (U+FFFD for what does not decode), so every later step can open it by a string path.
 */
async function utf8Names(at: string): Promise<string[]> {
  const names: string[] = [];
  for (const raw of await readdir(at, { encoding: "buffer" })) {
    let name = raw.toString("utf8");
    if (!Buffer.from(name).equals(raw)) {
      for (
        let k = 2;
        await lstat(join(at, name)).then(
          () => true,
          () => false,
        );
        k++
      )
        name = `${raw.toString("utf8")}-${k}`;
      await rename(Buffer.concat([Buffer.from(`${at}/`), raw]), join(at, name));
    }
    names.push(name);
  }
  return names;
}

/**
 * The members under `dir` (regular files), in the listing's order when one is given; the rest skipped. Each is
 * answered as the file it is (issue 49): streamed back from disk on a framed call, read into the answer otherwise.
 */
async function collect(
  dir: string,
  entries: ArchiveEntry[] | undefined,
): Promise<{ members: { path: string; data: LocalFile }[]; skipped: { path: string; reason: string }[] }> {
  const found = new Map<string, LocalFile>();
  const skipped: { path: string; reason: string }[] = [];
  const kinds = new Map((entries ?? []).map((e) => [e.path, e]));
  const walk = async (at: string, prefix: string): Promise<void> => {
    for (const n of (await utf8Names(at)).sort()) {
      const st = await lstat(join(at, n));
      const rel = `${prefix}${n}`;
      const listed = kinds.get(rel);
      if (st.isDirectory()) await walk(join(at, n), `${rel}/`);
      else if (st.isSymbolicLink() || listed?.type === "symlink")
        skipped.push({ path: rel, reason: `a symbolic link (to ${listed?.link || "?"}); links are not followed` });
      else if (!st.isFile() || listed?.type === "device")
        skipped.push({ path: rel, reason: "a device, FIFO or socket entry" });
      else found.set(rel, new LocalFile(join(at, n), st.size));
    }
  };
  await walk(dir, "");
  if (found.size + skipped.length > BUDGET.maxEntries)
    throw new NativeError("OVER_BUDGET", `The archive has more than ${BUDGET.maxEntries} entries.`);
  const members: { path: string; data: LocalFile }[] = [];
  for (const e of entries ?? [])
    if (found.has(e.path)) {
      members.push({ path: e.path, data: found.get(e.path)! });
      found.delete(e.path);
    }
  for (const [path, data] of found) members.push({ path, data });
  return { members, skipped };
}

/** Lists and extracts `path` with Debian's 7-Zip (`type` forced when given) into `out`, under the checks. */
async function sevenZipRead(
  call: NativeCall,
  path: string,
  out: string,
  opts: { type?: string; name: string; archiveBytes: number; password?: string; budget: Limits },
) {
  const z = tool(call, "7z").path;
  const type = opts.type ? [`-t${opts.type}`] : [];
  const pass = `-p${opts.password ?? ""}`;
  const l = await run(call, z, ["l", "-slt", ...type, pass, "-sccUTF-8", path]);
  if (l.killed) throw new NativeError("TIMEOUT", `7-Zip did not finish listing ${opts.name} and was stopped.`);
  const listing = parseListing(l.stdout);
  if (l.code !== 0 || !listing.type)
    throw new NativeError(
      /Wrong password|encrypted/i.test(l.stderr + l.stdout) ? "INVALID_PASSWORD" : "OPEN_FAILED",
      `${opts.name} could not be read as an archive: ${why(`${l.stderr}\n${l.stdout}`, /ERROR|Error|Can ?not/)}`,
    );
  refuse(listing, opts.archiveBytes, !!opts.password, opts.budget);
  const files = listing.entries.filter((e) => e.type === "file");
  const declared = files.reduce((n, e) => n + e.size, 0);
  const cap = files.every((e) => e.sized !== false)
    ? Math.min(declared + 1024 * 1024, opts.budget.maxTotalBytes)
    : bombCap(opts.archiveBytes, opts.budget);
  await mkdir(out, { recursive: true });
  const r = await capped(call, z, ["x", `-o${out}`, "-y", ...type, pass, "-sccUTF-8", "-bso0", "-bsp0", path], {
    cap,
    watch: out,
    name: opts.name,
    budget: opts.budget,
  });
  // 7-Zip exits 2 when it ignored a link pointing out of the folder: such a link is skipped anyway (collect)
  const linksOnly =
    r.code === 2 &&
    /Dangerous link path was ignored/.test(r.stderr + r.stdout) &&
    !/ERROR: (?!Dangerous link path was ignored)/.test(r.stderr + r.stdout);
  if (r.code !== 0 && r.code !== 1 && !linksOnly) readOk(r, opts.name, "an archive by 7-Zip");
  return listing.entries;
}

/** Writes everything under `from` as a `format` archive at `target` (7-Zip, and lzop for tar.lzo). */
async function pack(
  call: NativeCall,
  from: string,
  format: NativeArchiveOutput,
  level: number,
  password?: string,
): Promise<string> {
  const z = tool(call, "7z").path;
  const outDir = join(call.work, "packed");
  await mkdir(outDir, { recursive: true });
  const base = { zip: "zip", "7z": "7z" }[format as "zip" | "7z"] ?? "tar";
  const inner = join(outDir, `archive.${base}`);
  if (password && base === "tar")
    throw new NativeError("UNSUPPORTED", `A ${format} archive cannot be encrypted; use zip or 7z with a password.`);
  const crypt = password ? [`-p${password}`, base === "zip" ? "-mem=AES256" : "-mhe=on"] : [];
  const method = base === "tar" ? [] : [`-mx=${level}`, "-mmt=1"];
  const fail = (r: ToolRun, what: string) => {
    if (r.code !== 0)
      throw new NativeError("CONVERSION_FAILED", `${what} could not write the ${format} archive: ${why(r.stderr)}`);
  };
  fail(
    await run(call, z, ["a", `-t${base}`, ...method, ...crypt, "-bso0", "-bsp0", inner, "."], { cwd: from }),
    "7-Zip",
  );
  if (base !== "tar" || format === "tar") return inner;
  const outer = `${inner}.${format === "tar.lzo" ? "lzo" : format.includes("bz") ? "bz2" : "gz"}`;
  if (format === "tar.lzo")
    fail(await run(call, tool(call, "lzop").path, [`-${Math.min(9, Math.max(1, level))}`, "-o", outer, inner]), "lzop");
  else {
    const t = format.includes("bz") ? "bzip2" : "gzip";
    fail(await run(call, z, ["a", `-t${t}`, `-mx=${level}`, "-mmt=1", "-bso0", "-bsp0", outer, inner]), "7-Zip");
  }
  return outer;
}

/** The file name a tool is given for the input (lzop and rzip want their own extensions). */
const INPUT_EXT: Record<NativeArchiveExtractRequest["format"], string> = {
  lz: "lz",
  lzo: "lzo",
  rz: "rz",
  "tar.lzo": "lzo",
  tzo: "lzo",
  "tar.lz": "lz",
  alz: "alz",
  arc: "arc",
  dmg: "dmg",
  img: "img",
  iso: "iso",
  // issue 49: archives over the WebAssembly engine's budget, streamed here
  zip: "zip",
  "7z": "7z",
  tar: "tar",
};

/** Reads the archive into <work>/out; answers the listing's entries where it has one. */
async function unpack(
  call: NativeCall,
  req: NativeArchiveExtractRequest,
  input: string,
  out: string,
  bytes: number,
  budget: Limits,
) {
  const name = req.input.filename;
  await mkdir(out, { recursive: true });
  const single = async (t: string, args: (target: string) => string[], what: string, target: string) => {
    const r = await capped(call, tool(call, t).path, args(target), {
      cap: bombCap(bytes, budget),
      watch: target,
      name,
      budget,
    });
    readOk(r, name, what);
  };
  switch (req.format) {
    case "lz":
      return single("lzip", (o) => ["-d", "-o", o, input], "lzip data", join(out, memberName(name)));
    case "lzo":
      return single("lzop", (o) => ["-d", "-f", "-o", o, input], "lzop data", join(out, memberName(name)));
    case "rz":
      return single("rzip", (o) => ["-d", "-k", "-f", "-o", o, input], "rzip data", join(out, memberName(name)));
    case "tar.lzo":
    case "tzo": {
      const tar = join(call.work, "inner.tar");
      await single("lzop", (o) => ["-d", "-f", "-o", o, input], "lzop data", tar);
      return sevenZipRead(call, tar, out, { type: "tar", name, archiveBytes: bytes, budget });
    }
    case "tar.lz": {
      const tar = join(call.work, "inner.tar");
      await single("lzip", (o) => ["-d", "-o", o, input], "lzip data", tar);
      return sevenZipRead(call, tar, out, { type: "tar", name, archiveBytes: bytes, budget });
    }
    case "alz": {
      const unalz = tool(call, "unalz").path;
      const l = await run(call, unalz, ["-l", input]);
      const listing = parseUnalzListing(l.stdout);
      if (l.code !== 0 || !listing.entries.length || /error|fail|corrupt|not alz/i.test(l.stdout + l.stderr))
        throw new NativeError(
          "OPEN_FAILED",
          `${name} could not be read as an ALZ archive: ${why(l.stdout + l.stderr)}`,
        );
      refuse(listing, bytes, false, budget);
      const cap = Math.min(listing.entries.reduce((n, e) => n + e.size, 0) + 1024 * 1024, budget.maxTotalBytes);
      const r = await capped(call, unalz, ["-d", out, input], { cap, watch: out, name, budget });
      readOk(r, name, "an ALZ archive");
      if (/error|fail|corrupt/i.test(r.stdout + r.stderr))
        throw new NativeError(
          "OPEN_FAILED",
          `${name} could not be extracted: ${why(r.stdout + r.stderr, /error|fail|corrupt/i)}`,
        );
      return listing.entries;
    }
    case "arc": {
      const nomarch = tool(call, "nomarch").path;
      const l = await run(call, nomarch, ["-l", input]);
      const listing = parseNomarchListing(l.stdout);
      if (l.code !== 0 || !listing.entries.length)
        throw new NativeError(
          "OPEN_FAILED",
          `${name} could not be read as an ARC archive: ${why(l.stdout + l.stderr)}`,
        );
      refuse(listing, bytes, false, budget);
      const cap = Math.min(listing.entries.reduce((n, e) => n + e.size, 0) + 1024 * 1024, budget.maxTotalBytes);
      const r = await capped(call, nomarch, [input], { cap, watch: out, cwd: out, name, budget });
      readOk(r, name, "an ARC archive");
      if (/error|bad|corrupt|crc/i.test(r.stdout + r.stderr))
        throw new NativeError("OPEN_FAILED", `${name} could not be extracted: ${why(r.stdout + r.stderr)}`);
      return listing.entries;
    }
    case "dmg":
    case "img":
    case "iso":
      return sevenZipRead(call, input, out, { name, archiveBytes: bytes, password: req.password, budget });
    case "zip":
    case "7z":
    case "tar":
      return sevenZipRead(call, input, out, {
        type: req.format,
        name,
        archiveBytes: bytes,
        password: req.password,
        budget,
      });
  }
}

/**
 * extract: the members of the archive, or (repack) a new archive of them, paths kept. An archive that came streamed
 * (issue 49: a LocalFile in the call's folder) is read under the stream budget, and its members go back as files.
 */
async function extract(req: NativeArchiveExtractRequest, call: NativeCall) {
  const name = req.input.filename;
  const data = req.input.data;
  if (!(req.format in INPUT_EXT))
    throw new NativeError("UNSUPPORTED", `The native archive engine does not read ${req.format}.`);
  if (!(data instanceof Uint8Array) && !(data instanceof LocalFile))
    throw new NativeError("UNSUPPORTED", `${name} reached the native engine as neither bytes nor a file.`);
  const streamed = data instanceof LocalFile;
  const budget: Limits = streamed ? STREAM_BUDGET : BUDGET;
  const bytes = streamed ? data.size : data.byteLength;
  if (bytes > budget.maxBytes)
    throw new NativeError(
      "OVER_BUDGET",
      `${name} is ${mib(bytes)}; archives up to ${mib(budget.maxBytes)} are read here.`,
    );
  const input = await place(call, `input.${INPUT_EXT[req.format]}`, data);
  const out = join(call.work, "out");
  const entries = await unpack(call, req, input, out, bytes, budget);
  for (const e of entries ?? [])
    if (unsafePath(e.raw)) throw new NativeError("UNSAFE_ARCHIVE", `The member "${e.raw}" is unsafe.`);
  const { members, skipped } = await collect(out, entries ?? undefined);
  if (!req.repack) return { members, skipped };
  // a new archive of the same members, paths kept; what was skipped stays out
  const re = join(call.work, "re");
  await mkdir(re, { recursive: true });
  for (const e of entries ?? []) if (e.type === "dir" && e.path) await mkdir(join(re, e.path), { recursive: true });
  for (const m of members) {
    await mkdir(dirname(join(re, m.path)), { recursive: true });
    await rename(m.data.path, join(re, m.path));
  }
  const packed = await pack(call, re, req.repack, req.level ?? 5);
  return { members: [], skipped, archive: new LocalFile(packed, (await lstat(packed)).size) };
}

/**
 * create: one archive of the request's files (tar.lzo included), written on disk and answered as a LocalFile
 * (streamed back on a framed call, read into the answer's bytes on the buffered wire). Members come as bytes, or
 * (issue 49: files over the WebAssembly 7-Zip's budget) as files a framed call wrote to the call's folder, moved into
 * place: their total is then held to the streamed budget, the bytes' to the in-memory one. A member's name is one
 * path the archive may hold (no absolute path, no "..": UNSAFE_ARCHIVE), written where it says under the folder 7-Zip
 * packs, and never a second time (CONVERSION_FAILED: the operation makes them unique).
 */
async function create(req: NativeArchiveCreateRequest, call: NativeCall) {
  const streamed = req.files.some((f) => f.data instanceof LocalFile);
  const budget: Limits = streamed ? STREAM_BUDGET : BUDGET;
  let total = 0;
  for (const f of req.files) {
    if (!(f.data instanceof Uint8Array) && !(f.data instanceof LocalFile))
      throw new NativeError("UNSUPPORTED", `${f.name} reached the native engine as neither bytes nor a file.`);
    total += f.data instanceof LocalFile ? f.data.size : f.data.byteLength;
  }
  if (total > budget.maxTotalBytes)
    throw new NativeError(
      "OVER_BUDGET",
      `The files total ${mib(total)}; one archive takes at most ${mib(budget.maxTotalBytes)} here.`,
    );
  if (req.files.length > budget.maxEntries)
    throw new NativeError("OVER_BUDGET", `${req.files.length} files; one archive takes at most ${budget.maxEntries}.`);
  const dir = join(call.work, "a");
  await mkdir(dir, { recursive: true });
  const taken = new Set<string>();
  for (const f of req.files) {
    const rel = typeof f.name === "string" ? relativePath(f.name) : "";
    if (!rel || unsafePath(f.name) || rel.split("/").some((s) => s === "." || s === ".."))
      throw new NativeError("UNSAFE_ARCHIVE", `The file name "${String(f.name)}" is unsafe.`);
    if (taken.has(rel)) throw new NativeError("CONVERSION_FAILED", `Two files are named "${rel}".`);
    taken.add(rel);
    await mkdir(dirname(join(dir, rel)), { recursive: true });
    await place(call, join("a", rel), f.data as Uint8Array | LocalFile);
  }
  const packed = await pack(call, dir, req.format, req.level ?? 5, req.password);
  return { data: new LocalFile(packed, (await lstat(packed)).size) };
}

/**
 * The native archive engine (kind archive: create, extract, info); each format checks its own tool. It takes files
 * (issue 49): a streamed archive reaches `extract` as a LocalFile in the call's folder, and its members (or the
 * repacked archive) go back as files streamed from disk; the files of `create` arrive the same way, and the archive
 * it writes goes back from disk.
 */
export const archiveNative = {
  kind: "archive",
  methods: {
    extract,
    create,
    info: async () => ({ wasmMemoryBytes: 0 }),
  },
  files: true,
} satisfies NativeEngineDef<"archive">;

export default archiveNative;
