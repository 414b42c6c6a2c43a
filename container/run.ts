/**
 * Running one native tool: no shell, an argument list, the task's own working directory, a time
 * limit and an address-space limit (`prlimit --as`, util-linux), the whole process group killed on
 * timeout or cancellation (issue 12: "a hung or crashed tool ends as a task error with a code").
 * A CPU-time limit (`prlimit --cpu`) backs the timer: a tool whose server died under it (the engine
 * stopped mid-call) would otherwise run on as an orphan nobody kills (seen: a looping EPS in
 * Ghostscript still burning CPU 45 minutes after its test server had gone).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";

/** What a tool run produced. Output is capped at `maxOutput` bytes per stream (the tail is kept). */
export interface ToolRun {
  /** Exit code, or null when a signal ended it. */
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** True when the time limit (or the caller's abort) killed it. */
  killed: boolean;
  ms: number;
}

/** One tool call. */
export interface ToolCall {
  /** Executable (absolute path or a name found on PATH). */
  cmd: string;
  args: string[];
  /** Working directory: the task's own folder. */
  cwd: string;
  /** Milliseconds before the process group is killed. */
  timeoutMs: number;
  /** RLIMIT_AS in bytes (virtual memory), enforced with prlimit when it is installed. */
  memoryBytes?: number;
  /**
   * RLIMIT_FSIZE in bytes: the largest file the tool may write (it gets SIGXFSZ beyond), enforced with prlimit; the
   * archive engine's cap on what one member of a lying or bomb archive may grow to.
   */
  fileSizeBytes?: number;
  /** Aborts the run (the HTTP caller went away). */
  signal?: AbortSignal;
  /** Largest stdout/stderr kept, bytes (default 256 KiB). */
  maxOutput?: number;
  env?: Record<string, string>;
}

const PRLIMIT = ["/usr/bin/prlimit", "/bin/prlimit"].find((p) => existsSync(p));

/**
 * RLIMIT_CPU for a run of `timeoutMs`, seconds: what one process could use on every core for the whole time, plus
 * 10 s, so it never ends a run the timer would let finish; it only stops orphans (the kernel sends SIGKILL at it).
 */
export function cpuSecondsFor(timeoutMs: number, cores = availableParallelism()): number {
  return Math.ceil(timeoutMs / 1000) * Math.max(2, cores) + 10;
}

/** Appends to a capped buffer, keeping the tail. */
function capped(max: number) {
  let chunks: Buffer[] = [];
  let size = 0;
  return {
    push(b: Buffer) {
      chunks.push(b);
      size += b.length;
      while (size > max && chunks.length > 1) size -= chunks.shift()!.length;
    },
    text: () => Buffer.concat(chunks).subarray(-max).toString("utf8"),
  };
}

/**
 * Runs `call` to its end. Never rejects for the tool's own failure: the caller reads code/signal.
 * @throws Error (code ENOENT) only when the executable does not exist
 */
export function runTool(call: ToolCall): Promise<ToolRun> {
  const started = Date.now();
  const limits = [
    `--cpu=${cpuSecondsFor(call.timeoutMs)}`,
    ...(call.memoryBytes ? [`--as=${call.memoryBytes}`] : []),
    ...(call.fileSizeBytes ? [`--fsize=${call.fileSizeBytes}`] : []),
  ];
  const [cmd, args] = PRLIMIT ? [PRLIMIT, [...limits, "--", call.cmd, ...call.args]] : [call.cmd, call.args];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: call.cwd,
      detached: true, // its own process group, killed as a whole
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: call.cwd,
        LANG: "C.UTF-8",
        TMPDIR: call.cwd,
        ...call.env,
      },
    });
    const out = capped(call.maxOutput ?? 256 * 1024);
    const err = capped(call.maxOutput ?? 256 * 1024);
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    let killed = false;
    const kill = () => {
      killed = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // the group is already gone
      }
    };
    const timer = setTimeout(kill, call.timeoutMs);
    call.signal?.addEventListener("abort", kill, { once: true });
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      call.signal?.removeEventListener("abort", kill);
      resolve({ code, signal, stdout: out.text(), stderr: err.text(), killed, ms: Date.now() - started });
    });
  });
}

/** The first line of `text` matching `re`, trimmed, or the last non-empty line (for error messages). */
export function pickLine(text: string, re?: RegExp): string {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return (re && lines.find((l) => re.test(l))) || lines.at(-1) || "";
}
