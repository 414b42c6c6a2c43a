/**
 * Engine identity for registry rows, known without loading the 25 MB interpreter. It is the
 * version of the `exiftool` script vendored in wasm/exiftool/perl-files.json and of the
 * Image::ExifTool library built into zeroperl (@6over3/zeroperl-ts 1.0.10);
 * test/unit/metadata-engine.test.ts asserts the engine reports exactly this.
 */
export const EXIFTOOL_ENGINE = { name: "exiftool", version: "13.42" } as const;
