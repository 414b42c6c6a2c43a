/**
 * `archive` (service-spec: "creates a ZIP, RAR, 7Z, TAR, TAR.GZ or TAR.BZ2 archive"; issue 15): one
 * archive of the files of all its inputs, written by the archive engine (7-Zip). Member names are
 * the files' own names, a repeated name made unique the way export/url's archive does ("a.pdf",
 * "a-2.pdf"). RAR is refused at creation (REFUSED_OUTPUTS). Over the WebAssembly engine's budget the native 7-Zip
 * (row archive-native, issue 49) writes it on disk with the same options (password: AES-256; compression_level: -mx).
 */
import { ARCHIVE_OUTPUTS, type ArchiveOutput } from "../../engines/kinds/archive";
import { useEngine } from "../../engines/use";
import { uniqueNames } from "../io/zip";
import { baseName, engineCall } from "../kit";
import type { OperationHandler } from "../types";
import { archiveParams, readOrDefer, REFUSED_OUTPUTS, tarParams, type ArchiveParams } from "./common";

/** The archive handler for `outputs`; `params` without `password` for the tar formats, which cannot be encrypted. */
function archiveTo(
  outputs: readonly ArchiveOutput[],
  params: typeof archiveParams | typeof tarParams,
): OperationHandler<ArchiveParams> {
  return {
    operation: "archive",
    kind: "archive",
    formats: outputs.map((output) => ({ input: "*", output })),
    params: params as typeof archiveParams,
    credits: 1,
    takesInput: true,
    requiresOutputFormat: true,
    refusedOutputs: REFUSED_OUTPUTS,
    // a password is a promise of encryption: on a tar it stays a 422 rather than an ignored option (issue 31)
    ...(params === tarParams
      ? {
          refusedParams: {
            password: "parameter not supported by archive to a tar format, which cannot be encrypted (use zip or 7z).",
          },
        }
      : {}),
    async run(inputs, p, ctx) {
      const { engine, row } = useEngine(ctx, "archive", "archive");
      const format = p.output_format as ArchiveOutput;
      // issue 49: files over the WebAssembly 7-Zip's budget (OVER_BUDGET there hands the task on) go to the native
      // 7-Zip, streamed from the store into its folder one after another; the archive comes back streamed from disk
      const data = await readOrDefer(inputs, ctx, row);
      const names = uniqueNames(inputs.map((f) => f.filename));
      const r = await engineCall(
        engine.create({
          files: names.map((name, i) => ({ name, data: data[i]! })),
          format,
          password: p.password,
          level: p.compression_level,
        }),
        "",
        row.name,
      );
      const filename = p.filename ?? `${inputs.length === 1 ? baseName(names[0]!) : "archive"}.${format}`;
      return { files: [{ filename, data: r.data }], engine: { name: row.name, version: r.engineVersion } };
    },
  };
}

/** archive to zip or 7z (may be encrypted with `password`), and to the tar formats. */
export const ARCHIVE_CREATE_HANDLERS = [
  archiveTo(["zip", "7z"], archiveParams),
  archiveTo(
    ARCHIVE_OUTPUTS.filter((f) => f !== "zip" && f !== "7z"),
    tarParams,
  ),
];
