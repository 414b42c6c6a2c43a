/**
 * A warm pool of LibreOffice processes for document conversion (in the manner of unoserver or
 * Gotenberg's LibreOffice supervisor, but with several processes).
 *
 * Each slot of the pool is one `soffice --headless … --accept=pipe,name=<unique>;urp;` process with
 * its own fresh, hardened user profile (see profile.ts), plus one `uno_bridge.py` child that talks
 * to it over UNO and to this module over JSON lines on stdio. Slots start lazily (or through
 * warm()); a request takes a free slot or waits in a FIFO queue. A slot whose request times out or
 * whose processes die is killed (SIGKILL to each process group) and restarted with a new profile;
 * a slot is also recycled after `maxDocuments` documents.
 *
 * Linux only (process groups, /proc). Children get only HOME (the slot's profile directory),
 * PATH, TMPDIR (inside the profile directory) and SAL_USE_VCLPLUGIN=svp from the environment.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { CSV_IMPORT_FILTER } from "./delimited.ts";
import { writeProfile } from "./profile.ts";
import { LinksUnchecked, cutExternalLinksInFile } from "./links.ts";
import { access, mkdir, rm } from "node:fs/promises";
import { basename } from "node:path";

/**
 * The document at `path` without its references to files outside it (links.ts), written as a copy of the same name
 * in `dir` (the original is never changed: it may be the caller's, or read-only); null when it has none, or cannot be
 * read (LibreOffice then reports it as missing or damaged). Neither file is held whole (issue 49): a zipped document is
 * read by its directory and XML members, and copied a chunk at a time only when something is cut.
 * @throws OfficeError OPEN_FAILED when its links could not be checked (a zip whose directory does not parse) or had to
 *   be cut but the copy could not be written | OVER_BUDGET when it is too large to check (links.ts) — never opened then
 */
async function unlinkedCopy(path: string, dir: string): Promise<string | null> {
  try {
    await access(path, constants.R_OK);
  } catch {
    return null;
  }
  const copy = join(dir, basename(path));
  try {
    await mkdir(dir, { recursive: true });
    return (await cutExternalLinksInFile(path, copy)) > 0 ? copy : null;
  } catch (err) {
    if (err instanceof LinksUnchecked) throw new OfficeError(err.code, err.message);
    throw new OfficeError("OPEN_FAILED", `the document's links to outside files could not be cut: ${String(err)}`);
  }
}

/** What a successful conversion reports. */
export interface OfficeResult {
  /** Pages in the output: counted in the PDF for PDF output, Writer's layout page count for docx/odt; null when unknown. */
  pages: number | null;
  /**
   * Font family names the document asks for (sorted, deduplicated), from a bounded scan of the
   * loaded document — Writer: body text, tables, frames, headers/footers; Calc: distinct cell formats
   * of the used area; Impress/Draw: text in shapes. Not the fonts actually used after substitution.
   * May be empty (nothing found within the scan budget, or a document kind without a cheap scan).
   */
  fontsRequested: string[];
  /** Per-page graphic exports (svg/emf/wmf of a drawing or presentation): the files written, in page order; else absent. */
  files?: string[];
  /** Milliseconds from handing the request to a LibreOffice process until its answer (excludes queueing and start-up). */
  ms: number;
}

/** Every code an OfficeError can carry. */
export const OFFICE_ERROR_CODES = [
  "INVALID_PASSWORD",
  "OVER_BUDGET",
  "OPEN_FAILED",
  "CONVERT_FAILED",
  "NO_FILTER",
  "TIMEOUT",
  "ENGINE_CRASHED",
  "ENGINE_UNAVAILABLE",
] as const;

/** One of OFFICE_ERROR_CODES. */
export type OfficeErrorCode = (typeof OFFICE_ERROR_CODES)[number];

/** One line the UNO bridge (uno_bridge.py) writes: `{ready, message}` once, then `{id, ok, pages, fonts, files}` or
 * `{id, ok: false, code, message}` per request; every field is checked where it is read. */
interface BridgeLine {
  ready?: unknown;
  id?: unknown;
  ok?: unknown;
  code?: unknown;
  message?: unknown;
  pages?: unknown;
  fonts?: unknown;
  files?: unknown;
}

/**
 * Why a conversion failed. `code` is one of:
 * - INVALID_PASSWORD: the document is encrypted and no password, or a wrong one, was given;
 * - OVER_BUDGET: the document is too large for its links to outside files to be checked (links.ts), so not opened;
 * - OPEN_FAILED: LibreOffice could not load the input (missing, damaged, unknown or unsupported format);
 * - CONVERT_FAILED: loaded but cannot be written in the asked format (e.g. docx/odt from a spreadsheet,
 *   any output from PDF input), or the export itself failed;
 * - NO_FILTER: LibreOffice has no export of that format for this kind of document (txt of a presentation):
 *   the caller may produce it another way (through PDF);
 * - TIMEOUT: `timeoutMs` elapsed (queued or converting; a converting process is killed and restarted);
 * - ENGINE_CRASHED: the LibreOffice process or its bridge died during the request (the slot restarts);
 * - ENGINE_UNAVAILABLE: LibreOffice or Python's UNO module is missing or would not start, or the pool is closed.
 */
export class OfficeError extends Error {
  /** One of OFFICE_ERROR_CODES (typed as string so callers can compare against their own codes). */
  code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "OfficeError";
    this.code = code;
  }
}

/** Construction options of OfficePool. */
export interface OfficePoolOptions {
  /** Number of LibreOffice processes (slots). Default 2. */
  size?: number;
  /** Recycle (restart with a fresh profile) a process after this many documents. Default 200. */
  maxDocuments?: number;
  /** Directory under which each process gets its own profile directory (created; removed when the process ends). */
  workRoot: string;
  /** The soffice launcher. Default /usr/bin/soffice. */
  soffice?: string;
  /** A Python 3 that can `import uno` (Debian: python3-uno). Default /usr/bin/python3. */
  python?: string;
  /** Address-space limit (RLIMIT_AS, bytes) for each soffice, applied with `prlimit --as=N --` when prlimit exists. Default 3 GiB. */
  memoryBytes?: number;
}

/** One conversion request. Paths are resolved against the current directory. */
export interface OfficeRequest {
  /** The document to convert. */
  input: string;
  /** Where to write the result (overwritten; removed again if the conversion fails). */
  output: string;
  /**
   * Output format: pdf for any document LibreOffice opens; the editable formats of the document's kind
   * (uno_bridge.py EXPORTS: doc, docx, odt, rtf, txt, html from text; xls, xlsx, ods, csv, html from
   * spreadsheets; ppt, pptx, odp from presentations; odg from drawings); svg, emf, wmf one file per page of
   * a drawing or presentation (written as `<output stem>-<n>.<ext>`, listed in the result's `files`).
   */
  format: OfficeFormat;
  /** The export filter's FilterOptions (csv: delimiter, quote, encoding, sheet; txt: encoding), tokens only. */
  filterOptions?: string;
  /**
   * The import filter: for PDF input (writer_pdf_import: Writer text frames; draw_pdf_import: Draw pages;
   * impress_pdf_import: Impress slides, issue 34's ps → odp/ppt/pptx), or Calc's CSV import for delimited text
   * (issue 44; its options from delimited.ts).
   */
  importFilter?: "writer_pdf_import" | "draw_pdf_import" | "impress_pdf_import" | typeof CSV_IMPORT_FILTER;
  /** The import filter's FilterOptions (the CSV import's separator, text delimiter, character set…). */
  importOptions?: string;
  /** Password of an encrypted document. */
  password?: string;
  /** PDF output only: the pages exported, LibreOffice's PageRange ("1-2", "1,3,5-"). */
  pages?: string;
  /** PDF output only: PDF/A-1b, -2b or -3b by LibreOffice's own export (SelectPdfVersion). */
  pdfa?: 1 | 2 | 3;
  /** PDF output only (issue 32): the outline from headings (ExportBookmarks; LibreOffice's default true). */
  bookmarks?: boolean;
  /** PDF output only: comments as PDF annotations (ExportNotes). */
  markup?: boolean;
  /** PDF output only: hidden slides exported too (ExportHiddenSlides). */
  hiddenSlides?: boolean;
  /** PDF output only: a presentation's notes pages instead of its slides (ExportNotesPages + ExportOnlyNotesPages). */
  notesPages?: boolean;
  /** Deadline in milliseconds for the whole request, queueing and process start-up included. */
  timeoutMs: number;
}

/** The formats the bridge writes (uno_bridge.py FORMATS). */
export const OFFICE_FORMATS = [
  "pdf",
  "docx",
  "odt",
  "doc",
  "rtf",
  "txt",
  "html",
  "xlsx",
  "xls",
  "ods",
  "csv",
  "pptx",
  "ppt",
  "odp",
  "odg",
  "svg",
  "emf",
  "wmf",
] as const;

/** One of OFFICE_FORMATS. */
export type OfficeFormat = (typeof OFFICE_FORMATS)[number];

const INSTALL_HINT =
  "install the Debian packages libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui python3-uno";
const BRIDGE_SCRIPT = fileURLToPath(new URL("./uno_bridge.py", import.meta.url));
/** How long a process may take from spawn to a connected bridge. */
const START_TIMEOUT_MS = 60_000;
/** Seconds the bridge keeps retrying its UNO connection while soffice starts. */
const BRIDGE_CONNECT_SECONDS = 45;
const TAIL_BYTES = 4096;

type SlotState = "stopped" | "starting" | "ready" | "busy";

interface Job {
  id: number;
  req: OfficeRequest;
  resolve: (r: OfficeResult) => void;
  reject: (e: OfficeError) => void;
  timer: ReturnType<typeof setTimeout> | null;
  slot: Slot | null;
  handedAt: number;
  settled: boolean;
  /** Set once the request was put back in the queue because its process was already gone. */
  requeued: boolean;
}

interface Slot {
  index: number;
  state: SlotState;
  /** Incremented on every start; events from an older generation's processes are ignored. */
  gen: number;
  soffice: ChildProcess | null;
  bridge: ChildProcess | null;
  profileDir: string | null;
  documents: number;
  job: Job | null;
  /** Last bytes written by soffice and the bridge to stdout/stderr, for error messages. */
  tail: string;
  /** Resolves when the processes of the current generation have exited (after a kill). */
  stopping: Promise<void> | null;
  /** Fails the start if the bridge does not report ready in time. */
  startTimer: ReturnType<typeof setTimeout> | null;
  /** After soffice exited mid-request: how long the bridge may still take to say what happened. */
  graceTimer: ReturnType<typeof setTimeout> | null;
}

let poolCounter = 0;

/** The first executable among `candidates` (absolute paths or names looked up in PATH), or null. */
function findExecutable(candidates: string[]): string | null {
  for (const c of candidates) {
    const paths = c.includes("/")
      ? [c]
      : (process.env.PATH ?? "")
          .split(delimiter)
          .filter(Boolean)
          .map((d) => join(d, c));
    for (const p of paths) {
      try {
        accessSync(p, constants.X_OK);
        return p;
      } catch {
        // not here
      }
    }
  }
  return null;
}

/** Pids of the live (non-zombie) processes in process group `pgid`, read from /proc; null without /proc. */
function groupMembers(pgid: number): number[] | null {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return null;
  }
  const out: number[] = [];
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // state ppid pgrp …
      if (Number(fields[2]) === pgid && fields[0] !== "Z") out.push(Number(e));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

function signalGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** Resolves when no live (non-zombie) process is left in group `pgid`, or after `ms` milliseconds. */
async function groupGone(pgid: number, ms: number): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until;) {
    if ((groupMembers(pgid) ?? []).length === 0) return;
    await new Promise((done) => setTimeout(done, 20).unref());
  }
}

/**
 * Kills process group `leader` (a child spawned detached, so its pid is the group id). Members other
 * than the leader are killed first and the leader (oosplash for soffice) is given a moment to reap
 * them, so that no zombie is left behind for an init that may not reap; then the whole group is killed.
 */
function killGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined || child.exitCode !== null || child.signalCode !== null) {
    if (pid === undefined) return Promise.resolve();
    // the leader is gone but members it left may be alive: kill them and wait until they are (close() promises none remain)
    signalGroup(pid);
    return groupGone(pid, 2000);
  }
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const others = (groupMembers(pid) ?? []).filter((p) => p !== pid);
  for (const p of others) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // gone
    }
  }
  if (others.length === 0) signalGroup(pid);
  const grace = new Promise<void>((done) => setTimeout(done, others.length ? 1000 : 0).unref());
  return Promise.race([exited, grace]).then(() => {
    signalGroup(pid); // whatever is left, leader included
    return Promise.race([exited, new Promise<void>((done) => setTimeout(done, 2000).unref())]).then(() =>
      groupGone(pid, 2000),
    );
  });
}

/**
 * A pool of warm LibreOffice processes. See the module comment for the process model.
 * All methods are safe to call concurrently; convert() calls queue in FIFO order.
 */
export class OfficePool {
  private readonly size: number;
  private readonly maxDocuments: number;
  private readonly workRoot: string;
  private readonly soffice: string;
  private readonly python: string;
  private readonly memoryBytes: number;
  private readonly tag: string;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly spawned: number[] = [];
  private nextJobId = 1;
  private restartCount = 0;
  private documentCount = 0;
  private closed = false;
  private readyWaiters: { resolve: () => void; reject: (e: OfficeError) => void }[] = [];

  /** Creates the pool; no process starts until convert() or warm(). Throws RangeError on a size below 1. */
  constructor(opts: OfficePoolOptions) {
    this.size = Math.floor(opts.size ?? 2);
    if (!(this.size >= 1)) throw new RangeError("OfficePool size must be at least 1");
    this.maxDocuments = Math.max(1, Math.floor(opts.maxDocuments ?? 200));
    this.workRoot = resolve(opts.workRoot);
    this.soffice = opts.soffice ?? "/usr/bin/soffice";
    this.python = opts.python ?? "/usr/bin/python3";
    this.memoryBytes = opts.memoryBytes ?? 3 * 1024 ** 3;
    this.tag = `${process.pid}-${++poolCounter}`;
    for (let index = 0; index < this.size; index++) {
      this.slots.push({
        index,
        state: "stopped",
        gen: 0,
        soffice: null,
        bridge: null,
        profileDir: null,
        documents: 0,
        job: null,
        tail: "",
        stopping: null,
        startTimer: null,
        graceTimer: null,
      });
    }
  }

  /**
   * Converts `req.input` into `req.output` in `req.format`; waits in a FIFO queue while every
   * process is busy. Resolves with pages, requested fonts and conversion time; rejects with an
   * OfficeError (see its codes). On failure the output path is removed.
   */
  convert(req: OfficeRequest): Promise<OfficeResult> {
    // every document LibreOffice opens loses its links to files outside it first (links.ts), into a copy under the
    // pool's work folder; one at a time, so requests still reach the queue in the order they were made
    const dir = join(this.workRoot, "unlinked", String(this.nextCopy++));
    const ready = this.preparing.then(() => unlinkedCopy(req.input, dir));
    this.preparing = ready.catch(() => undefined);
    return ready.then(async (copy) => {
      try {
        return await this.enqueue(copy ? { ...req, input: copy } : req);
      } finally {
        if (copy) await rm(dir, { recursive: true, force: true });
      }
    });
  }
  /** The chain that keeps link cutting in request order. */
  private preparing: Promise<unknown> = Promise.resolve();
  private nextCopy = 1;

  private enqueue(req: OfficeRequest): Promise<OfficeResult> {
    return new Promise<OfficeResult>((resolvePromise, rejectPromise) => {
      if (this.closed) return rejectPromise(new OfficeError("ENGINE_UNAVAILABLE", "the office pool is closed"));
      if (!(OFFICE_FORMATS as readonly string[]).includes(req.format)) {
        return rejectPromise(new OfficeError("CONVERT_FAILED", `unsupported output format ${String(req.format)}`));
      }
      const job: Job = {
        id: this.nextJobId++,
        req: { ...req, input: resolve(req.input), output: resolve(req.output) },
        resolve: resolvePromise,
        reject: rejectPromise,
        timer: null,
        slot: null,
        handedAt: 0,
        settled: false,
        requeued: false,
      };
      // setTimeout takes at most 2^31-1 ms; a non-number deadline times out at once.
      const timeoutMs = Math.min(Math.max(0, Number.isFinite(req.timeoutMs) ? req.timeoutMs : 0), 2 ** 31 - 1);
      job.timer = setTimeout(() => this.onTimeout(job), timeoutMs);
      this.queue.push(job);
      this.pump();
    });
  }

  /**
   * Starts every slot that is not running yet; resolves once at least one process is ready to
   * convert. Rejects with ENGINE_UNAVAILABLE when no process could be started (or the pool is closed).
   */
  warm(): Promise<void> {
    if (this.closed) return Promise.reject(new OfficeError("ENGINE_UNAVAILABLE", "the office pool is closed"));
    if (this.slots.some((s) => s.state === "ready" || s.state === "busy")) {
      for (const s of this.slots) if (s.state === "stopped") this.startSlot(s);
      return Promise.resolve();
    }
    const p = new Promise<void>((res, rej) => this.readyWaiters.push({ resolve: res, reject: rej }));
    for (const s of this.slots) if (s.state === "stopped") this.startSlot(s);
    return p;
  }

  /**
   * Counters: `size` slots; `ready` processes idle and connected; `busy` processes converting;
   * `restarts` processes restarted after a timeout, crash or recycling; `documents` successful conversions.
   */
  stats(): { size: number; ready: number; busy: number; restarts: number; documents: number } {
    return {
      size: this.size,
      ready: this.slots.filter((s) => s.state === "ready").length,
      busy: this.slots.filter((s) => s.state === "busy").length,
      restarts: this.restartCount,
      documents: this.documentCount,
    };
  }

  /** Pids of every process this pool has spawned (soffice launchers and bridges); each leads its own process group. */
  processIds(): number[] {
    return [...this.spawned];
  }

  /**
   * Rejects queued and running requests with ENGINE_UNAVAILABLE, kills every process group this
   * pool started (SIGKILL) and waits for them, and removes the profile directories it created.
   * Nothing else is touched. Further convert()/warm() calls reject.
   */
  async close(): Promise<void> {
    this.closed = true;
    const closedError = () => new OfficeError("ENGINE_UNAVAILABLE", "the office pool was closed");
    for (const job of this.queue.splice(0)) this.settle(job, closedError());
    for (const w of this.readyWaiters.splice(0)) w.reject(closedError());
    await Promise.all(
      this.slots.map(async (slot) => {
        const job = slot.job;
        const stopped = this.stopSlot(slot);
        if (job) this.settle(job, closedError());
        await stopped;
        if (slot.stopping) await slot.stopping;
      }),
    );
  }

  // ---- internals ----

  private pump(): void {
    if (this.closed) return;
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.state === "ready");
      if (!slot) break;
      this.run(slot, this.queue.shift()!);
    }
    if (this.queue.length === 0) return;
    let starting = this.slots.filter((s) => s.state === "starting").length;
    for (const s of this.slots) {
      if (starting >= this.queue.length) break;
      if (s.state === "stopped") {
        this.startSlot(s);
        starting++;
      }
    }
  }

  private settle(job: Job, outcome: OfficeResult | OfficeError): void {
    if (job.settled) return;
    job.settled = true;
    if (job.timer) clearTimeout(job.timer);
    job.timer = null;
    if (outcome instanceof OfficeError) {
      if (job.slot) {
        try {
          rmSync(job.req.output, { force: true });
        } catch {
          // not ours to worry about (e.g. the output path is a directory)
        }
      }
      job.reject(outcome);
    } else {
      job.resolve(outcome);
    }
  }

  private onTimeout(job: Job): void {
    if (job.settled) return;
    const ms = job.req.timeoutMs;
    const slot = job.slot;
    if (!slot) {
      const i = this.queue.indexOf(job);
      if (i >= 0) this.queue.splice(i, 1);
      this.settle(job, new OfficeError("TIMEOUT", `no LibreOffice process became free within ${ms} ms`));
      return;
    }
    // Kill first so that nothing writes the output after it is removed.
    this.restartSlot(slot);
    this.settle(
      job,
      new OfficeError("TIMEOUT", `conversion did not finish within ${ms} ms; the LibreOffice process was killed`),
    );
  }

  private run(slot: Slot, job: Job): void {
    slot.state = "busy";
    slot.job = job;
    job.slot = slot;
    job.handedAt = performance.now();
    const line = JSON.stringify({
      id: job.id,
      input: job.req.input,
      output: job.req.output,
      format: job.req.format,
      ...(job.req.password !== undefined ? { password: job.req.password } : {}),
      ...(job.req.pages !== undefined ? { pages: job.req.pages } : {}),
      ...(job.req.pdfa !== undefined ? { pdfa: job.req.pdfa } : {}),
      ...(job.req.filterOptions !== undefined ? { filter_options: job.req.filterOptions } : {}),
      ...(job.req.bookmarks !== undefined ? { bookmarks: job.req.bookmarks } : {}),
      ...(job.req.markup !== undefined ? { markup: job.req.markup } : {}),
      ...(job.req.hiddenSlides !== undefined ? { hidden_slides: job.req.hiddenSlides } : {}),
      ...(job.req.notesPages !== undefined ? { notes_pages: job.req.notesPages } : {}),
      ...(job.req.importFilter !== undefined ? { import_filter: job.req.importFilter } : {}),
      ...(job.req.importOptions !== undefined ? { import_options: job.req.importOptions } : {}),
    });
    slot.bridge!.stdin!.write(line + "\n");
  }

  private onBridgeLine(slot: Slot, gen: number, line: string, onReady: (err: OfficeError | null) => void): void {
    if (slot.gen !== gen) return;
    let msg: BridgeLine | null;
    try {
      msg = JSON.parse(line) as BridgeLine | null;
    } catch {
      slot.tail = (slot.tail + line + "\n").slice(-TAIL_BYTES);
      return;
    }
    if (msg && typeof msg === "object" && "ready" in msg) {
      onReady(
        msg.ready
          ? null
          : new OfficeError(
              "ENGINE_UNAVAILABLE",
              `${String(msg.message ?? "the UNO bridge did not start")}; ${INSTALL_HINT}`,
            ),
      );
      return;
    }
    const job = slot.job;
    if (!job || msg?.id !== job.id) return; // an answer for a request that already timed out
    slot.job = null;
    if (msg.code === "NOT_STARTED" && !job.requeued) {
      // The process died while idle and the request never reached it: serve it elsewhere, once.
      job.requeued = true;
      job.slot = null;
      this.queue.unshift(job);
      this.restartSlot(slot);
      this.pump();
      return;
    }
    slot.documents++;
    if (msg.ok) {
      this.documentCount++;
      this.settle(job, {
        pages: typeof msg.pages === "number" ? msg.pages : null,
        fontsRequested: Array.isArray(msg.fonts) ? msg.fonts.filter((f: unknown) => typeof f === "string") : [],
        ...(Array.isArray(msg.files) ? { files: msg.files.filter((f: unknown) => typeof f === "string") } : {}),
        ms: Math.round(performance.now() - job.handedAt),
      });
    } else {
      // Once soffice is known to have exited, any failure is the crash's doing.
      const code =
        msg.code === "NOT_STARTED" || slot.graceTimer
          ? "ENGINE_CRASHED"
          : OFFICE_ERROR_CODES.includes(msg.code as OfficeErrorCode)
            ? (msg.code as OfficeErrorCode)
            : "CONVERT_FAILED";
      this.settle(job, new OfficeError(code, String(msg.message ?? code)));
    }
    // Restart when soffice is gone (crash answer, or it exited and only the answer was awaited) or
    // when the process has served its quota of documents.
    if (
      msg.code === "ENGINE_CRASHED" ||
      msg.code === "NOT_STARTED" ||
      slot.graceTimer ||
      slot.documents >= this.maxDocuments
    ) {
      this.restartSlot(slot);
      return;
    }
    slot.state = "ready";
    this.pump();
  }

  /** Spawns soffice and the bridge for `slot`; the slot becomes ready when the bridge connects. */
  private startSlot(slot: Slot): void {
    slot.state = "starting";
    slot.documents = 0;
    slot.tail = "";
    const gen = ++slot.gen;
    void this.spawnSlot(slot, gen);
  }

  private async spawnSlot(slot: Slot, gen: number): Promise<void> {
    if (slot.stopping) await slot.stopping; // the previous generation's processes are gone first
    if (slot.gen !== gen || this.closed) return;

    let settledStart = false;
    const onReady = (err: OfficeError | null) => {
      if (settledStart || slot.gen !== gen) return;
      settledStart = true;
      if (slot.startTimer) clearTimeout(slot.startTimer);
      slot.startTimer = null;
      if (err) return this.startFailed(slot, err);
      slot.state = "ready";
      for (const w of this.readyWaiters.splice(0)) w.resolve();
      this.pump();
    };

    const soffice = findExecutable([this.soffice]);
    if (!soffice)
      return onReady(
        new OfficeError(
          "ENGINE_UNAVAILABLE",
          `LibreOffice is not installed (${this.soffice} not found); ${INSTALL_HINT}`,
        ),
      );
    const python = findExecutable([this.python]);
    if (!python)
      return onReady(
        new OfficeError(
          "ENGINE_UNAVAILABLE",
          `Python 3 with UNO is not installed (${this.python} not found); ${INSTALL_HINT}`,
        ),
      );

    let profileUrl: string;
    const profileDir = join(this.workRoot, `office-${this.tag}-${slot.index}-${gen}`);
    try {
      mkdirSync(this.workRoot, { recursive: true });
      profileUrl = writeProfile(profileDir);
      mkdirSync(join(profileDir, "tmp"), { recursive: true });
    } catch (e) {
      return onReady(
        new OfficeError(
          "ENGINE_UNAVAILABLE",
          `cannot create a LibreOffice profile in ${profileDir}: ${(e as Error).message}`,
        ),
      );
    }
    slot.profileDir = profileDir;

    const pipe = `edgeconvert_${this.tag}_${slot.index}_${gen}`;
    const env = {
      HOME: profileDir,
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      TMPDIR: join(profileDir, "tmp"),
      SAL_USE_VCLPLUGIN: "svp",
      // A UTF-8 locale: with none, soffice maps file: URLs to ASCII names and cannot open "ß.docx".
      LC_ALL: "C.UTF-8",
    };
    const sofficeArgs = [
      "--headless",
      "--invisible",
      "--nologo",
      "--norestore",
      "--nodefault",
      "--nolockcheck",
      `--accept=pipe,name=${pipe};urp;`,
      `-env:UserInstallation=${profileUrl}`,
    ];
    const prlimit = this.memoryBytes > 0 ? findExecutable(["/usr/bin/prlimit", "prlimit"]) : null;
    const [cmd, args] = prlimit
      ? [prlimit, [`--as=${Math.floor(this.memoryBytes)}`, "--", soffice, ...sofficeArgs]]
      : [soffice, sofficeArgs];

    const keepTail = (chunk: Buffer) => {
      if (slot.gen === gen) slot.tail = (slot.tail + chunk.toString("utf8")).slice(-TAIL_BYTES);
    };
    const office = spawn(cmd, args, { detached: true, stdio: ["ignore", "pipe", "pipe"], env, cwd: profileDir });
    slot.soffice = office;
    if (office.pid) this.spawned.push(office.pid);
    office.stdout!.on("data", keepTail);
    office.stderr!.on("data", keepTail);
    office.on("error", (e) =>
      onReady(new OfficeError("ENGINE_UNAVAILABLE", `cannot start ${cmd}: ${e.message}; ${INSTALL_HINT}`)),
    );
    office.on("exit", (code, signal) => this.onProcessExit(slot, gen, "soffice", code, signal, onReady));

    const bridge = spawn(python, [BRIDGE_SCRIPT, pipe, String(BRIDGE_CONNECT_SECONDS)], {
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
      env,
      cwd: profileDir,
    });
    slot.bridge = bridge;
    if (bridge.pid) this.spawned.push(bridge.pid);
    bridge.stdin!.on("error", () => {}); // EPIPE when the bridge died; its exit handler reports
    bridge.stderr!.on("data", keepTail);
    createInterface({ input: bridge.stdout! }).on("line", (line) => this.onBridgeLine(slot, gen, line, onReady));
    bridge.on("error", (e) =>
      onReady(new OfficeError("ENGINE_UNAVAILABLE", `cannot start ${python}: ${e.message}; ${INSTALL_HINT}`)),
    );
    // "close", not "exit": every line the bridge wrote has been delivered by then.
    bridge.on("close", (code, signal) => this.onProcessExit(slot, gen, "bridge", code, signal, onReady));

    slot.startTimer = setTimeout(
      () =>
        onReady(
          new OfficeError(
            "ENGINE_UNAVAILABLE",
            `LibreOffice did not become ready within ${START_TIMEOUT_MS} ms${this.tailNote(slot)}`,
          ),
        ),
      START_TIMEOUT_MS,
    );
  }

  private tailNote(slot: Slot): string {
    const t = slot.tail.trim();
    return t ? `; last output: ${t.slice(-600)}` : "";
  }

  private onProcessExit(
    slot: Slot,
    gen: number,
    which: "soffice" | "bridge",
    code: number | null,
    signal: NodeJS.Signals | null,
    onReady: (err: OfficeError | null) => void,
  ): void {
    if (slot.gen !== gen) return; // an old generation, already handled
    const how = signal ? `signal ${signal}` : `status ${code}`;
    if (slot.state === "starting") {
      // The bridge reports its own reason (e.g. no python3-uno) on stdout before exiting; give the
      // readline a turn to deliver it, then fall back to a generic message.
      setTimeout(
        () =>
          onReady(
            new OfficeError(
              "ENGINE_UNAVAILABLE",
              `LibreOffice ${which} exited during start-up (${how})${this.tailNote(slot)}; ${INSTALL_HINT}`,
            ),
          ),
        200,
      );
      return;
    }
    if (slot.state === "stopped") return;
    const message = `LibreOffice ${which} exited (${how}) during the conversion${this.tailNote(slot)}`;
    if (which === "soffice" && slot.job && !slot.graceTimer) {
      // The bridge notices at once and answers ENGINE_CRASHED, or NOT_STARTED when the request
      // never reached soffice (it died while idle); wait briefly for that answer.
      slot.graceTimer = setTimeout(() => {
        slot.graceTimer = null;
        if (slot.gen === gen) this.crash(slot, message);
      }, 1000);
      return;
    }
    this.crash(slot, message);
  }

  /** Restarts the slot and fails its request (if any) with ENGINE_CRASHED. */
  private crash(slot: Slot, message: string): void {
    const job = slot.job;
    this.restartSlot(slot);
    if (job) this.settle(job, new OfficeError("ENGINE_CRASHED", message));
  }

  private startFailed(slot: Slot, err: OfficeError): void {
    void this.stopSlot(slot);
    // With no other process alive or coming, queued requests would wait for nothing: fail them.
    const others = this.slots.some((s) => s !== slot && s.state !== "stopped");
    if (!others) {
      for (const job of this.queue.splice(0)) this.settle(job, err);
      for (const w of this.readyWaiters.splice(0)) w.reject(err);
    }
  }

  /** Kills the slot's processes (if any), counts a restart and starts a new generation unless closed. */
  private restartSlot(slot: Slot): void {
    void this.stopSlot(slot);
    this.restartCount++;
    if (!this.closed) this.startSlot(slot);
  }

  /** Kills the slot's process groups and removes its profile directory; the slot becomes stopped. */
  private stopSlot(slot: Slot): Promise<void> {
    slot.gen++; // ignore every later event of the processes being stopped
    slot.state = "stopped";
    if (slot.startTimer) clearTimeout(slot.startTimer);
    if (slot.graceTimer) clearTimeout(slot.graceTimer);
    slot.startTimer = slot.graceTimer = null;
    slot.job = null;
    const procs = [slot.soffice, slot.bridge].filter((p): p is ChildProcess => p !== null);
    const dir = slot.profileDir;
    slot.soffice = slot.bridge = null;
    slot.profileDir = null;
    if (procs.length === 0 && !dir) return slot.stopping ?? Promise.resolve();
    // Signals go out now, synchronously, so that a killed process cannot write after this returns.
    const killed = Promise.all(procs.map(killGroup));
    const stopping = Promise.all([slot.stopping ?? Promise.resolve(), killed])
      .then(() => {
        if (dir) rmSync(dir, { recursive: true, force: true });
      })
      .catch(() => {})
      .finally(() => {
        if (slot.stopping === stopping) slot.stopping = null;
      });
    slot.stopping = stopping;
    return stopping;
  }
}
