/**
 * Running a job and watching it: on this server (posted, its files uploaded, its Server-Sent Events followed) or in
 * this browser (the browser build); each task as a row of the run table, the results as cards, all of them as one zip.
 */
import type { JobJson, ResultFile, TaskJson } from "../model/types";
import { distinctList, files, missingUploads } from "./builder";
import { uploadsOf, type JobBody } from "./code";
import { $, api, h, key } from "./dom";
import { browserBuild, metadataTable, resultCard } from "./results";

/** The run table's row of each task, by task id. */
let rows: Record<string, HTMLTableRowElement> = {};
/** The job last shown. */
let shown: JobJson | null = null;

/** The seconds from a to b ("" unless both are times). */
function seconds(a: string | null | undefined, b: string | null | undefined): string {
  return a && b ? `${Math.max(0, (Date.parse(b) - Date.parse(a)) / 1000)} s` : "";
}

/** Shows task t in its row of the run table (added on first sight): status, progress, engine, duration, credits, message. */
export function showTask(t: TaskJson): void {
  let tr = rows[t.id];
  if (!tr) {
    tr = h("tr", { "data-task": t.name }, [
      h("td"),
      h("td"),
      h("td"),
      h("td", {}, [
        h(
          "div",
          {
            class: "bar",
            role: "progressbar",
            "aria-valuemin": 0,
            "aria-valuemax": 100,
            "aria-label": `progress of ${t.name}`,
          },
          [h("div")],
        ),
      ]),
      h("td"),
      h("td"),
      h("td"),
      h("td"),
    ]);
    $("tasks").appendChild(tr);
    rows[t.id] = tr;
  }
  const c = tr.children as HTMLCollectionOf<HTMLElement>;
  const pct = t.status === "finished" ? 100 : t.percent || 0;
  const bar = c[3]!.firstChild as HTMLElement;
  c[0]!.textContent = t.name ?? "";
  c[1]!.textContent = t.operation;
  c[2]!.textContent = t.status;
  c[2]!.className = `status-${t.status}`;
  bar.setAttribute("aria-valuenow", String(pct));
  bar.className = `bar ${t.status}`;
  bar.title = `${pct} %`;
  (bar.firstChild as HTMLElement).style.width = `${pct}%`;
  c[4]!.textContent = t.engine ? `${t.engine} ${t.engine_version || ""}` : "";
  c[5]!.textContent = seconds(t.started_at, t.ended_at);
  c[6]!.textContent = t.credits === null || t.credits === undefined ? "" : String(t.credits);
  c[7]!.innerHTML = "";
  if (t.code) c[7]!.appendChild(h("span", { class: "code", text: t.code }));
  if (t.message) c[7]!.appendChild(document.createTextNode(` ${t.message}`));
  const warn = t.result?.warnings as unknown[] | undefined;
  if (warn && warn.length)
    c[7]!.appendChild(
      h("div", {
        class: "muted",
        text: `warnings: ${warn.map((w) => (typeof w === "string" ? w : JSON.stringify(w))).join("; ")}`,
      }),
    );
}

/** Empties the run table, the results and the zip link. */
export function resetRun(): void {
  $("results").innerHTML = "";
  $("tasks").innerHTML = "";
  rows = {};
  $("zip").hidden = true;
  $("zipstatus").textContent = "";
}

/** Shows a job's status, credits and duration and each of its tasks; its results once it ended (not for a local run). */
export function showJob(job: JobJson, local?: boolean): void {
  shown = job;
  const credits = (job.tasks || []).reduce((n, t) => n + (t.credits || 0), 0);
  const status = $("jobstatus");
  status.textContent =
    `job ${job.id}: ${job.status}` +
    (job.status === "finished" || job.status === "error"
      ? ` · ${credits} credits` + (job.ended_at ? ` · ${seconds(job.started_at || job.created_at, job.ended_at)}` : "")
      : "");
  status.dataset.status = job.status;
  (job.tasks || []).forEach(showTask);
  if (job.status !== "finished" && job.status !== "error") return;
  if (local) return;
  showResults(job);
}

/** The cards of a finished job's exported files and metadata; the zip button when there are two files or more. */
function showResults(job: JobJson): void {
  const results = $("results");
  results.innerHTML = "";
  let exported: string[] = [];
  let count = 0;
  for (const t of job.tasks || []) {
    if (t.status !== "finished") continue;
    if (t.operation === "export/url") {
      for (const f of (t.result?.files as ResultFile[] | undefined) || []) {
        count++;
        results.appendChild(resultCard(f.filename, f.url!, f.size));
      }
      exported = exported.concat(t.depends_on_task_ids || []);
    }
    const m = metadataTable(t);
    if (m) results.appendChild(m);
  }
  // one file is its own download (an archive_multiple_files export of one file is that file, as CloudConvert does)
  const zip = $("zip");
  zip.hidden = count < 2;
  zip.dataset.inputs = JSON.stringify(distinctList(exported));
}

/** Exports the files shown as one zip (archive_multiple_files) and links it. */
export function makeZip(): void {
  $("zipstatus").textContent = "making the zip…";
  api<{ data: TaskJson }>("POST", "/v2/export/url", {
    input: JSON.parse($("zip").dataset.inputs!),
    archive_multiple_files: true,
  })
    .then((r) => api<{ data: TaskJson }>("GET", `/v2/tasks/${r.data.id}/wait`))
    .then((r) => {
      const f = (r.data.result?.files as ResultFile[] | undefined)?.[0];
      if (!f) throw new Error(`${r.data.code}: ${r.data.message}`);
      $("zipstatus").textContent = "";
      $("zipstatus").appendChild(
        h("a", { class: "download zip", href: f.url, download: f.filename, text: `download ${f.filename}` }),
      );
    })
    .catch((e: Error) => {
      $("zipstatus").textContent = e.message;
    });
}

/** Reads the job's Server-Sent Events with fetch (EventSource cannot send the Authorization header). */
async function follow(jobId: string): Promise<void> {
  const res = await fetch(`/v2/jobs/${jobId}/events`, { headers: { authorization: `Bearer ${key()}` } });
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = "";
  for (;;) {
    const r = await reader.read();
    if (r.done) return;
    buf += dec.decode(r.value, { stream: true });
    let at: number;
    while ((at = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, at);
      buf = buf.slice(at + 2);
      const data = block
        .split("\n")
        .filter((l) => l.indexOf("data: ") === 0)
        .map((l) => l.slice(6))
        .join("\n");
      if (!data) continue;
      const e = JSON.parse(data) as { job?: JobJson; task?: TaskJson };
      if (e.job) showJob(e.job);
      if (e.task) showTask(e.task);
    }
  }
}

/** The same job in this browser (issue 19): the engines run in a Web Worker, files stay here. */
async function runHere(body: JobBody): Promise<void> {
  const missing = missingUploads(body);
  if (missing.length) throw new Error(`Choose a file for ${missing.join(", ")}.`);
  const given: Record<string, File> = {};
  for (const n of uploadsOf(body)) given[n] = files[n]![0]!;
  const m = await browserBuild();
  const r = await m.runJob(body, { files: given, onProgress: (j) => showJob(j, true) });
  showJob(r.job, true);
  const results = $("results");
  results.innerHTML = "";
  for (const o of r.outputs)
    results.appendChild(resultCard(o.filename, URL.createObjectURL(o.blob), o.blob.size, o.blob));
  for (const t of r.job.tasks || []) {
    const m = metadataTable(t);
    if (m) results.appendChild(m);
  }
}

/** Posts an import/upload task's file to its form. */
async function upload(task: TaskJson, file: File): Promise<void> {
  const form = new FormData();
  const { url, parameters } = (task.result as { form: { url: string; parameters: Record<string, string> } }).form;
  for (const [k, v] of Object.entries(parameters)) form.append(k, v);
  form.append("file", file, file.name);
  const res = await fetch(url, { method: "POST", body: form });
  if (res.status !== 201) throw new Error(`upload of ${file.name} failed: ${res.status}`);
}

/**
 * Runs a job: in this browser when "run in this browser" is ticked, else posted to this server, its files uploaded and
 * its events followed until it ends. Errors go to #error; `done` is called once it is over either way.
 */
export function runJson(body: JobBody, done: () => void): Promise<void> {
  $("error").textContent = "";
  resetRun();
  $("h-run").scrollIntoView({ block: "start" });
  const run = $<HTMLButtonElement>("run");
  run.disabled = true;
  const finish = () => {
    run.disabled = false;
    done();
  };
  if ($<HTMLInputElement>("local").checked) {
    return runHere(body)
      .catch((e: Error & { code?: string; errors?: unknown }) => {
        $("error").textContent =
          (e.code ? `${e.code}: ` : "") + e.message + (e.errors ? `\n${JSON.stringify(e.errors, null, 1)}` : "");
      })
      .then(finish);
  }
  const missing = missingUploads(body);
  if (missing.length) {
    $("error").textContent = `Choose a file for ${missing.join(", ")}.`;
    run.disabled = false;
    return Promise.resolve();
  }
  return api<{ data: JobJson }>("POST", "/v2/jobs", body)
    .then(async (r) => {
      const job = r.data;
      showJob(job);
      const following = follow(job.id);
      const uploads = (job.tasks || []).filter((t) => t.operation === "import/upload");
      await Promise.all(uploads.map((t) => upload(t, files[t.name!]![0]!)));
      await following;
      const last = shown as JobJson | null;
      if (!last || (last.status !== "finished" && last.status !== "error")) {
        const j = await api<{ data: JobJson }>("GET", `/v2/jobs/${job.id}`);
        showJob(j.data);
      }
    })
    .catch((e: Error) => {
      $("error").textContent = e.message;
    })
    .then(finish);
}
