/**
 * Bindings of the api Worker (wrangler.toml). Typed by hand to match `wrangler types` output for
 * the bindings this project declares (DESIGN.md principle 7).
 */
import type { AccountDO } from "../durable-objects/account";
import type { JobDO } from "../durable-objects/job";
import type { EventsDO } from "../durable-objects/events";
import type { BrowserDO } from "../durable-objects/browser";
import type { NativeContainer } from "./engines/native/container";
import type { EngineRpc } from "./engines/remote";

/** What crosses the queue: ids only, never file bytes (issue 2). */
export interface TaskMessage {
  jobId: string;
  taskId: string;
}

export interface Env {
  JOBS: DurableObjectNamespace<JobDO>;
  ACCOUNTS: DurableObjectNamespace<AccountDO>;
  /** Socket.io hubs (issue 18): Durable Objects holding hibernated WebSockets of live-event subscribers. */
  EVENTS: DurableObjectNamespace<EventsDO>;
  FILES: R2Bucket;
  TASKS: Queue<TaskMessage>;
  /** The fonts Worker (wasm/fonts) over a service binding: watermark faces (RPC `font(file)`); absent, non-WinAnsi PDF watermark text is UNSUPPORTED. */
  FONTS?: Fetcher & { font(file: string): Promise<Uint8Array> };
  /** ImageMagick engine Worker (wasm/imagemagick) over a service binding; absent when not deployed. */
  IMAGEMAGICK?: EngineRpc;
  /** The SVG renderer's engine Worker (wasm/resvg, issue 33). */
  RESVG?: EngineRpc;
  /** ExifTool engine Worker (wasm/exiftool) over a service binding. */
  EXIFTOOL?: EngineRpc;
  /** ffmpeg engine Worker (wasm/ffmpeg) over a service binding. */
  FFMPEG?: EngineRpc;
  /** 7-Zip engine Worker (wasm/7z) over a service binding: archive and extraction. */
  SEVENZIP?: EngineRpc;
  /** tesseract engine Worker (wasm/tesseract) over a service binding: OCR in eng and fra. */
  TESSERACT?: EngineRpc;
  /** The pandoc engine Worker (wasm/pandoc, issue 47): markup and documents. */
  PANDOC?: EngineRpc;
  /** Browser Rendering (wrangler.toml [browser]; locally Debian's Chromium seeded by scripts/setup-browser.mjs), for @cloudflare/puppeteer. */
  BROWSER?: import("@cloudflare/puppeteer").BrowserWorker;
  /**
   * The browser Durable Object (issue 37): holds the Browser Rendering session and renders every task's page in it,
   * many at once. Absent (or BROWSER_REUSE=false or session), each task connects its own session (engines/chrome/engine.ts).
   */
  BROWSERS?: DurableObjectNamespace<BrowserDO>;
  /**
   * How many browser objects share the renderings (issue 48), each holding one Browser Rendering session: `browser-0` …
   * `browser-<n-1>`, chosen per rendering by two random choices (runtime/workerd/browser.ts). Default 4; 1 to 64.
   */
  BROWSER_SHARDS?: string;
  /**
   * "false": launch a browser per task and close it (the cold path; benchmarks compare); "session": each task connects
   * a warm session of its own (before issue 37; benchmarks compare); default: the browser object's shared session.
   */
  BROWSER_REUSE?: string;
  /**
   * "false": browser-bound tasks go through the queue like every other (before issue 37's direct run; benchmarks
   * compare); default: the JobDO runs them itself (runner/beside.ts).
   */
  BROWSER_BESIDE?: string;
  /** "1": the Chrome engine logs each rendering's phases (`web-profile {…}`, ms) for `npm run bench -- web`. */
  WEB_PROFILE?: string;
  /** "container": reach the native engine through NATIVE_CONTAINER (wrangler.toml); "off": no native engine. */
  NATIVE_ENGINE?: string;
  /**
   * The native engine as a local process, e.g. "http://127.0.0.1:8790" (npm start, tests); wins over NATIVE_CONTAINER.
   * Several, comma-separated, share the work as container instances do (engines/native/client.ts spreadNative).
   */
  NATIVE_ENGINE_URL?: string;
  /** The native engine as a Cloudflare Container (production; engines/native/container.ts). */
  NATIVE_CONTAINER?: DurableObjectNamespace<NativeContainer>;
  /** How many container instances native work spreads over (default 3): two random choices, the less loaded. */
  NATIVE_INSTANCES?: string;
  /** soffice processes in each container instance (1–99, default 3; engines/native/container.ts). */
  NATIVE_OFFICE_POOL?: string;
  /** Per-operation engine order, e.g. "merge=qpdf,pdflib;convert=pdfium" (engines/routing.ts). */
  ENGINE_ORDER?: string;
  /** "key:username,key2:username2". No default in production configuration. */
  API_KEYS?: string;
  /** HMAC secret for export URLs and upload forms (a secret in production). */
  URL_SIGNING_SECRET?: string;
  /** "true" allows import/url to reach loopback (development only). */
  ALLOW_PRIVATE_IMPORTS?: string;
  /**
   * Development only, honoured with ALLOW_PRIVATE_IMPORTS=true: base URL of Azure Blob (e.g.
   * azurite's `http://127.0.0.1:10000/{account}`) and of Google Cloud Storage (a loopback double
   * serving /token and the JSON API), whose hosts CloudConvert fixes (issue 35).
   */
  AZURE_BLOB_ENDPOINT?: string;
  GCS_ENDPOINT?: string;
  /** Seconds a job, its tasks and files live after the job ends (default 86400, contract §7). */
  RETENTION_SECONDS?: string;
  /** Largest file import/url and the storage imports take, in bytes (default 5 GiB = 5368709120; settings.ts). */
  MAX_IMPORT_BYTES?: string;
  /** Storage exports larger than this go in parts of this many bytes (default 64 MiB; S3 multipart, Azure blocks, GCS resumable). */
  STORE_PART_BYTES?: string;
  /** Part size of R2 multipart uploads (default 16 MiB; unknown-length imports, files over R2_SINGLE_PUT_BYTES). */
  R2_PART_BYTES?: string;
  /** Largest file written to R2 in one put (default 5 GiB less 32 MiB); larger ones use an R2 multipart upload. */
  R2_SINGLE_PUT_BYTES?: string;
  /**
   * Native media inputs and answers over this many bytes travel as streams on the native engine's framed wire
   * (default and most 64 MiB, NATIVE_MAX_BYTES; issue 35). Lowered by tests to stream small files.
   */
  NATIVE_STREAM_BYTES?: string;
  /** Most unfinished jobs (and standalone tasks) per user before POST answers 429 (default 500; "0": no bound; api/admission.ts). */
  MAX_OPEN_JOBS?: string;
  /**
   * Most native tasks (first engine in the container) of one user sent to the queue at once; the rest wait in the
   * user's gate (default 10; "0": no gate; src/account/gate.ts, issue 48).
   */
  ACCOUNT_CONCURRENCY?: string;
  /** "on": count billed platform operations (meter/meter.ts, GET /__meter); the bench's counting server only. */
  METER?: string;
  /** Longest blocking wait in seconds (default 300). */
  MAX_WAIT_SECONDS?: string;
}

/**
 * A Durable Object stub typed by the class's own method signatures. workers-types maps RPC results
 * through `Rpc.Serializable`, which turns `unknown`-bearing JSON shapes into `never`; our RPC
 * payloads are plain JSON by construction, so we type stubs by the methods themselves.
 */
export type Stub<T> = { [K in keyof T as T[K] extends (...a: never) => unknown ? K : never]: T[K] };

/** The JobDO of a job (or of a standalone task's hidden job). */
export const jobStub = (env: Env, jobId: string) => env.JOBS.getByName(jobId) as unknown as Stub<JobDO>;
/** The socket.io hub named `name` (events/hubs.ts: `hub-0` … `hub-{HUBS-1}`). */
export const eventsStub = (env: Env, name: string) => env.EVENTS.getByName(name) as unknown as Stub<EventsDO>;
/** The AccountDO of a user. */
export const accountStub = (env: Env, userName: string) => env.ACCOUNTS.getByName(userName) as unknown as AccountStub;
/** A stub of an AccountDO: the home object `{user}` or an index shard `{user}#k` (account/index-shards.ts). */
export type AccountStub = Stub<AccountDO>;
