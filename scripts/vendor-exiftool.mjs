#!/usr/bin/env node
/**
 * Regenerates wasm/exiftool/perl-files.json: every Perl file the ExifTool engine puts into its
 * in-memory file system (path in the sandbox → text). Run after bumping @uswriting/exiftool or
 * Debian's libarchive-zip-perl / libimage-exiftool-perl; needs those two Debian packages installed.
 *
 *   /exiftool                         ExifTool 13.42's `exiftool` script, as @uswriting/exiftool embeds it
 *   /lib/mro.pm, /lib/Storable.pm     our pure-Perl stand-ins for XS modules zeroperl lacks (wasm/exiftool/perl/lib)
 *   /lib/Archive/Zip.pm               our shim: loads the real Archive::Zip and shares its file handle (no dup in WASI)
 *   /perl5/Archive/Zip.pm             Debian's Archive::Zip 1.68 (pure Perl), loaded by the shim
 *   /lib/Archive/Zip/*.pm             Debian's Archive::Zip member classes
 *   /lib/Image/ExifTool/Charset/*.pm  Debian's ExifTool character-set tables (absent from zeroperl's ExifTool)
 *
 * Licensing: ExifTool (Phil Harvey) and Archive::Zip are "free software; you can redistribute it
 * and/or modify it under the same terms as Perl itself" (Artistic License or GPL, at the user's
 * choice). They are shipped unmodified, as data files read by the interpreter; our changes live in
 * separate files under wasm/exiftool/perl/lib. See wasm/exiftool/LICENSES.md.
 *
 * Usage: node scripts/vendor-exiftool.mjs
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const DEBIAN = "/usr/share/perl5";
const files = {};

/** The `exiftool` script is a template literal (`var y=\`...\``) inside the package's ESM build. */
function exiftoolScript() {
  const require = createRequire(join(ROOT, "package.json"));
  const src = readFileSync(join(dirname(require.resolve("@uswriting/exiftool")), "..", "esm", "index.js"), "utf8");
  const start = src.indexOf("var y=`"),
    end = src.indexOf("`;class p{");
  if (start < 0 || end < 0) throw new Error("exiftool script not found in @uswriting/exiftool: update the markers");
  const script = new Function(`return ${src.slice(start + 6, end + 1)}`)();
  if (!/my\$version='[\d.]+'/.test(script)) throw new Error("extracted text is not the exiftool script");
  return script;
}

/** Adds every .pm file under `dir` at `prefix` in the sandbox. */
function addTree(dir, prefix) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) addTree(join(dir, e.name), `${prefix}/${e.name}`);
    else if (e.name.endsWith(".pm")) files[`${prefix}/${e.name}`] = readFileSync(join(dir, e.name), "utf8");
  }
}

files["/exiftool"] = exiftoolScript();
addTree(join(DEBIAN, "Archive", "Zip"), "/lib/Archive/Zip");
files["/perl5/Archive/Zip.pm"] = readFileSync(join(DEBIAN, "Archive", "Zip.pm"), "utf8");
addTree(join(DEBIAN, "Image", "ExifTool", "Charset"), "/lib/Image/ExifTool/Charset");
addTree(join(ROOT, "wasm", "exiftool", "perl", "lib"), "/lib"); // our shims last: they win

const out = join(ROOT, "wasm", "exiftool", "perl-files.json");
writeFileSync(out, JSON.stringify(files));
const version = files["/exiftool"].match(/my\$version='([\d.]+)'/)[1];
console.log(
  `${out}: ${Object.keys(files).length} files, ${(JSON.stringify(files).length / 1e6).toFixed(2)} MB, exiftool script ${version}`,
);
