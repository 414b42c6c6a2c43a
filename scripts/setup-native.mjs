#!/usr/bin/env node
// `npm run setup:native`: installs the native engine's tools (container/debian-packages.txt) from Debian's packages, as
// root on Debian/Ubuntu (like .ci/run); otherwise prints the exact line to run. Plain JavaScript: runs on any Node ≥ 18.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const packages = readFileSync(join(root, "container", "debian-packages.txt"), "utf8")
  .split("\n")
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith("#"));
const line = `apt-get update && apt-get install -y --no-install-recommends ${packages.join(" ")}`;
const root_ = process.getuid?.() === 0;
if (!existsSync("/usr/bin/apt-get") || !root_) {
  console.log(`Install the native engine's tools with:\n\n  sudo sh -c '${line}'\n`);
  console.log("(On other systems: Ghostscript, qpdf, ImageMagick, GraphicsMagick, LibreOffice with its Python UNO bridge, fontconfig.)");
  process.exit(0);
}
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...packages], { stdio: ["ignore", "ignore", "inherit"], env });
console.log(`native engine tools installed: ${packages.length} packages`);
