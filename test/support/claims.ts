/**
 * What this server claims to do, read from the operation registry × the engine table exactly as
 * routing reads them (src/operations/registry.ts `candidatesOf`, the same rows GET /v2/operations
 * lists). Corpus sweeps split their files with it (issue 30 part 0): a file of a claimed format is
 * held to its native oracle; a file of a format nobody claims yet must end in a clear coded error.
 * When a format issue adds a row, its corpus files move from the second group to the first on
 * their own, with no test edited.
 */
import { candidatesOf, handlersOf } from "../../src/operations/registry";
import { extensionOf } from "../../src/operations/io/filenames";

/**
 * The engines (table names, routing order) that may run `operation` from `input` to `output`;
 * [] when none does. Formats are lower-case extensions as a task declares them.
 */
export function claimedBy(operation: string, input: string, output?: string): string[] {
  return candidatesOf(handlersOf(operation) ?? [], { input, output }).map((c) => c.engine.name);
}

/** True when some engine of the table runs `operation` for a file named `filename` (its extension is the input format) to `output`. */
export function claims(operation: string, filename: string, output?: string): boolean {
  const input = extensionOf(filename);
  return input !== "" && claimedBy(operation, input, output).length > 0;
}

/**
 * Splits a sweep's files into the ones claimed for (operation → output) and the rest; the second
 * list is what the sweep expects to end in a coded error, named in each test's title.
 */
export function byClaim(
  files: readonly string[],
  operation: string,
  output?: string,
): { claimed: string[]; unclaimed: string[] } {
  const claimed = files.filter((f) => claims(operation, f, output));
  return { claimed, unclaimed: files.filter((f) => !claimed.includes(f)) };
}
