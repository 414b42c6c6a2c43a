/**
 * DWG → DXF (issue 33), run by the native engine as its own Node process (container/engines/cad.ts):
 * `node dwg_to_dxf.ts IN.dwg OUT.dxf` reads the drawing with LibreDWG 0.13 compiled to WebAssembly
 * (npm @mlightcad/libredwg-web, GPL-3.0: a separate program here, see THIRD_PARTY_NOTICES.md) and writes
 * LibreDWG's ASCII DXF (AutoCAD 2004-2018 DXF as the drawing's version gives). `--version` prints
 * "libredwg-web <version>". Failures print "CODE: message" on stderr and exit 2, CODE one of
 * OPEN_FAILED (not a DWG, or LibreDWG found a critical error) and UNSUPPORTED (a DWG version before R13).
 *
 * The module's WebAssembly memory starts at 1 GiB (built with INITIAL_MEMORY=1GB) and grows to 4 GiB at
 * most, so the caller gives this process a larger address-space limit than other tools (cad.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
/** The package's version, from its package.json. */
function packageVersion(): string {
  const main = require.resolve("@mlightcad/libredwg-web");
  return (JSON.parse(readFileSync(main.replace(/dist\/[^/]*$/, "package.json"), "utf8")) as { version: string })
    .version;
}

/** DWG version strings (first 6 bytes) LibreDWG reads: R13 (AC1012) to 2018 (AC1032). */
const READ = /^AC10(1[2458]|2[147]|32)$/;

/** The part of @mlightcad/libredwg-web used here: DWG bytes → DXF bytes, null when LibreDWG reports an error. */
interface LibreDwgModule {
  LibreDwg: { create(): Promise<{ dwg_write_dxf(dwg: ArrayBuffer): Uint8Array | null }> };
}

function fail(code: string, message: string): never {
  process.stderr.write(`${code}: ${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const [a, b] = process.argv.slice(2);
  if (a === "--version") {
    process.stdout.write(`libredwg-web ${packageVersion()}\n`);
    return;
  }
  if (!a || !b) fail("OPEN_FAILED", "usage: dwg_to_dxf.ts IN.dwg OUT.dxf");
  const data = readFileSync(a);
  const magic = data.subarray(0, 6).toString("latin1");
  if (!/^AC[0-9.]{4}$/.test(magic) && !/^MC0\.0$/.test(magic))
    fail("OPEN_FAILED", "not a DWG drawing (no AutoCAD version string at its start)");
  if (!READ.test(magic))
    fail("UNSUPPORTED", `DWG version ${magic} is not read (LibreDWG reads R13 to 2018: AC1012 to AC1032)`);
  // the wrapper logs LibreDWG's error codes with console.log; keep stdout for our own output
  console.log = (...args: unknown[]) => process.stderr.write(`${args.join(" ")}\n`);
  // the package's .d.ts files import without extensions, which nodenext resolution does not follow: its one call, typed here
  const { LibreDwg } = (await import("@mlightcad/libredwg-web")) as unknown as LibreDwgModule;
  const lib = await LibreDwg.create();
  const dxf = lib.dwg_write_dxf(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer);
  if (!dxf || dxf.length === 0)
    fail("OPEN_FAILED", `LibreDWG could not read this ${magic} drawing (damaged or truncated)`);
  writeFileSync(b, dxf);
  // the Emscripten runtime keeps the process alive for tens of seconds after the work is done: leave now
  process.exit(0);
}

main().catch((e: unknown) => fail("OPEN_FAILED", `LibreDWG failed: ${e instanceof Error ? e.message : String(e)}`));
