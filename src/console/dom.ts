/**
 * The console's DOM helpers and its one API client: an element by id, an element built with attributes, listeners
 * and children, and a JSON call of this server's v2 API with the key typed in the page.
 */

/** The element with this id (the page has it: test/unit/console-page.test.ts checks every id looked up). */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the console page has no #${id}`);
  return el as T;
}

/** An attribute value of h(): text, a number or a flag (false, null and undefined leave it out), or a listener. */
export type AttrValue = string | number | boolean | null | undefined | ((e: Event) => void);

/** A child of h(): a node, text, or nothing. */
export type Child = Node | string | null | undefined;

/**
 * A new element: `text` sets its text, `value` its value, `on<event>` adds a listener, true sets an empty attribute,
 * every other attribute as text; children appended in order (strings as text nodes).
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, AttrValue> = {},
  kids: Child[] = [],
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = String(v);
    else if (k === "value") (el as HTMLElement & { value: string }).value = String(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of kids) if (c) el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  return el;
}

/** An API error: status, message and the errors of its JSON body, which is kept. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** The API key typed in the page (#key), trimmed. */
export function key(): string {
  return $<HTMLInputElement>("key").value.trim();
}

/**
 * Calls this server's API with the page's key: the JSON answer, or an ApiError naming the status, the message and
 * the errors of the body. `T` is the caller's reading of the answer (not checked).
 */
export async function api<T = { data: unknown }>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${key()}` };
  const init: RequestInit = { method, headers };
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const text = await res.text();
  let json: { message?: string; errors?: unknown } | null = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok)
    throw new ApiError(
      `${res.status} ${json?.message || res.statusText}${json?.errors ? `\n${JSON.stringify(json.errors, null, 1)}` : ""}`,
      json,
    );
  return json as T;
}

/**
 * Makes `zone` a drop target (the page's #drop and a builder task's file field): it is marked `over` while files are
 * dragged above it, and `drop` gets the files dropped on it. The drop stops there, so a zone inside another is the one
 * that takes it.
 */
export function dropZone(zone: HTMLElement, drop: (list: FileList) => void): void {
  zone.addEventListener("dragover", (e) => {
    e.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    e.stopPropagation();
    zone.classList.remove("over");
    if (e.dataTransfer) drop(e.dataTransfer.files);
  });
}
