/**
 * Engine identity of the JavaScript DXF engine (row "dxf", registry.ts), known without loading it: the npm
 * package `dxf` (MIT, pure JavaScript; package.json pins it exactly), whose version this is.
 */
export const DXF_ENGINE = { name: "dxf", version: "5.3.1" } as const;
