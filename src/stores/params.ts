/**
 * Zod pieces the store schemas share, with messages in the style of the other operations
 * ("bucket: is required.").
 */
import { z } from "zod";

/** A required non-empty string of at most `max` characters. */
export const required = (max = 1024) =>
  z.string({ error: "is required (a string)." }).min(1, "is required.").max(max, `must be at most ${max} characters.`);

/** An optional string of at most `max` characters. */
export const optional = (max = 1024) => z.string().max(max, `must be at most ${max} characters.`).optional();

/** Metadata map (HTTP header names `x-amz-meta-*`, `x-ms-meta-*`): at most 50 entries of token keys. */
export const stringMap = z
  .record(
    z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, "keys may hold letters, digits, '_', '.' and '-' only."),
    z.string().max(1024),
  )
  .refine((m) => Object.keys(m).length <= 50, "at most 50 entries.")
  .optional();

/** S3 object tags: keys of letters, digits, spaces and + - = . _ : / @ (AWS's tag rules), at most 10. */
export const tagMap = z
  .record(
    z
      .string()
      .regex(/^[\p{L}\p{Z}\p{N}_.:/=+\-@]{1,128}$/u, "tag keys may hold letters, digits, spaces and + - = . _ : / @."),
    z.string().max(256),
  )
  .refine((m) => Object.keys(m).length <= 10, "at most 10 tags.")
  .optional();

/** The message when neither the one-object parameter nor the several-objects one is given. */
export function oneOf(p: Record<string, unknown>, one: string, many: string): string[] {
  const has = (k: string) => typeof p[k] === "string" && p[k] !== "";
  if (has(one) && has(many)) return [`${one}: give either ${one} or ${many}, not both.`];
  if (!has(one) && !has(many)) return [`${one}: ${one} or ${many} is required.`];
  return [];
}
