/**
 * Reference renderings of SVGs for the SVG engines (issues 31, 33): Inkscape 1.2 (Debian's `inkscape`)
 * and librsvg (`rsvg-convert`), independent renderers, each run with a private fontconfig
 * configuration that holds exactly the faces the service ships (engines/text/faces.ts: DejaVu and the
 * Noto script faces), so a difference in pixels is the renderer's and not the machine's font set.
 * Inkscape draws text on paths (librsvg 2.54 does not) and draws nothing for a letter no face has.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FONT_LOCATIONS, type FontFile } from "../../src/engines/text/faces";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "svg-oracle-"));

/** A fonts.conf whose only fonts are the shipped faces (symlinked into one folder). */
function fontconfigFile(): string {
  const faces = join(dir, "faces");
  mkdirSync(faces);
  for (const [file, loc] of Object.entries(FONT_LOCATIONS) as [FontFile, string][])
    symlinkSync(join(ROOT, loc), join(faces, file));
  const conf = join(dir, "fonts.conf");
  writeFileSync(
    conf,
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n<fontconfig>\n` +
      `  <dir>${faces}</dir>\n  <cachedir>${join(dir, "cache")}</cachedir>\n` +
      // the generic families as Debian's fontconfig resolves them on a machine with DejaVu installed (fc-match
      // sans-serif → DejaVu Sans); with only these faces its rules would pick Noto Sans for sans-serif
      ["sans-serif", "serif", "monospace"]
        .map(
          (g) =>
            `  <alias binding="strong"><family>${g}</family><prefer><family>${g === "serif" ? "DejaVu Serif" : g === "monospace" ? "DejaVu Sans Mono" : "DejaVu Sans"}</family></prefer></alias>\n`,
        )
        .join("") +
      `  <include ignore_missing="yes">/etc/fonts/conf.d</include>\n</fontconfig>\n`,
  );
  return conf;
}

let conf: string | undefined;
/** The environment of a reference renderer: the shipped faces only, no network, a private home. */
export function shippedFontsEnv(): NodeJS.ProcessEnv {
  conf ??= fontconfigFile();
  return { ...process.env, FONTCONFIG_FILE: conf, HOME: dir, XDG_CONFIG_HOME: join(dir, "config") };
}

let n = 0;
/**
 * Inkscape's rendering of an SVG as PNG bytes, at 96 dpi or `width` pixels wide (the height following).
 * Runs in its own folder; never fetches (the test SVGs have no external references).
 */
export function inkscapePng(svg: Uint8Array | string, opts: { width?: number; height?: number } = {}): Uint8Array {
  const src = join(dir, `${++n}.svg`);
  const out = join(dir, `${n}.png`);
  writeFileSync(src, svg);
  const size = [
    ...(opts.width ? [`--export-width=${opts.width}`] : []),
    ...(opts.height ? [`--export-height=${opts.height}`] : []),
  ];
  execFileSync("inkscape", ["--export-type=png", `--export-filename=${out}`, ...size, src], {
    env: shippedFontsEnv(),
    stdio: ["ignore", "ignore", "ignore"],
    timeout: 120_000,
  });
  return new Uint8Array(readFileSync(out));
}

/** librsvg's rendering (PNG bytes) with the shipped faces, at 96 dpi or the given size. */
export function rsvgPng(svg: Uint8Array | string, opts: { width?: number; height?: number } = {}): Uint8Array {
  const args = [...(opts.width ? ["-w", String(opts.width)] : []), ...(opts.height ? ["-h", String(opts.height)] : [])];
  return new Uint8Array(execFileSync("rsvg-convert", args, { input: svg, env: shippedFontsEnv(), maxBuffer: 1 << 28 }));
}
