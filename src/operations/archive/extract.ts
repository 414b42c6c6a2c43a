/**
 * `convert` from an archive (issue 15): with `output_format: "files"` every regular file of the
 * archive becomes an output file of the task (so later tasks convert each); with an archive
 * `output_format` the same files are written into a new archive, paths kept (zip → 7z, rar → zip).
 * Outputs are named by the member's own file name, a repeated name made unique ("a.txt",
 * "a-2.txt"); the task's result lists every member's path in the archive beside its output name
 * (`members`) and the entries not taken out (`skipped`: links, devices). Nested archives are not
 * opened: they come out as files a later convert can open.
 */
import {
  ARCHIVE_INPUTS,
  ARCHIVE_OUTPUTS,
  NATIVE_ARCHIVE_CONVERSIONS,
  type ArchiveInput,
  type ArchiveOutput,
} from "../../engines/kinds/archive";
import { useEngine } from "../../engines/use";
import { uniqueNames } from "../io/zip";
import { engineCall, formatOf, outputName, readInputOrStream, throwIfAborted } from "../kit";
import type { OperationHandler, OutputFile } from "../types";
import { archiveParams, REFUSED_OUTPUTS, type ArchiveParams } from "./common";

/** The output_format that asks for the members themselves. */
export const MEMBERS_FORMAT = "files";

/** convert from zip, 7z, rar, tar (plain, gz, bz2, xz) or iso to "files" or another archive format. */
export const archiveExtract: OperationHandler<ArchiveParams> = {
  operation: "convert",
  kind: "archive",
  formats: [
    ...ARCHIVE_INPUTS.flatMap((input) => [...ARCHIVE_OUTPUTS, MEMBERS_FORMAT].map((output) => ({ input, output }))),
    // issue 34: lz, lzo, rz, tar.lzo, alz, arc (native tools), and disk images → tar.lzo
    ...NATIVE_ARCHIVE_CONVERSIONS,
  ],
  params: archiveParams,
  credits: 1,
  takesInput: true,
  requiresOutputFormat: true,
  refusedOutputs: REFUSED_OUTPUTS,
  async run(inputs, p, ctx) {
    const { engine, row } = useEngine(ctx, "archive", "convert");
    const out = p.output_format!;
    const files: OutputFile[] = [];
    const members: { path: string; filename: string; size: number; from: string }[] = [];
    const skipped: { path: string; reason: string; from: string }[] = [];
    let version = row.version;
    for (const [i, input] of inputs.entries()) {
      throwIfAborted(ctx.signal);
      const format = formatOf(input, p.input_format) as ArchiveInput;
      const repack = out === MEMBERS_FORMAT ? undefined : (out as ArchiveOutput);
      const r = await engineCall(
        engine.extract({
          // issue 49: a row that streams (the native archive engine) gets a large archive as a stream
          input: { data: await readInputOrStream(input, ctx, row), filename: input.filename },
          format,
          password: p.password,
          repack,
          level: p.compression_level,
        }),
        input.filename,
        row.name,
      );
      version = r.engineVersion;
      skipped.push(...r.skipped.map((s) => ({ ...s, from: input.filename })));
      if (repack) {
        files.push({
          filename: outputName({
            filename: p.filename,
            input: input.filename,
            ext: out,
            index: i + 1,
            numbered: false,
          }),
          data: r.archive!,
        });
        continue;
      }
      for (const m of r.members)
        members.push({
          path: m.path,
          filename: m.path.split("/").pop() || "file",
          size: m.data instanceof Uint8Array ? m.data.byteLength : m.data.length,
          from: input.filename,
        });
      files.push(...r.members.map((m) => ({ filename: "", data: m.data })));
    }
    if (out === MEMBERS_FORMAT) {
      const names = uniqueNames(members.map((m) => m.filename));
      names.forEach((n, i) => {
        members[i]!.filename = n;
        files[i]!.filename = n;
      });
      return { files, extra: { members, skipped }, engine: { name: row.name, version } };
    }
    // issue 44: a member the new archive does not hold is named where every client looks, not only in result.skipped
    const warnings = skipped.map((s) => `${s.from}: ${s.path} is not in the ${out} archive: ${s.reason}.`);
    return {
      files,
      extra: skipped.length ? { skipped, warnings } : undefined,
      engine: { name: row.name, version },
    };
  },
};
