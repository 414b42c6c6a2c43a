#!/usr/bin/env node
// The project's Debian tools, from the one list container/debian-packages.txt: the native engine's tools (the container
// image's packages), and below its "development and CI only" line Chromium and the tests' oracles. Run by `npm install`
// (postinstall) and `npm run setup:native`. As root on Debian/Ubuntu it installs what is missing (nothing to do when all
// are installed: no apt-get run); otherwise it prints the one line to run and exits 0, so `npm install` never fails on it.
// `--container` limits it to the container image's packages. Plain JavaScript: runs on any Node ≥ 18.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The package names of container/debian-packages.txt, in order; `containerOnly` stops at the "development and CI only"
 * line (what the Dockerfile installs).
 * @param {boolean} containerOnly
 * @returns {string[]}
 */
export function debianPackages(containerOnly = false) {
  const out = [];
  for (const raw of readFileSync(join(root, "container", "debian-packages.txt"), "utf8").split("\n")) {
    const l = raw.trim();
    if (containerOnly && l.startsWith("# --- development and CI only")) break;
    if (l && !l.startsWith("#")) out.push(l);
  }
  return out;
}

/**
 * The fontconfig rules of container/fontconfig/ (the container image has them in /etc/fonts/conf.d: container/Dockerfile):
 * fonts-noto-core's Noto Sans/Serif must not become the generic families (55-edge-convert-generics.conf). Copied as
 * root when missing or different; returns the files it could not install (not root, no /etc/fonts/conf.d).
 * @returns {string[]}
 */
export function installFontconfigRules() {
  const from = join(root, "container", "fontconfig");
  const files = ["55-edge-convert-generics.conf"];
  const todo = files.filter((f) => {
    const to = join("/etc/fonts/conf.d", f);
    return !existsSync(to) || readFileSync(to, "utf8") !== readFileSync(join(from, f), "utf8");
  });
  if (todo.length === 0 || process.getuid?.() !== 0 || !existsSync("/etc/fonts/conf.d")) return todo;
  for (const f of todo) copyFileSync(join(from, f), join("/etc/fonts/conf.d", f));
  console.log(`fontconfig rules installed: ${todo.join(" ")}`);
  return [];
}

/** The packages of `names` dpkg does not list as installed. */
function missing(names) {
  const r = spawnSync("dpkg-query", ["-W", "-f", "${Package} ${db:Status-Status}\n", ...names], { encoding: "utf8" });
  const installed = new Set(
    r.stdout
      .split("\n")
      .filter((l) => l.endsWith(" installed"))
      .map((l) => l.split(" ")[0].split(":")[0]),
  );
  return names.filter((n) => !installed.has(n));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const packages = debianPackages(process.argv.includes("--container"));
  const line = `apt-get update && apt-get install -y --no-install-recommends ${packages.join(" ")}`;
  const debian = existsSync("/usr/bin/apt-get") && existsSync("/usr/bin/dpkg-query");
  // the rules first, so that the fonts installed below never change the generic families, not even for a moment
  const rules = installFontconfigRules();
  if (rules.length > 0)
    console.log(
      `fontconfig rules not installed (copy container/fontconfig/${rules.join(", ")} to /etc/fonts/conf.d as root)`,
    );
  const todo = debian ? missing(packages) : packages;
  if (todo.length === 0) {
    console.log(`Debian tools: all ${packages.length} packages of container/debian-packages.txt are installed`);
  } else if (!debian || process.getuid?.() !== 0) {
    console.log(
      `The native engine's tools, Chromium and the tests' oracles are not all installed (missing: ${todo.join(" ")}). Install them with:\n\n  sudo sh -c '${line}'\n`,
    );
    console.log(
      "(On other systems: Ghostscript, qpdf, ImageMagick, GraphicsMagick, LibreOffice with its Python UNO bridge, ffmpeg, tesseract, fontconfig, Chromium; for the tests poppler-utils, exiftool, unzip, 7-Zip, bsdtar.)",
    );
  } else {
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    console.log(`Debian tools: installing ${todo.length} missing packages (${todo.join(" ")})`);
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...todo], {
      stdio: ["ignore", "ignore", "inherit"],
      env,
    });
    console.log(`Debian tools installed: ${todo.length} packages`);
  }
}
