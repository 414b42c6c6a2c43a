/** Native-tool oracles (Debian packages installed by .ci/run): run a tool on bytes written to a temp file. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Writes `bytes` to a temp file named `name` and returns its path. */
export function tempFile(name: string, bytes: Uint8Array): string {
  const p = join(mkdtempSync(join(tmpdir(), "oracle-")), name);
  writeFileSync(p, bytes);
  return p;
}

/** Runs a tool; returns stdout (stderr folded in), never throws on a non-zero exit. */
export function run(cmd: string, args: string[]): { code: number; out: string } {
  try {
    return { code: 0, out: execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }) };
  } catch (e) {
    // execFileSync's error on a non-zero exit carries the exit status and the output
    const x = e as { status?: number | null; stdout?: string; stderr?: string };
    return { code: x.status ?? 1, out: `${x.stdout ?? ""}${x.stderr ?? ""}` };
  }
}

/** `identify` → {format, width, height} of the first frame. */
export function identify(path: string): { format: string; width: number; height: number } {
  const [format, w, h] = run("identify", ["-format", "%m %w %h\n", path]).out.split("\n")[0].split(" ");
  return { format, width: Number(w), height: Number(h) };
}

/** `pdfinfo` fields as a map. */
export function pdfinfo(path: string, extra: string[] = []): Record<string, string> {
  const out = run("pdfinfo", [...extra, path]).out;
  return Object.fromEntries(
    out
      .split("\n")
      .filter((l) => l.includes(":"))
      .map((l) => [l.slice(0, l.indexOf(":")).trim(), l.slice(l.indexOf(":") + 1).trim()]),
  );
}
