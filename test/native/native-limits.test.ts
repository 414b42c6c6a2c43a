/**
 * The native engine's limits (container/run.ts, container/server.ts, issue 12: "a hung or crashed
 * tool ends as a task error with a code"): a tool over its time limit or whose task is cancelled is
 * killed — its whole process group, seen gone in /proc — and the next call works; a native engine
 * without its tools (PATH=/nonexistent) reports them missing, naming the Debian packages (dpkg is
 * the oracle), and a task on it ends ENGINE_UNAVAILABLE.
 *
 * No wall-clock bound is asserted: each claim is an event (the TIMEOUT answer, the abort's
 * rejection, the tool processes gone) awaited with a generous failure bound, on an input whose
 * natural Ghostscript run is far longer than that bound — so "gone within the bound" can only
 * mean "killed", however loaded the machine is.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TaskError, toFailure } from "../../src/engines/errors";
import type { EngineInstances } from "../../src/engines/registry";
import type { OperationContext } from "../../src/operations/types";
import { execute } from "../../src/runner/execute";
import { nodeEngines } from "../../src/runtime/node/engines";
import { fact } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { fullContext, repeatedPdf } from "../support/native-fixtures";
import {
  dpkgOwner,
  expectPdfA,
  gmVersion,
  gsVersion,
  imVersion,
  pidsGone,
  qpdfVersion,
  toolsGone,
  toolsUnder,
  until,
} from "../support/native-oracles";
import { bytesInput, corpusInput, expectTaskError, testContext, tmpFile } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";

let native: NativeServer;
let bare: NativeServer;
/** The in-process WebAssembly engines, created once (their modules load on first use). */
let wasm: EngineInstances;
/** The native engine's work root (NATIVE_WORK_DIR): every tool run's arguments name a path under it. */
let root: string;
/** This file's own scratch folder (the long-running PDF). */
let scratch: string;
let longPdf: string;

/** A context with the WebAssembly engines and the native rows (the production order). */
const full = (opts?: { signal?: AbortSignal; timeoutMs?: number }, signal?: AbortSignal): OperationContext =>
  fullContext(wasm, native, opts, signal);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "native-limits-root-"));
  scratch = mkdtempSync(join(tmpdir(), "native-limits-"));
  wasm = nodeEngines();
  [native, bare] = await Promise.all([
    startNativeEngine({ NATIVE_WORK_DIR: root }),
    startNativeEngine({ PATH: "/nonexistent" }),
  ]);
  longPdf = repeatedPdf(HEAVY, HEAVY_TIMES, join(scratch, "long.pdf"));
}, scaled(120_000));

afterAll(async () => {
  await Promise.all([native?.stop(), bare?.stop()]);
  for (const d of [root, scratch]) if (d) rmSync(d, { recursive: true, force: true });
});

/**
 * The long-running job: pdf/x of the 14-page, 180-image corpus PDF repeated HEAVY_TIMES times (~1 MB,
 * qpdf shares the repeated resources). One copy takes Ghostscript ~3 s of CPU here, so the whole is
 * minutes — far past the test's timeout (60 s): a wait that ends sooner ended because of the limit
 * or the abort, never because the tool finished by itself.
 */
const HEAVY = "pdf/pdfjs-tracemonkey.pdf";
const HEAVY_TIMES = 60;

/** Pages of the 12-page corpus PDF per facts.json. */
const PAGES12 = Number(fact("pdf/gotenberg-pages_12.pdf").pages);

// ---------------------------------------------------------------------------------------------
// Time limits and cancellation
// ---------------------------------------------------------------------------------------------

describe("a hung or cancelled tool", () => {
  const long = () => bytesInput("long.pdf", new Uint8Array(readFileSync(longPdf)));
  /** Ghostscript processes of this file's native engine (its work root is this file's own). */
  const ghostscripts = () => toolsUnder(root).filter((p) => /\bgs\b|ghostscript/.test(p.cmd));

  it("a time limit (timeoutMs) on a Ghostscript job far longer than it → TIMEOUT, the tool is killed, the next call works", async () => {
    // 5 s: long enough to see the tool in /proc on a loaded machine; the job itself would run for minutes
    const seen = new Set<number>();
    const pending = expectTaskError(
      () => execute("pdf/x", { variant: "4" }, [long()], full({ timeoutMs: 5_000 })),
      "TIMEOUT",
    );
    let settled = false;
    void pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    await until(() => {
      for (const p of ghostscripts()) seen.add(p.pid);
      return settled;
    }, scaled(55_000));
    const err = await pending; // without the limit this waits for the natural end: minutes, past the test's timeout
    expect([...seen], "Ghostscript ran for this call before the limit stopped it").not.toEqual([]);
    expect(err.message).toMatch(/time limit/i);
    expect(await toolsGone(root, 30_000), "tool processes left running under the native engine's work root").toEqual(
      [],
    );
    expect(await pidsGone([...seen], 30_000), "the Ghostscript processes seen running are gone").toEqual([]);
    const r = await execute("pdf/a", { conformance_level: "2b" }, [corpusInput("pdf/gotenberg-pages_12.pdf")], full());
    expectPdfA(tmpFile(r.out.files[0]!), 2, PAGES12);
  });

  it("aborting the task's signal mid-run rejects at once with the abort reason and kills Ghostscript", async () => {
    const ac = new AbortController();
    let settled = false;
    const pending = execute("pdf/x", { variant: "4" }, [long()], full({ signal: ac.signal }, ac.signal)).then(
      () => null,
      (e: unknown) => e,
    );
    void pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    // wait until Ghostscript is really running for this call
    const running = await until(() => ghostscripts().length > 0, 30_000);
    expect(running, "Ghostscript started").toBe(true);
    const pids = ghostscripts().map((p) => p.pid);
    expect(settled, "the call was still running when the test aborted it").toBe(false);
    const reason = new TaskError("CANCELLED", "The test cancelled the task.");
    ac.abort(reason);
    // "at once": left alone the job runs for minutes, past the test's timeout; only the abort can end it here
    const err = await pending;
    expect(err).toBeInstanceOf(TaskError);
    // execute() rejects with the engine call's failure wrapping the abort reason (what run-task.ts
    // reports instead is toFailure(signal.reason): CANCELLED)
    expect((err as TaskError).cause).toBe(reason);
    expect((err as TaskError).message).toContain("The test cancelled the task.");
    expect(err).toMatchObject({ code: "INTERNAL_ERROR", retryable: true });
    expect(toFailure(ac.signal.reason).code).toBe("CANCELLED");
    expect(await toolsGone(root, 30_000), "Ghostscript still running after the abort").toEqual([]);
    expect(await pidsGone(pids, 30_000), "the Ghostscript processes seen running are gone").toEqual([]);
    const r = await execute("pdf/a", { conformance_level: "1b" }, [corpusInput("pdf/gotenberg-pages_12.pdf")], full());
    expectPdfA(tmpFile(r.out.files[0]!), 1, PAGES12);
  });
});

// ---------------------------------------------------------------------------------------------
// Missing tools
// ---------------------------------------------------------------------------------------------

describe("a native engine without its tools (PATH=/nonexistent)", () => {
  it("GET /health reports every tool with version null and the Debian packages that provide it", async () => {
    const health = (await (await fetch(`${bare.url}/health`)).json()) as {
      tools: { name: string; version: string | null; packages: string[] }[];
    };
    expect(health.tools.map((t) => t.name).sort()).toEqual([
      "7z",
      "calibre",
      "djvulibre",
      "exiftool",
      "ezdxf",
      "ffmpeg",
      "fontforge",
      "fonttools",
      "ghostscript",
      "gimp",
      "graphicsmagick",
      "gxps",
      "icnsutils",
      "imagemagick",
      "inkscape",
      "inkscape-cad",
      "libraw",
      "libredwg",
      "libreoffice",
      "lzip",
      "lzop",
      "mupdf",
      "nomarch",
      "ocrmypdf",
      "pandoc",
      "poppler",
      "qpdf",
      "rzip",
      "tesseract",
      "tiff2pdf",
      "unalz",
    ]);
    for (const t of health.tools) {
      expect(t.packages.length, t.name).toBeGreaterThan(0);
      // fontTools runs on Debian's interpreter by its absolute path (a python3 earlier on PATH, e.g. pyenv's, lacks the
      // library), so PATH does not hide it: it reports the version Debian's python3 prints
      if (t.name === "fonttools") {
        const own = spawnSync("/usr/bin/python3", ["-c", "import fontTools; print(fontTools.version)"]);
        expect(t.version).toBe(own.stdout.toString().trim());
      } else if (t.name === "fontforge") {
        // FontForge's Python module, on the same interpreter by the same absolute path
        const own = spawnSync("/usr/bin/python3", ["-c", "import fontforge; print(fontforge.version())"]);
        expect(t.version).toBe(/\d+/.exec(own.stdout.toString())![0]);
      } else if (t.name === "ezdxf") {
        // ezdxf (dxf → dxf), on the same interpreter by the same absolute path
        const own = spawnSync("/usr/bin/python3", ["-c", "import ezdxf; print(ezdxf.__version__)"]);
        expect(t.version).toBe(own.stdout.toString().trim());
      } else if (t.name === "libredwg") {
        // the npm package run by the server's own Node (not on PATH either): its version is the installed package's
        const own = JSON.parse(
          readFileSync(new URL("../../node_modules/@mlightcad/libredwg-web/package.json", import.meta.url), "utf8"),
        );
        expect(t.version).toBe(own.version);
      } else expect(t.version, t.name).toBeNull();
    }
    const pkgs = Object.fromEntries(health.tools.map((t) => [t.name, t.packages]));
    // dpkg names the package that owns each executable on this (Debian) host
    expect(pkgs.ghostscript).toContain(dpkgOwner("/usr/bin/gs"));
    expect(pkgs.qpdf).toContain(dpkgOwner("/usr/bin/qpdf"));
    expect(pkgs.graphicsmagick).toContain(dpkgOwner("/usr/bin/gm"));
    expect(pkgs.ffmpeg).toContain(dpkgOwner("/usr/bin/ffmpeg"));
    expect(pkgs.tesseract).toContain(dpkgOwner("/usr/bin/tesseract"));
    expect(pkgs.imagemagick).toEqual(["imagemagick"]);
    expect(pkgs.libreoffice).toContain("python3-uno");
    // issues 32–34's tools
    expect(pkgs.calibre).toContain(dpkgOwner("/usr/bin/ebook-convert"));
    expect(pkgs.inkscape).toContain(dpkgOwner("/usr/bin/inkscape"));
    expect(pkgs.pandoc).toContain(dpkgOwner("/usr/bin/pandoc"));
    expect(pkgs.poppler).toContain(dpkgOwner("/usr/bin/pdftotext"));
    expect(pkgs.djvulibre).toContain(dpkgOwner("/usr/bin/ddjvu"));
    expect(pkgs.libraw).toContain(dpkgOwner("/usr/bin/dcraw_emu"));
  });

  it("the engine with its tools reports the versions the tools print themselves", async () => {
    const health = (await (await fetch(`${native.url}/health`)).json()) as {
      tools: { name: string; version: string | null }[];
    };
    const v = Object.fromEntries(health.tools.map((t) => [t.name, t.version]));
    expect(v).toMatchObject({
      ghostscript: gsVersion(),
      qpdf: qpdfVersion(),
      imagemagick: imVersion(),
      graphicsmagick: gmVersion(),
    });
    // ffmpeg's own first line, e.g. "ffmpeg version 5.1.9-0+deb12u1 Copyright …"
    expect(spawnSync("ffmpeg", ["-version"]).stdout.toString()).toMatch(
      new RegExp(`^ffmpeg version ${String(v.ffmpeg).replace(/\./g, "\\.")}\\b`),
    );
  });

  it("pdf/a with only that engine ends ENGINE_UNAVAILABLE naming `apt-get install ghostscript`", async () => {
    const err = await expectTaskError(
      () =>
        execute(
          "pdf/a",
          { conformance_level: "2b" },
          [corpusInput("pdf/gotenberg-pages_12.pdf")],
          testContext({ engines: { ...bare.engines() } }),
        ),
      "ENGINE_UNAVAILABLE",
    );
    expect(err.message).toContain("apt-get install ghostscript");
  });
});

describe("every tool run carries a CPU-time limit (container/run.ts)", () => {
  // an orphan — a tool whose engine process died under it — is stopped by the kernel at RLIMIT_CPU; the shell's own
  // `ulimit -t` (seconds) and `ulimit -v` (KiB) are the oracle for what the tool inherited
  it("the limit is what one process could use on every core for the whole timeout, and the memory limit stays", async () => {
    const { runTool, cpuSecondsFor } = await import("../../container/run.ts");
    const cwd = mkdtempSync(join(tmpdir(), "cpu-limit-"));
    try {
      const r = await runTool({
        cmd: "/bin/sh",
        args: ["-c", "ulimit -t; ulimit -v"],
        cwd,
        timeoutMs: 7_000,
        memoryBytes: 512 * 1024 * 1024,
      });
      expect(r.code).toBe(0);
      const [cpu, vmem] = r.stdout.trim().split("\n");
      expect(Number(cpu)).toBe(cpuSecondsFor(7_000));
      expect(Number(cpu)).toBeGreaterThanOrEqual(7 * 2);
      expect(Number(vmem)).toBe(512 * 1024);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
