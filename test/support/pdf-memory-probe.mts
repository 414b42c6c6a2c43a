/**
 * One pdf-lib call in a process of its own, for test/engines-heavy/pdf-isolate-memory.test.ts: prints, as JSON, the
 * input's bytes and the process's peak resident memory growth during the call (VmHWM after less VmHWM before, from
 * /proc/self/status: a true high-water mark, JS heap, array buffers and all). Usage: `node --import tsx
 * pdf-memory-probe.mts <file.pdf> <split|rotate|extract|encrypt|merge>`; merge merges the file with a copy of itself.
 */
import { readFileSync } from "node:fs";
import { createPdfLibEngine } from "../../src/engines/pdflib/engine.ts";
import { ALL_PERMISSIONS } from "./pdf-permissions.ts";

const hwm = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))![1]) * 1024;
const [file, op] = [process.argv[2]!, process.argv[3]!];
const engine = createPdfLibEngine();
const permissions = ALL_PERMISSIONS;
const data = new Uint8Array(readFileSync(file));
const input = { filename: "in.pdf", data };
const inputs = op === "merge" ? [input, { filename: "copy.pdf", data: data.slice() }] : [input];
const before = hwm();
const calls: Record<string, () => Promise<{ ok: boolean }>> = {
  split: () => engine.split!({ input }),
  rotate: () => engine.rotate!({ input, rotation: 90 }),
  extract: () => engine.extract!({ input, pages: "1" }),
  encrypt: () => engine.encrypt!({ input, userPassword: "u", ownerPassword: "o", permissions }),
  merge: () => engine.merge!({ inputs, filename: "merged.pdf" }),
};
const r = await calls[op]!();
const inputBytes = inputs.reduce((n, f) => n + f.data.byteLength, 0);
console.log(JSON.stringify({ ok: r.ok, inputBytes, growth: hwm() - before }));
