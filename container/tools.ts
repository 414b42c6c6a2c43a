/**
 * The native tools this engine can run, found on PATH at start-up with their versions (GET /health).
 * A tool that is missing is reported with the Debian packages that provide it; the Worker then
 * leaves its operations out of GET /v2/operations and a task that needs it ends in
 * ENGINE_UNAVAILABLE naming the packages (issue 12).
 */
import { execFile } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { NATIVE_TOOLS, type NativeToolName, type NativeToolSpec } from "../native-protocol/engines.ts";
import type { ToolStatus } from "../native-protocol/wire.ts";

/** A tool found on this host: its executable and version. */
export interface Tool {
  name: string;
  /** Absolute path of the executable. */
  path: string;
  version: string;
}

/** A tool's probe: its spec of native-protocol/engines.ts with the checks that need Node. */
interface ToolSpec extends NativeToolSpec {
  /** An extra check (LibreOffice also needs Python's UNO bridge). */
  extra?: () => Promise<boolean>;
}

/** Inkscape's extensions folder (Debian's inkscape). */
const INKSCAPE_EXTENSIONS = "/usr/share/inkscape/extensions";

/** Debian's python3 with the UNO bridge (the pool's bridge process, container/office). */
export const UNO_PYTHON = "/usr/bin/python3";

/** What a tool's probe adds here to its row of NATIVE_TOOLS: checks of files and second binaries, Node's own paths. */
const LOCAL: { [N in NativeToolName]?: Partial<ToolSpec> } = {
  ffmpeg: { extra: async () => !!which("ffprobe") },
  libreoffice: {
    extra: () => new Promise((ok) => execFile(UNO_PYTHON, ["-c", "import uno"], { timeout: 10_000 }, (e) => ok(!e))),
  },
  icnsutils: { extra: async () => !!which("png2icns") },
  tiff2pdf: { extra: async () => !!which("tiffinfo") },
  // Inkscape's DXF input is a Python extension: its file, and inkex importable (it needs lxml and numpy)
  "inkscape-cad": {
    extra: () =>
      new Promise((ok) =>
        existsSync(`${INKSCAPE_EXTENSIONS}/dxf_input.py`)
          ? execFile(
              UNO_PYTHON,
              ["-c", `import sys; sys.path.insert(0, "${INKSCAPE_EXTENSIONS}"); import inkex`],
              { timeout: 10_000 },
              (e) => ok(!e),
            )
          : ok(false),
      ),
  },
  // LibreDWG in WebAssembly is run by this server's own Node
  libredwg: {
    bins: [process.execPath],
    versionArgs: [fileURLToPath(new URL("./engines/cad/dwg_to_dxf.ts", import.meta.url)), "--version"],
  },
  ezdxf: { versionArgs: [fileURLToPath(new URL("./engines/cad/dxf_resave.py", import.meta.url)), "--version"] },
};

/** The tools probed, in GET /health's order (native-protocol/engines.ts NATIVE_TOOLS). */
const SPECS: ToolSpec[] = NATIVE_TOOLS.map((t) => ({ ...t, ...LOCAL[t.name] }));

/** What GET /health reports installs tool `s`: its Debian packages, or its npm package. */
function packagesOf(s: NativeToolSpec): string[] {
  return s.npm ? [`${s.npm} (npm, in package.json)`] : [...s.packages];
}

/** The first executable named `bin` on PATH (or `bin` itself when it is an absolute path), or undefined. */
export function which(bin: string): string | undefined {
  if (bin.startsWith("/")) {
    try {
      accessSync(bin, constants.X_OK);
      return bin;
    } catch {
      return undefined;
    }
  }
  for (const dir of (process.env.PATH ?? "").split(":").filter(Boolean)) {
    const p = join(dir, bin);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** Runs `path args` and returns its output (stdout + stderr), or "" when it fails to run. */
function output(path: string, args: string[]): Promise<string> {
  return new Promise((ok) =>
    execFile(path, args, { timeout: 30_000, env: { ...process.env, HOME: "/tmp" } }, (_e, out, err) =>
      ok(`${out}\n${err}`),
    ),
  );
}

/** The tools of this host, probed once (each probe runs its tool with a version flag). */
export async function probeTools(): Promise<{ found: Map<string, Tool>; status: ToolStatus[] }> {
  const found = new Map<string, Tool>();
  const status = await Promise.all(
    SPECS.map(async (s): Promise<ToolStatus> => {
      const path = s.bins.map(which).find(Boolean);
      const versionPath = s.versionBin ? which(s.versionBin) : path;
      const version =
        path && versionPath ? s.version.exec(await output(versionPath, [...s.versionArgs]))?.[1] : undefined;
      const ok = !!path && !!version && (!s.extra || (await s.extra()));
      if (ok) found.set(s.name, { name: s.name, path: path!, version: version! });
      return { name: s.name, version: ok ? version! : null, packages: packagesOf(s) };
    }),
  );
  return { found, status };
}

/** The Debian install line for a missing tool, for messages. */
export function installHint(name: string): string {
  const spec = SPECS.find((s) => s.name === name);
  return spec ? `apt-get install ${packagesOf(spec).join(" ")}` : `install ${name}`;
}
