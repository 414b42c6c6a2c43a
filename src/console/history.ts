/**
 * The history: the account's jobs ten a page (filtered by status and tag), each opened, re-run or deleted from its row.
 */
import type { JobJson } from "../model/types";
import { loadJob, jobJson, updateJson } from "./builder";
import { $, api, h, key } from "./dom";
import { resetRun, runJson, showJob } from "./run";

/** The page shown, and the number of the latest request (only its answer is shown). */
const hist = { page: 1, seq: 0 };

/** Shows page `page` of the history with the filters set (nothing without a key). */
export function loadHistory(page: number): void {
  if (!key()) return;
  const seq = ++hist.seq; // only the latest answer is shown (filters may change while one is on its way)
  const status = $<HTMLSelectElement>("hstatus").value;
  const tag = $<HTMLInputElement>("htag").value.trim();
  const q =
    `?include=tasks&per_page=10&page=${page}` +
    (status ? `&filter[status]=${status}` : "") +
    (tag ? `&filter[tag]=${encodeURIComponent(tag)}` : "");
  api<{ data: JobJson[]; links?: { next?: string | null } }>("GET", `/v2/jobs${q}`).then(
    (r) => {
      if (seq !== hist.seq) return;
      hist.page = page;
      const body = $("history");
      body.innerHTML = "";
      for (const job of r.data) body.appendChild(historyRow(job));
      $("hpage").textContent = `page ${page}`;
      $<HTMLButtonElement>("hprev").disabled = page <= 1;
      $<HTMLButtonElement>("hnext").disabled = !r.links?.next;
    },
    (e: Error) => {
      $("hpage").textContent = e.message;
    },
  );
}

/** Shows the history page shown again (after a run or a deletion). */
export function reloadHistory(): void {
  loadHistory(hist.page);
}

/** Shows the previous (-1) or next (+1) page of the history. */
export function turnHistory(by: number): void {
  loadHistory(hist.page + by);
}

/** A job's row: its id, tag, status, creation, tasks (failed ones with their code) and its buttons. */
function historyRow(job: JobJson): HTMLTableRowElement {
  const tasks = job.tasks || [];
  const failed = tasks.filter((t) => t.status === "error");
  return h("tr", { "data-job": job.id }, [
    h("td", {}, [h("code", { text: job.id.slice(0, 8) })]),
    h("td", { text: job.tag || "" }),
    h("td", { class: `status-${job.status}`, text: job.status }),
    h("td", { text: job.created_at }),
    h("td", {
      text:
        tasks.map((t) => t.name).join(", ") +
        (failed.length ? ` — ${failed.map((t) => `${t.name}: ${t.code}`).join(", ")}` : ""),
    }),
    h("td", {}, [
      h("button", {
        type: "button",
        class: "secondary open",
        "aria-label": `open job ${job.id}`,
        text: "Open",
        onclick: () => void openJob(job.id),
      }),
      " ",
      h("button", {
        type: "button",
        class: "secondary rerun",
        "aria-label": `re-run job ${job.id}`,
        text: "Re-run",
        onclick: () => void rerun(job.id),
      }),
      " ",
      h("button", {
        type: "button",
        class: "danger delete",
        "aria-label": `delete job ${job.id}`,
        text: "Delete",
        onclick: () => {
          if (confirm(`Delete job ${job.id}?`))
            api("DELETE", `/v2/jobs/${job.id}`).then(reloadHistory, (e: Error) => {
              $("error").textContent = e.message;
            });
        },
      }),
    ]),
  ]);
}

/** The job as the builder holds it: each task's payload (what was posted), names and wiring kept. */
export function jobOf(job: JobJson): { tasks: Record<string, Record<string, unknown>>; tag: string | null } {
  const all = job.tasks || [];
  const ids: Record<string, string | undefined> = {};
  for (const t of all) ids[t.id] = t.name;
  const tasks: Record<string, Record<string, unknown>> = {};
  for (const t of all.slice().sort((a, b) => (a.created_at < b.created_at ? -1 : 0))) {
    if (t.retry_of_task_id || t.copy_of_task_id) continue;
    const p: Record<string, unknown> = { ...(t.payload || {}) };
    delete p.name;
    p.operation = t.operation;
    if (p.input === undefined && t.depends_on_task_ids && t.depends_on_task_ids.length)
      p.input = t.depends_on_task_ids.map((id) => ids[id]);
    tasks[t.name!] = p;
  }
  return { tasks, tag: job.tag };
}

/** Shows a job of the history in the run table, with its results. */
function openJob(id: string): Promise<void> {
  resetRun();
  return api<{ data: JobJson }>("GET", `/v2/jobs/${id}?include=tasks`).then(
    (r) => {
      showJob(r.data);
      $("h-run").scrollIntoView();
    },
    (e: Error) => {
      $("error").textContent = e.message;
    },
  );
}

/** Loads a job of the history into the builder and runs it again (upload tasks take the files chosen in this tab). */
function rerun(id: string): Promise<void> {
  return api<{ data: JobJson }>("GET", `/v2/jobs/${id}`)
    .then((r) => {
      loadJob(jobOf(r.data));
      updateJson();
      return runJson(jobJson(), reloadHistory);
    })
    .catch((e: Error) => {
      $("error").textContent = e.message;
    });
}
