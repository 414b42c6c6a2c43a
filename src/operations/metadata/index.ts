/**
 * The metadata operation family (ExifTool engine): `metadata` (read) and `metadata/write`. The
 * registry (operations/registry.ts) lists METADATA_HANDLERS explicitly.
 */
import type { OperationHandler } from "../types";
import { metadataRead, metadataParams } from "./read";
import { metadataWrite, metadataWriteParams } from "./write";

export { metadataRead, metadataWrite, metadataParams, metadataWriteParams };
export { METADATA_READ_FORMATS, METADATA_WRITE_FORMATS } from "./formats";

/** The metadata rows. */
export const METADATA_HANDLERS: OperationHandler[] = [metadataRead, metadataWrite];
