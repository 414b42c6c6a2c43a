/**
 * The JavaScript font engine loaded on its first call (Node and the api Worker): fonteditor-core's
 * modules are evaluated when a font task first runs, not at isolate start (the Worker's startup CPU
 * budget, README "Sizes"). The browser build splits it into a chunk of its own the same way
 * (runtime/browser/engines.ts).
 */
import type { FontEngine } from "../kinds/font";

/** A {@link FontEngine} whose code is imported on the first `convert`. */
export function lazyFontEditorEngine(): FontEngine {
  let engine: Promise<FontEngine> | undefined;
  return {
    async convert(req) {
      engine ??= import("./engine").then((m) => m.createFontEditorEngine());
      return (await engine).convert(req);
    },
  };
}
