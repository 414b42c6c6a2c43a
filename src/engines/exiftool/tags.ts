/**
 * Rules for the properties `metadata/write` may set, and how ExifTool's answers to a write are
 * read back as "which property could not be written".
 */

/** `Tag` or `Group:Tag` (ExifTool tag names are letters, digits, `-` and `_`; e.g. "XMP-dc:Title"). */
export const TAG_NAME = /^(?:[A-Za-z][\w-]{0,63}:)?[A-Za-z][\w-]{0,63}$/;

/**
 * Pseudo-tags that would rename, move, link or strip the file rather than set metadata
 * (ExifTool "Extra Tags" writable only as file operations), and the File group itself.
 */
const FORBIDDEN = new Set(["all", "filename", "directory", "testname", "hardlink", "symlink", "filemodifydate", "filecreatedate", "filepermissions", "fileattributes", "fileuserid", "filegroupid"]);

/** Largest value of one property, characters (XMP and PDF strings are unbounded; this keeps calls small). */
export const MAX_VALUE_LENGTH = 64 * 1024;

/**
 * Checks the `metadata` object of metadata/write. Returns messages naming each bad property
 * (empty when all are fine). Values: string, number, or a list of strings (Keywords).
 */
export function checkTags(tags: Record<string, unknown>): string[] {
  const errors: string[] = [];
  const names = Object.keys(tags);
  if (names.length === 0) errors.push("metadata must name at least one property, e.g. {\"Title\": \"Report\"}.");
  for (const name of names) {
    const value = tags[name];
    const bare = name.includes(":") ? name.slice(name.indexOf(":") + 1) : name;
    if (!TAG_NAME.test(name)) errors.push(`metadata.${name}: not an ExifTool property name (letters, digits, - and _, optionally Group:Name).`);
    else if (FORBIDDEN.has(bare.toLowerCase()) || /^file:/i.test(name)) errors.push(`metadata.${name}: describes the file, not its metadata, and cannot be written.`);
    const list = Array.isArray(value) ? value : [value];
    if (list.some((v) => typeof v !== "string" && typeof v !== "number")) errors.push(`metadata.${name}: must be a string, a number or a list of strings.`);
    else if (list.some((v) => String(v).length > MAX_VALUE_LENGTH)) errors.push(`metadata.${name}: longer than ${MAX_VALUE_LENGTH} characters.`);
  }
  return errors;
}

/** The ExifTool arguments that set `tags`: `-Tag=value` (a list repeats it; "" deletes the tag). */
export function tagArgs(tags: Record<string, string | number | string[]>): string[] {
  return Object.entries(tags).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => `-${name}=${String(v)}`));
}

/**
 * The requested property a warning of ExifTool names, if any. ExifTool's wordings (Writer.pl):
 * "Tag 'X' is not defined", "Sorry, X doesn't exist or isn't writable", "Sorry, G:X is not
 * writable", "Not an integer for G:X", "Error converting value for G:X (ValueConvInv)",
 * "Can't write G:X …" — the name appears bare or behind a group.
 */
export function namedProperty(message: string, names: string[]): string | undefined {
  if (/^Warning: \[minor\]/.test(message)) return undefined;
  for (const name of names) {
    const bare = name.includes(":") ? name.slice(name.indexOf(":") + 1) : name;
    const escaped = bare.replace(/[-]/g, "\\-");
    if (new RegExp(`(^|[\\s':,])([\\w-]+:)?${escaped}(?=$|[\\s',.(])`, "i").test(message.replace(/^(Warning|Error): /, " "))) return name;
  }
  return undefined;
}
