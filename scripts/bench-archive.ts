/**
 * Benchmark of the archive engine (issue 15): for each format on the same files, the WebAssembly
 * engine in-process (nodeSevenZipEngine, the code the engine Worker runs) against the native tools
 * in the same run, writing the archive and reading it back.
 * - input: ~4.5 MB of mixed corpus files (PDFs, JPEG, TIFF, PSD, office, text/HTML/JSON, FLAC),
 *   some compressible, most already compressed; written to a tmp dir first for the native tools (not timed).
 * - create: `engine.create()` wall time against the native command with the engine's settings where
 *   the tool has them: `7z a -t7z -m0=LZMA2:d=4m -mx=5 -mmt=1`, `zip -q` (Info-ZIP, its default
 *   deflate level 6; or `7z a -tzip -mx=5 -mmt=1` when zip is absent), `tar -cf`, `tar -czf`, `tar -cjf`
 *   (gzip -6 and bzip2 -9 by tar's defaults, against 7-Zip's -mx=5 in the engine).
 * - extract: the engine's own archive read back, by `engine.extract()` and natively by `unzip -qo`,
 *   `tar -xf`, `7z x` into an emptied tmp dir (the emptying not timed).
 * - native ms includes process start (and tar's gzip/bzip2 child); engine ms everything a call does
 *   (a fresh instance, the files in and out of MEMFS, 7-Zip's runs). Medians of `runs` after one
 *   warm-up (which also compiles the 1.6 MB module).
 * - WASM MB: the instance's WebAssembly memory at the end of the call (a fresh instance per call, so
 *   the call's peak), largest over the runs, 10^6 bytes.
 * - correctness: every engine extraction is compared with the input bytes; once per format, the
 *   native extraction of the engine's archive and the engine's extraction of the native archive too.
 * - issue 34: extraction of a Debian package and an RPM from the corpus by the engine against `bsdtar -xf`.
 * The TypeScript engine (src/, extensionless imports) is bundled with esbuild (wrangler's own) into
 * node_modules/.cache, as bench-media.ts does.
 * Run: `npm run bench -- archive` (or `node scripts/bench-archive.ts [runs]` with Node ≥ 23).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median, bundleForNode } from "./bench-kit.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CORPUS = process.env.CORPUS_DIR ?? join(ROOT, "..", "shared", "corpus");
const TMP = join(tmpdir(), "bench-archive-");

/** The input: corpus paths, flat in the archive under their base names. */
const FILES = [
  "pdf/pdfjs-tracemonkey.pdf",
  "scans/ocrmypdf-multipage.pdf",
  "pdf/ocrmypdf-enormous.pdf",
  "pdf/cloudconvert-input.pdf",
  "images/exif-orientation-Landscape_1.jpg",
  "images/pillow-hopper.psd",
  "images/pillow-hopper.tif",
  "scans/tesseract-eurotext.tif",
  "images/ghostscript-tiger.eps",
  "office/python-pptx-shp-movie-props.pptx",
  "office/tika-testWORD.doc",
  "office/tika-testEXCEL.xls",
  "office/tika-testPPT.ppt",
  "office/tika-testRTF.rtf",
  "html/tika-testHTML_embedded_img.html",
  "pdf/ghostscript-escher.ps",
  "MANIFEST.md",
  "facts.json",
  "audio/filetype-fixture.flac",
];

type Format = "zip" | "tar" | "tar.gz" | "tar.bz2" | "7z";

/**
 * Issue 34's reads in the bench: corpus packages, their format, and the members bsdtar extracts that
 * 7-Zip leaves out (a deb's debian-binary marker).
 */
const NEW_READS: [string, "deb" | "rpm", string[]][] = [
  ["archives/debian-fonts-inconsolata_001.010-6_all.deb", "deb", ["debian-binary"]],
  ["archives/libarchive-test_read_format_cpio_svr4_gzip_rpm.rpm", "rpm", []],
];

/** Every regular file under `dir` by relative path ("/"-separated). */
function readTree(dir: string, prefix = ""): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) for (const [k, v] of readTree(join(dir, e.name), `${prefix}${e.name}/`)) out.set(k, v);
    else if (e.isFile()) out.set(`${prefix}${e.name}`, new Uint8Array(readFileSync(join(dir, e.name))));
  }
  return out;
}
const FORMATS: Format[] = ["zip", "tar", "tar.gz", "tar.bz2", "7z"];

const has = (tool: string) => spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;

/** The native command writing `out` from the `names` in the cwd, and the one reading `archive` into `dir`. */
function nativeCommands(format: Format, zipTool: "zip" | "7z") {
  const create = (out: string, names: string[]): [string, string[]] => {
    switch (format) {
      case "zip":
        return zipTool === "zip"
          ? ["zip", ["-q", "-X", out, "--", ...names]]
          : ["7z", ["a", "-tzip", "-mx=5", "-mmt=1", "-bso0", "-bsp0", out, "--", ...names]];
      case "7z":
        return ["7z", ["a", "-t7z", "-m0=LZMA2:d=4m", "-mx=5", "-mmt=1", "-bso0", "-bsp0", out, "--", ...names]];
      case "tar":
        return ["tar", ["-cf", out, "--", ...names]];
      case "tar.gz":
        return ["tar", ["-czf", out, "--", ...names]];
      case "tar.bz2":
        return ["tar", ["-cjf", out, "--", ...names]];
    }
  };
  const extract = (archive: string, dir: string): [string, string[]] => {
    switch (format) {
      case "zip":
        return ["unzip", ["-qo", archive, "-d", dir]];
      case "7z":
        return ["7z", ["x", "-y", "-bso0", "-bsp0", `-o${dir}`, archive]];
      default:
        return ["tar", ["-xf", archive, "-C", dir]];
    }
  };
  return { create, extract };
}

/** One native process, wall ms (start-up included). */
function timeNative([cmd, args]: [string, string[]], cwd: string): number {
  const t = performance.now();
  const r = spawnSync(cmd, args, { cwd, stdio: ["ignore", "ignore", "pipe"], maxBuffer: 1 << 24 });
  const ms = performance.now() - t;
  if (r.status !== 0)
    throw new Error(
      `native ${cmd} ${args.slice(0, 6).join(" ")}…: exit ${r.status}: ${r.stderr.toString().trim().split("\n").slice(-3).join(" | ")}`,
    );
  return ms;
}

/** Throws unless `got` holds exactly the `want` files, byte for byte. */
function verify(what: string, want: Map<string, Uint8Array>, got: Map<string, Uint8Array>): void {
  if (got.size !== want.size) throw new Error(`${what}: ${got.size} members, expected ${want.size}`);
  for (const [name, data] of want) {
    const g = got.get(name);
    if (!g) throw new Error(`${what}: ${name} missing`);
    if (
      Buffer.compare(
        Buffer.from(g.buffer, g.byteOffset, g.byteLength),
        Buffer.from(data.buffer, data.byteOffset, data.byteLength),
      ) !== 0
    )
      throw new Error(`${what}: ${name} differs (${g.byteLength} bytes, expected ${data.byteLength})`);
  }
}

/** The regular files under `dir` by base name (the archives are flat). */
function readDir(dir: string): Map<string, Uint8Array> {
  return new Map(readdirSync(dir).map((n) => [n, new Uint8Array(readFileSync(join(dir, n)))]));
}

/** Bundles the TypeScript engine for Node with esbuild (wrangler's own) into node_modules/.cache. */
async function loadEngine(): Promise<
  typeof import("../src/runtime/node/sevenzip") & { SEVENZIP_ENGINE: { version: string } }
> {
  return bundleForNode<typeof import("../src/runtime/node/sevenzip") & { SEVENZIP_ENGINE: { version: string } }>(
    "bench-archive-engine",
    'export { nodeSevenZipEngine } from "./src/runtime/node/sevenzip";\nexport { SEVENZIP_ENGINE } from "./src/engines/sevenzip/version";',
  );
}

/** Members by path; the WebAssembly engine answers bytes (only the native one streams, issue 49). */
function heldMembers(members: { path: string; data: Uint8Array | { length: number } }[]): Map<string, Uint8Array> {
  return new Map(
    members.map((m) => {
      if (!(m.data instanceof Uint8Array)) throw new Error(`${m.path} came as a stream`);
      return [m.path, m.data];
    }),
  );
}

async function sequence<T>(n: number, fn: () => Promise<T> | T): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(await fn());
  return out;
}

export interface ArchiveBenchRow {
  name: string;
  engineMs: number;
  nativeMs: number;
  ratio: number;
  /** create: each side's archive; extract: the one archive both read (nativeBytes null). */
  engineBytes: number;
  nativeBytes: number | null;
  wasmMB: number;
}

/** Markdown table of benchArchive rows. */
export function formatArchiveBench(rows: ArchiveBenchRow[]): string {
  const f = (x: number) => x.toFixed(0);
  return [
    "| case | engine ms | native ms | ratio | archive bytes (engine / native) | WASM MB |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.name} | ${f(r.engineMs)} | ${f(r.nativeMs)} | ${r.ratio.toFixed(2)} | ${r.nativeBytes === null ? `${r.engineBytes} (read by both)` : `${r.engineBytes} / ${r.nativeBytes}`} | ${r.wasmMB.toFixed(1)} |`,
    ),
  ].join("\n");
}

/** Runs every format and prints the table; medians of `runs` after one warm-up each. */
export async function benchArchive(runs = 5): Promise<ArchiveBenchRow[]> {
  const t0 = performance.now();
  const missing = FILES.filter((f) => !existsSync(join(CORPUS, f)));
  if (missing.length) {
    console.log(`\n7-Zip engine: corpus files missing under ${CORPUS} (${missing.slice(0, 3).join(", ")}…); skipped.`);
    return [];
  }
  const lacking = ["7z", "tar", "gzip", "bzip2", "unzip"].filter((t) => !has(t));
  if (lacking.length) {
    console.log(`\n7-Zip engine: native ${lacking.join(", ")} not installed (npm run setup:native); skipped.`);
    return [];
  }
  const zipTool = has("zip") ? "zip" : "7z";
  const native7z =
    execFileSync("7z", ["i"])
      .toString()
      .split("\n")
      .find((l) => /7-Zip/.test(l))
      ?.replace(/\s*:\s*Copyright.*$/, "")
      .trim() ?? "7z";
  const zipVersion =
    zipTool === "zip"
      ? (execFileSync("zip", ["-v"])
          .toString()
          .split("\n")
          .find((l) => /^This is Zip/.test(l))
          ?.replace(/^This is /, "")
          .replace(/ \(.*$/, "") ?? "zip")
      : native7z;
  const tarVersion = execFileSync("tar", ["--version"]).toString().split("\n")[0]!;

  const input = new Map(FILES.map((f) => [basename(f), new Uint8Array(readFileSync(join(CORPUS, f)))]));
  const names = [...input.keys()];
  const total = [...input.values()].reduce((n, d) => n + d.byteLength, 0);
  // the engine's MEMFS owns what it is handed (canOwn): every call gets its own copies, made before the clock starts
  const files = () => names.map((name) => ({ name, data: input.get(name)!.slice() }));

  const { nodeSevenZipEngine, SEVENZIP_ENGINE } = await loadEngine();
  const engine = nodeSevenZipEngine();
  const dir = mkdtempSync(TMP);
  const src = join(dir, "src");
  const out = join(dir, "out");
  mkdirSync(src);
  for (const [name, data] of input) writeFileSync(join(src, name), data);
  const rows: ArchiveBenchRow[] = [];
  try {
    for (const format of FORMATS) {
      const native = nativeCommands(format, zipTool);

      // create: engine
      const create = async () => {
        const req = { files: files(), format };
        const t = performance.now();
        const r = await engine.create(req);
        const ms = performance.now() - t;
        if (!r.ok) throw new Error(`engine create ${format}: ${r.error.code} ${r.error.message}`);
        return { ms, r };
      };
      const first = await create(); // warm-up (the first one compiles the module)
      // the WebAssembly engine answers bytes (only the native one streams an archive back)
      const engineArchive = first.r.data;
      if (!(engineArchive instanceof Uint8Array)) throw new Error(`engine create ${format}: a stream, not bytes`);
      let createPeak = first.r.wasmMemoryBytes ?? 0;
      const createMs = median(
        await sequence(runs, async () => {
          const { ms, r } = await create();
          createPeak = Math.max(createPeak, r.wasmMemoryBytes ?? 0);
          return ms;
        }),
      );

      // create: native, into a fresh path each time (zip and 7z would add to an existing archive)
      const nativePath = join(dir, `native.${format}`);
      const nativeCreate = () => {
        rmSync(nativePath, { force: true });
        return timeNative(native.create(nativePath, names), src);
      };
      nativeCreate(); // warm-up (page cache)
      const nativeCreateMs = median(await sequence(runs, nativeCreate));
      const nativeArchive = new Uint8Array(readFileSync(nativePath));

      // extract: the engine's archive, by the engine and natively
      const filename = `archive.${format}`;
      const extract = async () => {
        const req = { input: { data: engineArchive.slice(), filename }, format };
        const t = performance.now();
        const r = await engine.extract(req);
        const ms = performance.now() - t;
        if (!r.ok) throw new Error(`engine extract ${format}: ${r.error.code} ${r.error.message}`);
        verify(`engine extract of the engine's ${format}`, input, heldMembers(r.members));
        return { ms, r };
      };
      const firstX = await extract();
      let extractPeak = firstX.r.wasmMemoryBytes ?? 0;
      const extractMs = median(
        await sequence(runs, async () => {
          const { ms, r } = await extract();
          extractPeak = Math.max(extractPeak, r.wasmMemoryBytes ?? 0);
          return ms;
        }),
      );

      const enginePath = join(dir, filename);
      writeFileSync(enginePath, engineArchive);
      const nativeExtract = () => {
        rmSync(out, { recursive: true, force: true });
        mkdirSync(out);
        return timeNative(native.extract(enginePath, out), dir);
      };
      nativeExtract(); // warm-up
      verify(`native extract of the engine's ${format}`, input, readDir(out));
      const nativeExtractMs = median(await sequence(runs, nativeExtract));

      // interop, once: the engine reads the native tool's archive
      const cross = await engine.extract({
        input: { data: nativeArchive.slice(), filename: `native.${format}` },
        format,
      });
      if (!cross.ok)
        throw new Error(`engine extract of the native ${format}: ${cross.error.code} ${cross.error.message}`);
      verify(`engine extract of the native ${format}`, input, heldMembers(cross.members));

      rows.push({
        name: `${format} create`,
        engineMs: createMs,
        nativeMs: nativeCreateMs,
        ratio: createMs / nativeCreateMs,
        engineBytes: engineArchive.byteLength,
        nativeBytes: nativeArchive.byteLength,
        wasmMB: createPeak / 1e6,
      });
      rows.push({
        name: `${format} extract`,
        engineMs: extractMs,
        nativeMs: nativeExtractMs,
        ratio: extractMs / nativeExtractMs,
        engineBytes: engineArchive.byteLength,
        nativeBytes: null,
        wasmMB: extractPeak / 1e6,
      });
    }
    // issue 34: extraction of two formats 7-Zip reads since then, real packages of the corpus, against bsdtar -xf
    for (const [rel, format, leftOut] of NEW_READS) {
      const data = new Uint8Array(readFileSync(join(CORPUS, rel)));
      const x = async () => {
        const t = performance.now();
        const r = await engine.extract({ input: { data: data.slice(), filename: basename(rel) }, format });
        const ms = performance.now() - t;
        if (!r.ok) throw new Error(`engine extract ${rel}: ${r.error.code} ${r.error.message}`);
        return { ms, r };
      };
      const firstX = await x();
      let peak = firstX.r.wasmMemoryBytes ?? 0;
      const engineMs = median(
        await sequence(runs, async () => {
          const { ms, r } = await x();
          peak = Math.max(peak, r.wasmMemoryBytes ?? 0);
          return ms;
        }),
      );
      const nativeX = () => {
        rmSync(out, { recursive: true, force: true });
        mkdirSync(out);
        return timeNative(["bsdtar", ["-xf", join(CORPUS, rel), "-C", out]], dir);
      };
      nativeX();
      const nativeFiles = readTree(out);
      for (const p of leftOut) nativeFiles.delete(p);
      verify(`engine extract of ${rel}`, nativeFiles, heldMembers(firstX.r.members));
      const nativeMs = median(await sequence(runs, nativeX));
      rows.push({
        name: `${format} extract (${basename(rel)})`,
        engineMs,
        nativeMs,
        ratio: engineMs / nativeMs,
        engineBytes: data.byteLength,
        nativeBytes: null,
        wasmMB: peak / 1e6,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const zipNative =
    zipTool === "zip"
      ? `${zipVersion} \`zip -q\` (deflate level 6) / unzip -qo`
      : `${native7z} \`7z a -tzip -mx=5 -mmt=1\` (zip binary absent) / unzip -qo`;
  console.log(
    `\n7-Zip engine (7-Zip ${SEVENZIP_ENGINE.version} in WebAssembly, 7z-wasm; Node ${process.version}, in-process) vs native tools; ${names.length} corpus files, ${(total / 1e6).toFixed(2)} MB; medians of ${runs}`,
  );
  console.log(
    `native: zip: ${zipNative}; tar*: ${tarVersion} -cf/-czf/-cjf (gzip -6, bzip2 -9) / -xf; 7z: ${native7z} \`7z a -t7z -m0=LZMA2:d=4m -mx=5 -mmt=1\` / \`7z x\``,
  );
  console.log(formatArchiveBench(rows));
  console.log(
    `(extract rows: both sides read the engine's archive; every engine extraction checked byte for byte against the input, the native extraction and the engine's read of the native archive once per format; native ms includes process start; section took ${((performance.now() - t0) / 1000).toFixed(0)} s)`,
  );
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await benchArchive(Number(process.argv[2] ?? 5));
