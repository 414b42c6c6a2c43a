/**
 * How a write's properties become ExifTool arguments, and how ExifTool's answers to a write are read
 * back as "which property could not be written". The rules for the properties `metadata/write` may
 * set are the metadata kind's (kinds/metadata.ts `checkTags`).
 */
// shared with the native ExifTool (issue 49): native-protocol/metadata.ts
export { namedProperty, tagArgs } from "../../../native-protocol/metadata";
