/**
 * The browser's lazily imported engines (src/runtime/browser/engines.ts) expose each engine's
 * methods before its code loads, from a list: the list must be exactly the methods the engines
 * have (oracle: the Node engines, built by the same factories).
 */
import { describe, expect, it } from "vitest";
import { ENGINE_METHODS } from "../../src/runtime/browser/engines";
import { nodeEngines } from "../../src/runtime/node/engines";

describe("browser engine method lists", () => {
  it("name exactly the methods of each engine", () => {
    const engines = nodeEngines() as unknown as Record<string, Record<string, unknown>>;
    const actual = Object.fromEntries(
      Object.entries(engines)
        .filter(([name]) => name !== "cloudflare")
        .map(([name, e]) => [
          name,
          Object.keys(e)
            .filter((k) => typeof e[k] === "function")
            .sort(),
        ]),
    );
    const listed = Object.fromEntries(Object.entries(ENGINE_METHODS).map(([name, m]) => [name, [...m].sort()]));
    expect(listed).toEqual(actual);
  });
});
