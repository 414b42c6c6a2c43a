/**
 * The lazily imported engines (src/runtime/browser/engines.ts, src/engines/lazy.ts) expose each engine's
 * methods before its code loads, from a list: the list must be exactly the methods the engines
 * have (oracle: the Node engines, built by the same factories).
 */
import { describe, expect, it } from "vitest";
import { ENGINE_METHODS } from "../../src/runtime/browser/engines";
import { SCRIPT_ENGINE_METHODS } from "../../src/engines/lazy";
import { createFontEditorEngine } from "../../src/engines/fonteditor/engine";
import { createSheetJsEngine } from "../../src/engines/sheetjs/engine";
import { createDxfEngine } from "../../src/engines/dxf/engine";
import { nodeEngines } from "../../src/runtime/node/engines";

describe("browser engine method lists", () => {
  it("name exactly the methods of each engine", () => {
    // the JavaScript-only engines are lazy in Node too (lists of their own): the engines themselves are the oracle
    const engines = {
      ...nodeEngines(),
      fonteditor: createFontEditorEngine(),
      sheetjs: createSheetJsEngine(),
      dxf: createDxfEngine(),
    } as unknown as Record<string, Record<string, unknown>>;
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
    const listed = Object.fromEntries(
      Object.entries({ ...ENGINE_METHODS, ...SCRIPT_ENGINE_METHODS }).map(([name, m]) => [name, [...m].sort()]),
    );
    expect(listed).toEqual(actual);
  });
});
