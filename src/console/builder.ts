/**
 * The job builder: the model (tasks in order, each {name, body: the task's JSON, raw: text typed into options that
 * does not parse}), its form generated from the catalogue (GET /v2/operations, /openapi.json), and the Job JSON and
 * "copy as code" views that follow it. The JSON box edits the model too (loadJob).
 */
import { codeFor, uploadsOf, type JobBody, type Lang } from "./code";
import { $, dropZone, h, key, type Child } from "./dom";
import {
  OWN_FIELDS,
  distinct,
  fieldsOf,
  parseValue,
  rowsFor,
  showValue,
  type CatalogueOption,
  type CatalogueRow,
  type Field,
  type OpenApiProperty,
} from "./forms";

/** A task's JSON as the builder holds it: `input` always a list. */
export interface TaskBody {
  operation: string;
  input?: string[];
  input_format?: string;
  output_format?: string;
  engine?: string;
  engine_version?: string;
  filename?: string;
  url?: string;
  file?: string;
  [option: string]: unknown;
}

/** One task of the builder: its name, its JSON, and the text typed into options that does not parse (by option). */
export interface BuilderTask {
  name: string;
  body: TaskBody;
  raw: Record<string, string>;
}

/** The catalogue: its rows, the operations among them, and /openapi.json's schemas (Task_<operation>). */
interface Catalogue {
  rows: CatalogueRow[];
  ops: string[];
  props: Record<string, { properties?: Record<string, OpenApiProperty> }>;
}

/** The tasks of the builder, in order. */
export const model: { tasks: BuilderTask[] } = { tasks: [] };
/** The File(s) of import/upload and import/base64 tasks, by task name. */
export const files: Record<string, File[]> = {};
const catalogue: Catalogue = { rows: [], ops: [], props: {} };
/** A catalogue row's options and engine versions, fetched once. */
interface RowDetails {
  options: CatalogueOption[];
  engine_versions: { version: string }[];
}
const optionCache: Record<string, Promise<RowDetails>> = {};
let uid = 0;

/** The schema of an operation's task object in /openapi.json. */
const schemaOf = (op: string) => catalogue.props[`Task_${op.replace(/[^a-z0-9]+/gi, "_")}`];

/** The JSON Schema properties of an operation's task object in /openapi.json (descriptions, bounds). */
function propsOf(op: string): Record<string, OpenApiProperty> {
  return schemaOf(op)?.properties ?? {};
}

/** Options (and engine versions) of one catalogue row, fetched once. */
function rowDetails(r: CatalogueRow): Promise<RowDetails> {
  const k = [r.operation, r.input_format, r.output_format, r.engine].join("|");
  if (!optionCache[k]) {
    const q =
      `?include=options,engine_versions&filter[operation]=${encodeURIComponent(r.operation)}&filter[engine]=${encodeURIComponent(r.engine)}` +
      (r.input_format ? `&filter[input_format]=${encodeURIComponent(r.input_format)}` : "") +
      (r.output_format ? `&filter[output_format]=${encodeURIComponent(r.output_format)}` : "");
    optionCache[k] = fetch(`/v2/operations${q}`)
      .then((res) => res.json() as Promise<{ data: (CatalogueRow & RowDetails)[] }>)
      .then((j) => {
        const hit =
          j.data.filter((x) => x.input_format === r.input_format && x.output_format === r.output_format)[0] ||
          j.data[0];
        return hit || { options: [], engine_versions: [] };
      });
  }
  return optionCache[k];
}

/** Loads the catalogue and /openapi.json, fills the "Add a task" list, and renders the default job if none yet. */
export function loadCatalogue(): Promise<void> {
  return Promise.all([
    fetch("/v2/operations").then((r) => r.json() as Promise<{ data: CatalogueRow[] }>),
    fetch("/openapi.json").then((r) => r.json() as Promise<{ components: { schemas: Catalogue["props"] } }>),
  ]).then(([ops, openapi]) => {
    catalogue.rows = ops.data;
    catalogue.props = openapi.components.schemas;
    catalogue.ops = distinct(catalogue.rows, "operation");
    const sel = $<HTMLSelectElement>("add-op");
    sel.innerHTML = "";
    for (const op of catalogue.ops) sel.appendChild(h("option", { value: op, text: op }));
    sel.value = "convert";
    if (!model.tasks.length) {
      model.tasks = [
        { name: "import-1", body: { operation: "import/upload" }, raw: {} },
        { name: "convert-1", body: { operation: "convert", input: ["import-1"], output_format: "webp" }, raw: {} },
        { name: "export-1", body: { operation: "export/url", input: ["convert-1"] }, raw: {} },
      ];
    }
    render();
  });
}

/** The job as JSON: each task's set keys, a single input as a string, the tag when one is typed. */
export function jobJson(): JobBody {
  const tasks: JobBody["tasks"] = {};
  for (const t of model.tasks) {
    const b: Record<string, unknown> = {};
    for (const k of Object.keys(t.body)) if (t.body[k] !== undefined) b[k] = t.body[k];
    if (Array.isArray(b.input) && b.input.length === 1) b.input = b.input[0];
    tasks[t.name] = b;
  }
  const job: JobBody = { tasks };
  const tag = $<HTMLInputElement>("tag").value.trim();
  if (tag) job.tag = tag;
  return job;
}

/** Whether tasks of `op` take an `input` (its task schema in /openapi.json has one: no list kept here). */
export function takesInput(op: string): boolean {
  const s = schemaOf(op);
  return s ? !!s.properties?.input : !/^import\//.test(op);
}

/** A task name not yet used: the operation's last part (import/export for those) and a number. */
function uniqueName(op: string): string {
  let base = op.replace(/^.*\//, "").replace(/[^a-z0-9-]/gi, "-");
  let i = 1;
  if (/^import\//.test(op)) base = "import";
  if (/^export\//.test(op)) base = "export";
  while (model.tasks.some((t) => t.name === `${base}-${i}`)) i++;
  return `${base}-${i}`;
}

/** Appends a task of `op` (its input the last task when it takes one and `body` names none). */
export function addTask(op: string, body: Partial<TaskBody> = {}): BuilderTask {
  const prev = model.tasks[model.tasks.length - 1];
  const b: TaskBody = { operation: op, ...body };
  if (takesInput(op) && !b.input && prev) b.input = [prev.name];
  const t: BuilderTask = { name: uniqueName(op), body: b, raw: {} };
  model.tasks.push(t);
  return t;
}

/** The format the files of task t probably have: its output_format, else its file's or URL's extension, else its input_format or its input task's. */
function formatOf(t: BuilderTask | undefined, depth: number): string | null {
  if (!t || depth > 20) return null;
  if (t.body.output_format) return t.body.output_format;
  const f = files[t.name];
  const name = f?.[0]?.name || t.body.filename || (t.body.url && String(t.body.url).split("?")[0]);
  const ext = name ? /\.([a-z0-9]+)$/i.exec(name) : null;
  if (ext) return ext[1]!.toLowerCase();
  if (t.body.input_format) return t.body.input_format;
  const inputs = t.body.input ?? [];
  return inputs.length ? formatOf(byName(inputs[0]!), depth + 1) : null;
}

/** The builder's task named n. */
function byName(n: string): BuilderTask | undefined {
  return model.tasks.find((t) => t.name === n);
}

/** The format of task t's input: its input_format, else what its first input task gives. */
function inputHint(t: BuilderTask): string | null {
  if (t.body.input_format) return t.body.input_format;
  const inputs = t.body.input ?? [];
  return inputs.length ? formatOf(byName(inputs[0]!), 0) : null;
}

/* ---------- rendering the builder ---------- */

/** A labelled field: the label, the control (given an id if it has none), a help text and an error element. */
function control(label: string, el: HTMLElement, help?: string, err?: Child): HTMLDivElement {
  const id = el.id || (el.id = `f${++uid}`);
  return h("div", { class: "field" }, [
    h("label", { for: id, text: label }),
    el,
    help ? h("span", { class: "help", id: `${id}-help`, text: help }) : null,
    err,
  ]);
}

/** A text input picking one of `values` (its datalist), marked invalid for anything else; `onchange` gets the value. */
function datalistInput(
  values: string[],
  value: string | undefined,
  onchange: (v: string | undefined) => void,
  label: string,
): [HTMLInputElement, HTMLDataListElement] {
  const listId = `l${++uid}`;
  const input = h("input", {
    list: listId,
    value: value || "",
    autocomplete: "off",
    placeholder: "any / search",
    size: 10,
    "aria-label": label,
    "data-format": label,
  });
  input.addEventListener("change", () => {
    const v = input.value.trim().toLowerCase();
    if (v && values.indexOf(v) < 0) {
      input.setAttribute("aria-invalid", "true");
      $("jsonerror").textContent = `${label}: ${v} is not in the catalogue`;
      return;
    }
    input.removeAttribute("aria-invalid");
    onchange(v || undefined);
  });
  return [
    input,
    h(
      "datalist",
      { id: listId, "data-for": label },
      values.map((v) => h("option", { value: v })),
    ),
  ];
}

/** Renders every task's card again, then the JSON; the focus stays on the control that had it. */
export function render(): void {
  const active = document.activeElement as HTMLElement | null;
  const focused = active?.dataset?.focus;
  const box = $("builder");
  box.innerHTML = "";
  model.tasks.forEach((t, i) => box.appendChild(taskCard(t, i)));
  updateJson();
  if (focused) box.querySelector<HTMLElement>(`[data-focus="${focused}"]`)?.focus();
}

/** The card of task t (at `index`): its name, move and remove, input, formats, engine, file, and its option form. */
function taskCard(t: BuilderTask, index: number): HTMLDivElement {
  const b = t.body;
  t.raw = t.raw || {};
  const card = h("div", { class: "task", "data-task": t.name, role: "group", "aria-label": `task ${t.name}` });
  const nameInput = h("input", {
    class: "name",
    value: t.name,
    "aria-label": "task name",
    "data-focus": `${index}-name`,
  });
  nameInput.addEventListener("change", () => {
    const n = nameInput.value.trim();
    if (!n || byName(n)) {
      nameInput.value = t.name;
      return;
    }
    for (const o of model.tasks) if (o.body.input) o.body.input = o.body.input.map((x) => (x === t.name ? n : x));
    if (files[t.name]) {
      files[n] = files[t.name]!;
      delete files[t.name];
    }
    t.name = n;
    render();
  });
  card.appendChild(
    h("header", {}, [
      nameInput,
      h("strong", { text: b.operation }),
      h("button", {
        type: "button",
        class: "secondary",
        "aria-label": `move ${t.name} up`,
        disabled: index === 0,
        text: "↑",
        onclick: () => {
          model.tasks.splice(index, 1);
          model.tasks.splice(index - 1, 0, t);
          render();
        },
      }),
      h("button", {
        type: "button",
        class: "danger",
        "aria-label": `remove ${t.name}`,
        text: "Remove",
        onclick: () => {
          model.tasks.splice(index, 1);
          delete files[t.name];
          render();
        },
      }),
    ]),
  );
  const top = h("div", { class: "fields" });
  card.appendChild(top);
  // input: earlier tasks
  if (takesInput(b.operation)) {
    const inputs = b.input ?? [];
    const box = h("fieldset", { class: "field" }, [h("legend", { class: "lbl", text: "input" })]);
    for (const o of model.tasks.slice(0, index)) {
      const cb = h("input", {
        type: "checkbox",
        checked: inputs.indexOf(o.name) >= 0,
        "data-focus": `${index}-in-${o.name}`,
      });
      cb.addEventListener("change", () => {
        const now = (b.input ?? []).filter((x) => x !== o.name);
        if (cb.checked) now.push(o.name);
        b.input = now.length ? now : undefined;
        render();
      });
      box.appendChild(h("label", {}, [cb, ` ${o.name}`]));
    }
    if (!index) box.appendChild(h("span", { class: "help", text: "add an import task first" }));
    top.appendChild(box);
  }
  const rows = rowsFor(catalogue.rows, b.operation);
  const ins = distinct(rows, "input_format");
  const hint = inputHint(t);
  if (ins.length > 0 && takesInput(b.operation)) {
    const [inInput, inList] = datalistInput(
      ins,
      b.input_format,
      (v) => {
        b.input_format = v;
        render();
      },
      "input_format",
    );
    inInput.setAttribute("data-focus", `${index}-if`);
    top.appendChild(control("input_format", inInput, hint && !b.input_format ? `from the input: ${hint}` : "", inList));
  }
  const fromFmt = b.input_format || hint;
  const outs = distinct(rowsFor(catalogue.rows, b.operation, fromFmt), "output_format");
  if (outs.length > 0) {
    const [outInput, outList] = datalistInput(
      outs,
      b.output_format,
      (v) => {
        b.output_format = v;
        render();
      },
      "output_format",
    );
    outInput.setAttribute("data-focus", `${index}-of`);
    top.appendChild(
      control("output_format", outInput, `${outs.length} formats${fromFmt ? ` from ${fromFmt}` : ""}`, outList),
    );
  }
  const pairRows = rowsFor(catalogue.rows, b.operation, fromFmt, b.output_format);
  const engines = distinct(pairRows, "engine");
  if (takesInput(b.operation) && engines.length) {
    const eng = h(
      "select",
      { "data-focus": `${index}-engine` },
      [h("option", { value: "", text: "automatic" })].concat(engines.map((e) => h("option", { value: e, text: e }))),
    );
    eng.value = b.engine || "";
    eng.addEventListener("change", () => {
      b.engine = eng.value || undefined;
      b.engine_version = undefined;
      render();
    });
    top.appendChild(control("engine", eng));
  }
  if (b.operation === "import/upload" || b.operation === "import/base64") top.appendChild(fileControl(t));
  const row = rowsFor(pairRows, b.operation, null, null, b.engine)[0] || pairRows[0];
  const opts = h("div", { class: "fields" });
  const details = h("details", { class: "options", open: true }, [h("summary", { text: "options" }), opts]);
  card.appendChild(details);
  const err = h("div", { class: "err", role: "status" });
  card.appendChild(err);
  if (row) {
    opts.appendChild(h("span", { class: "muted", text: "loading options…" }));
    void rowDetails(row).then((d) => {
      opts.innerHTML = "";
      const versions = (d.engine_versions || []).map((v) => v.version);
      // versions of the engine picked (the automatic choice is the server's: its version shows in the run)
      if (takesInput(b.operation) && b.engine && versions.length) {
        const ev = h(
          "select",
          {},
          [h("option", { value: "", text: `default (${versions[0]})` })].concat(
            versions.map((v) => h("option", { value: v, text: v })),
          ),
        );
        ev.value = b.engine_version || "";
        ev.addEventListener("change", () => {
          b.engine_version = ev.value || undefined;
          updateJson();
        });
        top.appendChild(control("engine_version", ev));
      }
      const fields = fieldsOf(d.options, propsOf(b.operation));
      for (const f of fields) opts.appendChild(optionControl(t, f, index));
      if (!fields.length) details.hidden = true;
      const known = new Set(fields.map((f) => f.name));
      const extra = Object.keys(b).filter(
        (k) => !known.has(k) && !OWN_FIELDS.has(k) && k !== "filename" && k !== "timeout" && k !== "tag",
      );
      err.textContent = extra.length
        ? `not an option of ${b.operation}${row.output_format ? ` to ${row.output_format}` : ""} (${row.engine}): ${extra.join(", ")}`
        : "";
      card.dataset.ready = "1";
    });
  } else {
    details.hidden = true;
    card.dataset.ready = "1";
  }
  return card;
}

/** One option's control: a select for enums and booleans, a number input with the schema's bounds, text otherwise. */
function optionControl(t: BuilderTask, f: Field, index: number): HTMLDivElement {
  const b = t.body;
  let el: HTMLSelectElement | HTMLInputElement | HTMLTextAreaElement;
  const placeholder = f.def === null ? "" : `default: ${showValue(f, f.def)}`;
  if (f.type === "enum" || f.type === "boolean") {
    const values = f.type === "boolean" ? [true, false] : f.values || [];
    el = h(
      "select",
      {},
      [h("option", { value: "", text: placeholder || "—" })].concat(
        values.map((v) => h("option", { value: String(v), text: String(v) })),
      ),
    );
  } else if (f.type === "integer" || f.type === "float") {
    el = h("input", { type: "text", inputmode: f.type === "integer" ? "numeric" : "decimal", placeholder, size: 8 });
  } else if (f.type === "dictionary" || f.type === "array") {
    el = h("textarea", { placeholder: placeholder || (f.type === "array" ? "[ ]" : "{ }"), rows: 2 });
    // through the CSSOM, which the page's CSP allows (a style attribute would need style-src 'unsafe-inline')
    el.style.minHeight = "0";
  } else {
    el = h("input", { type: f.format === "uri" ? "url" : "text", placeholder, maxlength: f.maxLength });
  }
  el.name = f.name;
  el.setAttribute("data-option", f.name);
  el.setAttribute("data-focus", `${index}-o-${f.name}`);
  el.value = t.raw[f.name] !== undefined ? t.raw[f.name]! : showValue(f, b[f.name]);
  const bounds = [f.type, f.min !== undefined ? `≥ ${f.min}` : "", f.max !== undefined ? `≤ ${f.max}` : ""]
    .filter(Boolean)
    .join(", ");
  const err = h("span", { class: "err", id: `e${++uid}` });
  const wrap = control(
    f.name + (f.required ? " *" : ""),
    el,
    (f.description ? `${f.description} · ` : "") + bounds,
    err,
  );
  const check = (silent: boolean) => {
    const r = parseValue(f, el.value);
    if (r.error) {
      t.raw[f.name] = el.value;
      el.setAttribute("aria-invalid", "true");
      el.setAttribute("aria-errormessage", err.id);
      err.textContent = `must be ${r.error}`;
    } else {
      delete t.raw[f.name];
      b[f.name] = r.value;
      // a required option left empty is marked, not blocked: the API's 422 names it too
      const missing = f.required && r.value === undefined;
      if (missing) el.setAttribute("aria-invalid", "true");
      else el.removeAttribute("aria-invalid");
      err.textContent = missing ? "required" : "";
    }
    if (!silent) updateJson();
  };
  el.addEventListener(el.tagName === "SELECT" ? "change" : "input", () => check(false));
  if (f.required) el.setAttribute("aria-required", "true");
  if (t.raw[f.name] !== undefined || f.required) check(true);
  return wrap;
}

/** The file of an import/upload or import/base64 task: chosen or dropped on it. */
function fileControl(t: BuilderTask): HTMLDivElement {
  const input = h("input", { type: "file" });
  const have = files[t.name];
  const label = have ? `${have[0]!.name} (${have[0]!.size} bytes)` : "no file yet";
  input.addEventListener("change", () => setFile(t, input.files?.[0]));
  const zone = h("div", { class: "field drop" }, []);
  zone.appendChild(control("file", input, label));
  dropZone(zone, (list) => {
    const file = list[0];
    if (file) setFile(t, file);
  });
  return zone;
}

/** Gives task t its file (import/base64: read into its `file` and `filename`). */
function setFile(t: BuilderTask, file: File | undefined): void {
  if (!file) return;
  files[t.name] = [file];
  if (t.body.operation === "import/base64") {
    const reader = new FileReader();
    reader.onload = () => {
      t.body.file = String(reader.result).replace(/^data:[^,]*,/, "");
      t.body.filename = file.name;
      render();
    };
    reader.readAsDataURL(file);
    return;
  }
  render();
}

/** Files dropped or chosen at the top: one import/upload task each, wired into the first task that takes an input. */
export function addFiles(list: FileList): void {
  const added: string[] = [];
  for (const file of Array.from(list)) {
    const empty = model.tasks.find((t) => t.body.operation === "import/upload" && !files[t.name]);
    const t = empty || addTask("import/upload");
    if (!empty) {
      model.tasks.splice(model.tasks.indexOf(t), 1);
      model.tasks.unshift(t);
    }
    files[t.name] = [file];
    added.push(t.name);
  }
  const consumer = model.tasks.find((t) => takesInput(t.body.operation) && !/^export\//.test(t.body.operation));
  if (consumer) consumer.body.input = distinctList((consumer.body.input ?? []).concat(added));
  render();
}

/** xs without repeats, in first-seen order. */
export function distinctList<T>(xs: T[]): T[] {
  return xs.filter((x, i) => xs.indexOf(x) === i);
}

/** Adds a task of the operation picked in "Add a task": a processing task goes before the export, which then takes it. */
export function addPickedTask(): void {
  const op = $<HTMLSelectElement>("add-op").value;
  if (!op) return;
  const t = addTask(op);
  const exp = model.tasks.find((x) => /^export\//.test(x.body.operation));
  if (exp && !/^(import|export)\//.test(op) && model.tasks.indexOf(exp) < model.tasks.indexOf(t)) {
    model.tasks.splice(model.tasks.indexOf(t), 1);
    const at = model.tasks.indexOf(exp);
    t.body.input = at > 0 ? [model.tasks[at - 1]!.name] : undefined;
    model.tasks.splice(at, 0, t);
    exp.body.input = [t.name];
  }
  render();
  document.querySelector<HTMLElement>(`[data-task="${t.name}"] input`)?.focus();
}

/* ---------- JSON both ways ---------- */

/** Writes the job into the JSON box and the code view; Run is held back while an option is invalid. */
export function updateJson(): void {
  $<HTMLTextAreaElement>("job").value = JSON.stringify(jobJson(), null, 2);
  $("jsonerror").textContent = model.tasks.some((t) => Object.keys(t.raw || {}).length)
    ? "some options are invalid (marked in the form)"
    : "";
  $<HTMLButtonElement>("run").disabled = !!$("jsonerror").textContent;
  updateCode();
}

/** Reads the JSON box as typed: the builder follows it once it is a job. */
export function jsonTyped(): void {
  let j: { tasks?: unknown; tag?: string } | null;
  try {
    j = JSON.parse($<HTMLTextAreaElement>("job").value);
  } catch (e) {
    $("jsonerror").textContent = `not JSON yet: ${(e as Error).message}`;
    $<HTMLButtonElement>("run").disabled = true;
    return;
  }
  if (!j || typeof j.tasks !== "object") {
    $("jsonerror").textContent = 'a job is {"tasks": {…}}';
    return;
  }
  loadJob(j as { tasks: Record<string, Record<string, unknown>>; tag?: string });
}

/** Replaces the builder's tasks by a job's (typed JSON, or the payloads of a job from the history). */
export function loadJob(j: { tasks: Record<string, Record<string, unknown>>; tag?: string | null }): void {
  model.tasks = Object.keys(j.tasks).map((n) => {
    const body = { ...j.tasks[n] } as TaskBody;
    if (body.input !== undefined) body.input = ([] as string[]).concat(body.input);
    return { name: n, body, raw: {} };
  });
  $<HTMLInputElement>("tag").value = j.tag || "";
  const box = $("builder");
  box.innerHTML = "";
  model.tasks.forEach((t, i) => box.appendChild(taskCard(t, i)));
  $("jsonerror").textContent = "";
  $<HTMLButtonElement>("run").disabled = false;
  updateCode();
}

/* ---------- copy as code ---------- */

let lang: Lang = "curl";

/** The file name an upload task's code sends: its chosen file's, else "<task>.file". */
function fileNameFor(n: string): string {
  return files[n]?.[0]?.name || `${n}.file`;
}

/** Shows the job as code in the language picked. */
export function updateCode(): void {
  const code = $("code");
  code.textContent = codeFor(lang, jobJson(), { base: location.origin, key: key() || "YOUR-API-KEY", fileNameFor });
  code.dataset.lang = lang;
}

/** Picks the language of the code view. */
export function setLang(l: Lang): void {
  lang = l;
  updateCode();
}

/** The import/upload tasks of a job whose file is not chosen yet. */
export function missingUploads(job: JobBody): string[] {
  return uploadsOf(job).filter((n) => !files[n]);
}
