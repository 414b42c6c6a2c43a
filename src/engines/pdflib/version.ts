/**
 * Engine identity for the table (registry.ts), known without importing pdf-lib: the
 * @cantoo/pdf-lib package version (test/unit/pdf-rows.test.ts checks it against node_modules).
 */
export const PDFLIB_ENGINE = { name: "pdflib", version: "2.11.1" } as const;
