/**
 * How a write's properties become ExifTool arguments, and how ExifTool's answers to a write are read
 * back as "which property could not be written". The rules for the properties `metadata/write` may
 * set are the metadata kind's (kinds/metadata.ts `checkTags`).
 */

/** The ExifTool arguments that set `tags`: `-Tag=value` (a list repeats it; "" deletes the tag). */
export function tagArgs(tags: Record<string, string | number | string[]>): string[] {
  return Object.entries(tags).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v) => `-${name}=${String(v)}`),
  );
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
    if (
      new RegExp(`(^|[\\s':,])([\\w-]+:)?${escaped}(?=$|[\\s',.(])`, "i").test(
        message.replace(/^(Warning|Error): /, " "),
      )
    )
      return name;
  }
  return undefined;
}
