/**
 * Engine identity for the table (registry.ts), known without importing SheetJS: the version of
 * `@e965/xlsx`, SheetJS Community Edition 0.20.3 republished on npm (Apache-2.0; package.json pins it exactly).
 */
export const SHEETJS_ENGINE = { name: "sheetjs", version: "0.20.3" } as const;
