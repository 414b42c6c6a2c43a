/**
 * Runs a job through the official SDK the way a user does: upload a corpus file into task "in",
 * run `tasks` (which read from "in"), export every task not named with a leading "_", wait, and
 * download each exported file to a temp path for native-tool oracles.
 */
import { createReadStream } from "node:fs";
import { corpusPath } from "./corpus";
import { tempFile } from "./native";
import { type JobBody, sdk } from "./sdk";

/**
 * A job's tasks as the tests write them: name → operation and options. Options and operations beyond the SDK's typed
 * union are among them, so the job body is cast to the SDK's JobBody (see sdk.ts): the SDK sends it as given.
 */
export type TaskDefs = Record<string, Record<string, unknown>>;

export async function runCorpusJob(base: string, rel: string, tasks: TaskDefs, key = "key-a") {
  return runFileJob(base, corpusPath(rel), tasks, key);
}

/** {@link runCorpusJob} for a file at `path` (one a test made from a corpus file, e.g. a rotated scan); uploaded under its base name. */
export async function runFileJob(base: string, path: string, tasks: TaskDefs, key = "key-a") {
  const cc = sdk(key, base);
  const named = Object.fromEntries(Object.entries(tasks).map(([n, t]) => [n.replace(/^_/, ""), t]));
  const exports = Object.fromEntries(
    Object.keys(tasks)
      .filter((n) => !n.startsWith("_"))
      .map((n) => [`export-${n}`, { operation: "export/url", input: n }]),
  );
  let job = await cc.jobs.create({ tasks: { in: { operation: "import/upload" }, ...named, ...exports } } as JobBody);
  await cc.tasks.upload(
    job.tasks.find((t) => t.name === "in")!,
    createReadStream(path),
    path.split("/").pop()!,
  );
  job = await cc.jobs.wait(job.id);
  const files: Record<string, { filename: string; path: string }[]> = {};
  for (const t of job.tasks.filter((t) => t.operation === "export/url" && t.status === "finished")) {
    files[t.name!.slice("export-".length)] = await Promise.all(
      t.result!.files!.map(async (f) => ({
        filename: f.filename,
        path: tempFile(f.filename, new Uint8Array(await (await fetch(f.url!)).arrayBuffer())),
      })),
    );
  }
  return { job, files, task: (n: string) => job.tasks.find((t) => t.name === n)! };
}

/**
 * Uploads the corpus files `rels` into tasks up0, up1 …, runs `tasks` (with their own export/url
 * tasks), waits, and downloads every exported file (in the job's export order) to a temp path.
 */
export async function runUploadJob(base: string, rels: string[], tasks: TaskDefs, key = "key-a") {
  const cc = sdk(key, base);
  const ups = Object.fromEntries(rels.map((_, i) => [`up${i}`, { operation: "import/upload" }]));
  let job = await cc.jobs.create({ tasks: { ...ups, ...tasks } } as JobBody);
  for (const [i, rel] of rels.entries())
    await cc.tasks.upload(
      job.tasks.find((t) => t.name === `up${i}`)!,
      createReadStream(corpusPath(rel)),
      rel.split("/").pop()!,
    );
  job = await cc.jobs.wait(job.id);
  const downloads: { filename: string; path: string }[] = [];
  for (const f of cc.jobs.getExportUrls(job))
    downloads.push({
      filename: f.filename!,
      path: tempFile(f.filename!, new Uint8Array(await (await fetch(f.url!)).arrayBuffer())),
    });
  return { job, downloads };
}
