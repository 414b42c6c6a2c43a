/**
 * Engines loaded on their first call: an engine's JavaScript (and the WebAssembly it compiles) is imported when a task
 * first needs it, not when the host starts (the api Worker's startup CPU budget, README "Sizes"; the browser build
 * splits each into a chunk of its own). Used by the browser, workerd and Node hosts (src/runtime/*).
 */
import type { DxfBudget } from "./dxf/budget";
import type { FontBudget } from "./fonteditor/budget";
import type { CadEngine } from "./kinds/cad";
import type { SheetJsBudget } from "./sheetjs/budget";
import type { FontEngine } from "./kinds/font";
import type { OfficeEngine } from "./kinds/office";

/**
 * `f`'s promise, made on the first call and shared by every later one; a rejected load is forgotten so the next call
 * tries again (a failed fetch of a chunk is not cached for the page's life).
 */
export const once = <T>(f: () => Promise<T>): (() => Promise<T>) => {
  let p: Promise<T> | undefined;
  return () => (p ??= f().catch((err: unknown) => ((p = undefined), Promise.reject(err))));
};

/**
 * An engine whose code is imported on its first call: the object has the engine's `methods` (its kind's interface,
 * src/engines/kinds/) from the start, each awaiting the engine `load` makes.
 */
export function lazyEngine<T>(methods: readonly string[], load: () => Promise<unknown>): T {
  const engine = once(load) as () => Promise<Record<string, (...a: unknown[]) => unknown>>;
  return Object.fromEntries(methods.map((m) => [m, async (...a: unknown[]) => (await engine())[m]!(...a)])) as T;
}

/**
 * The engines written in JavaScript only (fonteditor-core for fonts, SheetJS for spreadsheets, the `dxf` library for
 * DXF drawings; issue 47), each loaded on its first task: every host (browser, workerd, Node) runs them in process the
 * same way.
 */
export function lazyScriptEngines(budgets: ScriptEngineBudgets = {}): {
  fonteditor: FontEngine;
  sheetjs: OfficeEngine;
  dxf: CadEngine;
} {
  return {
    fonteditor: lazyEngine<FontEngine>(SCRIPT_ENGINE_METHODS.fonteditor, async () =>
      (await import("./fonteditor/engine")).createFontEditorEngine({ budget: budgets.fonteditor }),
    ),
    sheetjs: lazyEngine<OfficeEngine>(SCRIPT_ENGINE_METHODS.sheetjs, async () => {
      const { createSheetJsEngine } = await import("./sheetjs/engine");
      const { DEFAULT_SHEETJS_BUDGET } = await import("./sheetjs/budget");
      return createSheetJsEngine({ ...DEFAULT_SHEETJS_BUDGET, ...budgets.sheetjs });
    }),
    dxf: lazyEngine<CadEngine>(SCRIPT_ENGINE_METHODS.dxf, async () => {
      const { createDxfEngine } = await import("./dxf/engine");
      const { DEFAULT_DXF_BUDGET } = await import("./dxf/budget");
      return createDxfEngine({ ...DEFAULT_DXF_BUDGET, ...budgets.dxf });
    }),
  };
}

/**
 * Overrides of the script engines' budgets (absent: each engine's default, sized for a 128 MB isolate; issue 49). A
 * browser page, which is no isolate, passes larger ones (src/runtime/browser/budgets.ts).
 */
export interface ScriptEngineBudgets {
  fonteditor?: Partial<FontBudget>;
  sheetjs?: Partial<SheetJsBudget>;
  dxf?: Partial<DxfBudget>;
}

/** The methods of {@link lazyScriptEngines}' engines; test/unit/browser-engines.test.ts checks them against the engines. */
export const SCRIPT_ENGINE_METHODS = { fonteditor: ["convert"], sheetjs: ["convert"], dxf: ["convert"] } as const;
