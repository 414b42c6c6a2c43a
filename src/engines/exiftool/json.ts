/**
 * From `exiftool -json` output to the `metadata` result: scalar values, and the file-system
 * properties of the sandbox replaced by what the user uploaded.
 */
// shared with the native ExifTool (issue 49), so both rows answer alike
export { messagesOf, SANDBOX_KEYS, toMetadata, toScalar } from "../../../native-protocol/metadata";
