/**
 * The archive operation family (issue 15): `archive` (create.ts) and `convert` from an archive
 * (extract.ts), both on the archive engine (7-Zip in WebAssembly). The registry lists ARCHIVE_HANDLERS explicitly.
 */
import type { OperationHandler } from "../types";
import { ARCHIVE_CREATE_HANDLERS } from "./create";
import { archiveExtract } from "./extract";

/** The archive rows. */
export const ARCHIVE_HANDLERS: OperationHandler[] = [...ARCHIVE_CREATE_HANDLERS, archiveExtract];
