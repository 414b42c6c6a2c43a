/**
 * The ExifTool engine family (ExifTool 13.42 on zeroperl): the engine seam (types.ts), the
 * in-process engine (engine.ts), the property rules of metadata/write (tags.ts). Operations should
 * import the pure files (types, version, tags) directly so their bundle does not pull zeroperl in.
 */
export * from "./types";
export { EXIFTOOL_ENGINE } from "./version";
export { createExifToolEngine, type ExifToolLoader } from "./engine";
export { checkTags, TAG_NAME } from "./tags";
