/**
 * 7-Zip's technical listing and the checks made on it before extraction: the shared module
 * native-protocol/archive-listing.ts (the native archive engine checks listings the same way).
 */
export * from "../../../native-protocol/archive-listing";
