/**
 * Native oracles for archives (issue 15): bsdtar (libarchive-tools), GNU tar and 7z (p7zip-full)
 * extract into a temporary folder, and the regular files found there are the expected members.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Every regular file under `dir` by relative path ("/"-separated); links, devices and FIFOs are not
 * files. Names are read as bytes, so a name that is not UTF-8 is still found; its key spells the
 * invalid bytes as U+FFFD.
 */
export function regularFiles(dir: string | Buffer, prefix = ""): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const base = Buffer.isBuffer(dir) ? dir : Buffer.from(dir);
  for (const name of readdirSync(base, { encoding: "buffer" })) {
    const full = Buffer.concat([base, Buffer.from("/"), name]);
    const st = lstatSync(full);
    const key = `${prefix}${name.toString("utf8")}`;
    if (st.isDirectory()) for (const [k, v] of regularFiles(full, `${key}/`)) out.set(k, v);
    else if (st.isFile()) out.set(key, readFileSync(full));
  }
  return out;
}

/** Extracts `archive` with a native tool (`tool`) and answers its regular files (what it could extract). */
export function nativeExtract(archive: string, tool: "bsdtar" | "tar" | "7z", password?: string): Map<string, Buffer> {
  const dir = mkdtempSync(join(tmpdir(), "archive-oracle-"));
  try {
    // GNU tar and bsdtar exit non-zero on entries they cannot make (a non-UTF-8 name, a device) but extract the rest
    if (tool === "7z") spawnSync("7z", ["x", `-o${dir}`, "-y", `-p${password ?? ""}`, archive], { stdio: "ignore" });
    else if (tool === "tar") spawnSync("tar", ["-xf", archive, "-C", dir], { stdio: "ignore" });
    else
      spawnSync("bsdtar", ["-xf", archive, "-C", dir, ...(password ? ["--passphrase", password] : [])], {
        stdio: "ignore",
      });
    return regularFiles(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The member names and sizes `7z l -slt` lists for `archive` (files only). */
export function sevenZipList(archive: string, password?: string): Map<string, number> {
  const out = execFileSync("7z", ["l", "-slt", `-p${password ?? ""}`, archive], { encoding: "utf8" });
  const map = new Map<string, number>();
  for (const block of out.split("----------").slice(1).join("").split("\n\n")) {
    const path = /^Path = (.*)$/m.exec(block)?.[1];
    const folder = /^Folder = (.*)$/m.exec(block)?.[1] === "+" || /^Attributes = D/m.exec(block) !== null;
    if (path && !folder) map.set(path, Number(/^Size = (\d+)$/m.exec(block)?.[1] ?? 0));
  }
  return map;
}
