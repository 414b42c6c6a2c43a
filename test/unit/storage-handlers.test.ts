/**
 * The import/export handlers made from a store row (src/operations/storage/), over an in-memory
 * store standing in for a real one (the e2e file runs them against real stores): objects under a
 * prefix are opened one at a time as the runner stores them, the connection is closed once every
 * stream is read, size and count caps refuse before anything is read, and exports stream each
 * input to its named path and list where it went.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { TaskError } from "../../src/engines/errors";
import { storageHandlers } from "../../src/operations/storage";
import { storeOutputs } from "../../src/runner/execute";
import type { StoreConnector } from "../../src/stores/types";
import { testContext } from "../support/context";

/** An in-memory store; `log` records opens, gets, puts and closes in order. */
function memoryStore(objects: Map<string, Uint8Array>, log: string[]): StoreConnector {
  const params = z.object({ key: z.string().optional(), key_prefix: z.string().optional() });
  return {
    name: "mem",
    importParams: params,
    exportParams: params,
    secrets: [],
    target: { one: "key", many: "key_prefix" },
    location: (_p, path) => ({ key: path }),
    async open() {
      log.push("open");
      return {
        async list(prefix) {
          return [...objects].filter(([k]) => k.startsWith(prefix)).map(([path, b]) => ({ path, size: b.byteLength }));
        },
        async get(path) {
          log.push(`get ${path}`);
          const b = objects.get(path);
          if (!b) throw new TaskError("FILE_NOT_FOUND", path);
          return { stream: new Response(b as Uint8Array<ArrayBuffer>).body!, length: b.byteLength };
        },
        async put(path, body) {
          log.push(`put ${path}`);
          objects.set(path, new Uint8Array(await new Response(body.stream).arrayBuffer()));
        },
        async close() {
          log.push("close");
        },
      };
    },
  };
}

describe("storage handlers", () => {
  it("imports a prefix lazily, one object at a time, and closes after the last stream", async () => {
    const log: string[] = [];
    const objects = new Map([
      ["p/a.txt", new TextEncoder().encode("aaa")],
      ["p/q/b.txt", new TextEncoder().encode("bbbb")],
    ]);
    const [imp] = storageHandlers(memoryStore(objects, log));
    const ctx = testContext();
    const out = await imp.run([], { key_prefix: "p/" }, ctx);
    expect(log).toEqual(["open"]);
    expect(out.extra).toEqual({
      files: [
        { filename: "a.txt", size: 3, dir: "p/" },
        { filename: "b.txt", size: 4, dir: "p/q/" },
      ],
    });
    const stored = await storeOutputs(ctx.files, ctx.jobId, ctx.taskId, out.files);
    expect(log).toEqual(["open", "get p/a.txt", "get p/q/b.txt", "close"]);
    expect(new TextDecoder().decode((await ctx.files.get(stored[1].key))!)).toBe("bbbb");
  });

  it("refuses an object over the import cap and more than 100 objects, closing the connection", async () => {
    const log: string[] = [];
    const objects = new Map([["big.bin", new Uint8Array(2048)]]);
    const [imp] = storageHandlers(memoryStore(objects, log));
    const ctx = testContext();
    ctx.settings.maxImportBytes = 1024;
    await expect(imp.run([], { key: "big.bin" }, ctx)).rejects.toMatchObject({ code: "FILE_TOO_LARGE" });
    expect(log.at(-1)).toBe("close");
    const many = new Map(Array.from({ length: 101 }, (_, i) => [`m/${i}`, new Uint8Array(1)] as const));
    const [imp2] = storageHandlers(memoryStore(many, log));
    await expect(imp2.run([], { key_prefix: "m/" }, testContext())).rejects.toMatchObject({ code: "OVER_BUDGET" });
    await expect(imp2.run([], { key_prefix: "none/" }, testContext())).rejects.toMatchObject({
      code: "FILE_NOT_FOUND",
    });
  });

  it("exports every input to its %d path and lists where it went", async () => {
    const log: string[] = [];
    const objects = new Map<string, Uint8Array>();
    const [, exp] = storageHandlers(memoryStore(objects, log));
    const ctx = testContext();
    const inputs = await Promise.all(
      ["x.pdf", "y.pdf"].map(async (filename, i) => {
        const key = `in/${i}/${filename}`;
        await ctx.files.put(key, new Uint8Array([i, i, i]), { contentType: "application/pdf" });
        return { filename, size: 3, fromTask: "t", key, bytes: async () => new Uint8Array([i, i, i]) };
      }),
    );
    const out = await exp.run(inputs, { key: "out/doc-%d.pdf" }, ctx);
    expect(out.extra).toEqual({
      files: [
        { filename: "x.pdf", size: 3, key: "out/doc-1.pdf" },
        { filename: "y.pdf", size: 3, key: "out/doc-2.pdf" },
      ],
    });
    expect([...objects.entries()]).toEqual([
      ["out/doc-1.pdf", new Uint8Array([0, 0, 0])],
      ["out/doc-2.pdf", new Uint8Array([1, 1, 1])],
    ]);
    expect(log).toEqual(["open", "put out/doc-1.pdf", "put out/doc-2.pdf", "close"]);
  });
});
