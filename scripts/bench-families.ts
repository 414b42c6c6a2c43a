/**
 * Benchmark of issue 33's format families through the native engine (POST /invoke, as the api Worker calls
 * it: container/server.ts started here) against the same tool run directly on the same file, in the same
 * run; medians of `runs` wall-clock times and their ratio (engine ÷ direct: what the engine's seam, its
 * checks and its per-call working folder cost):
 * - epub → pdf: the calibre row vs `ebook-convert in.epub out.pdf`;
 * - svg → png: the inkscape row vs `inkscape in.svg --export-type=png`;
 * - ttf → woff2: the fonttools row vs fontTools saving the font with flavor woff2 (`python3 -c`);
 * - dxf → pdf: the inkscape-cad row vs Inkscape's dxf_input.py then `inkscape --export-type=pdf`;
 * - dwg → pdf: the same row vs container/engines/cad/dwg_to_dxf.ts (LibreDWG) then the two dxf commands.
 * Run: `npm run bench -- families` (or `node scripts/bench-families.ts`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DXF_INPUT, DWG_TO_DXF } from "../container/engines/cad.ts";
import { pack, unpack } from "../native-protocol/wire.ts";
import { median, startNativeServer } from "./bench-kit.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CORPUS = process.env.CORPUS_DIR ?? join(ROOT, "..", "shared", "corpus");

async function invoke(url: string, engine: string, method: string, req: unknown): Promise<void> {
  const r = await fetch(`${url}/invoke/${engine}/${method}`, { method: "POST", body: pack(req) });
  const out = (await unpack(await r.formData())) as { ok: boolean; error?: { message: string } };
  if (!out.ok) throw new Error(`${engine}.${method}: ${out.error?.message}`);
}

/** Runs a command; throws when it fails. */
function sh(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): void {
  const r = spawnSync(cmd, args, {
    cwd,
    env: { ...process.env, HOME: cwd, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr?.toString().slice(-300)}`);
}

interface Case {
  name: string;
  file: string;
  engine: string;
  request: (data: Uint8Array, filename: string) => unknown;
  /** The same tool run directly on `input` in `dir`. */
  direct: (input: string, dir: string) => void;
}

const dxfDirect = (dxf: string, dir: string) => {
  sh("/usr/bin/python3", [DXF_INPUT, "--scalemethod=auto", "--output=d.svg", dxf], dir, {
    PYTHONPATH: "/usr/share/inkscape/extensions",
  });
  sh("inkscape", ["d.svg", "--export-area-drawing", "--export-type=pdf", "--export-filename=d.pdf"], dir);
};

const CASES: Case[] = [
  {
    name: "epub → pdf (calibre)",
    file: "ebooks/tika-testEPUB_multi-metadata-vals.epub",
    engine: "calibre",
    request: (data, filename) => ({ input: { data, filename, format: "epub" }, format: "pdf" }),
    // the environment the engine gives calibre (container/engines/calibre.ts): headless Qt, no Chromium sandbox as root
    direct: (input, dir) =>
      sh("ebook-convert", [input, join(dir, "d.pdf")], dir, {
        QT_QPA_PLATFORM: "offscreen",
        QTWEBENGINE_DISABLE_SANDBOX: "1",
        CALIBRE_CONFIG_DIRECTORY: dir,
      }),
  },
  {
    name: "svg → png (inkscape)",
    file: "vector/inkscape-gradient.svg",
    engine: "inkscape",
    request: (data, filename) => ({ input: { data, filename }, inputFormat: "svg", outputFormat: "png", options: {} }),
    direct: (input, dir) =>
      sh("inkscape", [input, "--export-type=png", `--export-filename=${join(dir, "d.png")}`], dir),
  },
  {
    name: "ttf → woff2 (fonttools)",
    file: "fonts/opensans-OpenSans-Regular.ttf",
    engine: "fonttools",
    request: (data, filename) => ({ input: { data, filename }, format: "woff2" }),
    direct: (input, dir) =>
      sh(
        "/usr/bin/python3",
        [
          "-c",
          "import sys\nfrom fontTools.ttLib import TTFont\nf=TTFont(sys.argv[1]); f.flavor='woff2'; f.save(sys.argv[2])",
          input,
          "d.woff2",
        ],
        dir,
      ),
  },
  {
    name: "dxf → pdf (inkscape-cad)",
    file: "cad/tika-testDXF_ascii.dxf",
    engine: "inkscape-cad",
    request: (data, filename) => ({ input: { data, filename }, format: "pdf" }),
    direct: dxfDirect,
  },
  {
    name: "dwg → pdf (inkscape-cad, LibreDWG)",
    file: "cad/tika-testDWG2010.dwg",
    engine: "inkscape-cad",
    request: (data, filename) => ({ input: { data, filename }, format: "pdf" }),
    direct: (input, dir) => {
      sh(process.execPath, ["--liftoff-only", DWG_TO_DXF, input, "d.dxf"], dir);
      dxfDirect("d.dxf", dir);
    },
  },
];

/** Runs every case `runs` times each way (after one unmeasured warm-up each) and prints a table. */
export async function benchFamilies(runs = 5): Promise<void> {
  const server = await startNativeServer(60000);
  const { url } = server;
  try {
    console.log(
      `\nFormat families (issue 33): native engine (POST /invoke) vs the same tool run directly on the same file; medians of ${runs}, seconds`,
    );
    console.log("| conversion | file | engine | direct | engine ÷ direct |\n|---|---|---|---|---|");
    for (const c of CASES) {
      const path = join(CORPUS, c.file);
      const data = new Uint8Array(readFileSync(path));
      const filename = c.file.split("/").pop()!;
      const viaEngine: number[] = [];
      const viaTool: number[] = [];
      for (let i = 0; i <= runs; i++) {
        let t = performance.now();
        await invoke(url, c.engine, "convert", c.request(data, filename));
        if (i) viaEngine.push((performance.now() - t) / 1000);
        const dir = mkdtempSync(join(tmpdir(), "bench-families-"));
        t = performance.now();
        c.direct(path, dir);
        if (i) viaTool.push((performance.now() - t) / 1000);
      }
      const [e, d] = [median(viaEngine), median(viaTool)];
      console.log(`| ${c.name} | ${filename} | ${e.toFixed(2)} | ${d.toFixed(2)} | ${(e / d).toFixed(2)} |`);
    }
  } finally {
    server.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchFamilies(Number(process.env.RUNS ?? 5));
