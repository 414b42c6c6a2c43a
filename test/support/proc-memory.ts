/**
 * Resident memory of a process tree, read from Linux's /proc (issue 35: the Worker's memory stays
 * flat while a 1 GB file streams through). `workerdPids(root)` finds every `workerd` process
 * descending from `root` (wrangler dev's runtime: the api Worker, its Durable Objects and the engine
 * Workers share it), `nativeServerPids(root)` the native engine's server; `sampleRss` samples their
 * summed VmRSS on an interval until stopped.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Every process as pid → {ppid, comm}. */
function processes(): Map<number, { ppid: number; comm: string }> {
  const out = new Map<number, { ppid: number; comm: string }>();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      out.set(Number(d), { ppid, comm });
    } catch {
      /* the process ended meanwhile */
    }
  }
  return out;
}

/** Pids of the processes under `root` (itself included) for which `pick(pid, comm)` holds. */
function pidsUnder(root: number, pick: (pid: number, comm: string) => boolean): number[] {
  const all = processes();
  const under = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
      if (p === root) return true;
      p = all.get(p)?.ppid ?? 0;
    }
    return false;
  };
  return [...all].filter(([pid, p]) => pick(pid, p.comm) && under(pid)).map(([pid]) => pid);
}

/** Pids of every process under `root`, itself included (a process tree to kill at once). */
export function treePids(root: number): number[] {
  return pidsUnder(root, () => true);
}

/** Pids of the `workerd` processes under `root`. */
export function workerdPids(root: number): number[] {
  return pidsUnder(root, (_, comm) => comm === "workerd");
}

/** Pids of the `esbuild` service processes under `root` (wrangler dev's bundler in watch mode). */
export function esbuildPids(root: number): number[] {
  return pidsUnder(root, (_, comm) => comm === "esbuild");
}

/** Pids of the native engine's server (`node …/container/server.ts`) under `root` (`npm start` starts it). */
export function nativeServerPids(root: number): number[] {
  return pidsUnder(root, (pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8")
        .split("\0")
        .some((a) => a.endsWith("container/server.ts"));
    } catch {
      return false;
    }
  });
}

/** VmRSS in bytes of `pid`, 0 when it is gone. */
export function rss(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** One sample: when (ms since the epoch) and the summed RSS (bytes). */
export interface RssSample {
  at: number;
  rss: number;
}

/** Samples the summed RSS of `pids` every `everyMs` until `stop()`, which answers the samples. */
export function sampleRss(pids: number[], everyMs = 250): { stop(): RssSample[] } {
  const samples: RssSample[] = [];
  const take = () => samples.push({ at: Date.now(), rss: pids.reduce((n, p) => n + rss(p), 0) });
  take();
  const t = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(t);
      take();
      return samples;
    },
  };
}

/** The largest RSS among `samples` taken from `from` to `to` (ms since the epoch), 0 when none. */
export function peakBetween(samples: RssSample[], from: number, to: number): number {
  return Math.max(0, ...samples.filter((s) => s.at >= from && s.at <= to).map((s) => s.rss));
}

/** The resident memory of one process group over a run: its idle size before, its peak during, bytes. */
export interface Growth {
  idle: number;
  peak: number;
  samples: RssSample[];
}

/**
 * Watches the dev server's workerd (`workerdPids`) and native engine server (`nativeServerPids`) under `serverPid`:
 * each one's idle size over `idleMs` first (the largest sample), then samples until `stop`, which gives both
 * groups' idle size, peak and samples (the slow tests' memory oracle).
 * @throws Error (an expect) when either group is not running
 */
export async function watchServerMemory(
  serverPid: number,
  idleMs = 2000,
): Promise<{ stop(): { workerd: Growth; native: Growth } }> {
  const workerd = workerdPids(serverPid);
  const native = nativeServerPids(serverPid);
  if (!workerd.length || native.length !== 1)
    throw new Error(`expected workerd and one native server under ${serverPid}: ${workerd} / ${native}`);
  const idleOf = async (pids: number[]) => {
    const s = sampleRss(pids);
    await new Promise((r) => setTimeout(r, idleMs));
    return Math.max(...s.stop().map((x) => x.rss));
  };
  const [idleW, idleN] = await Promise.all([idleOf(workerd), idleOf(native)]);
  const [w, n] = [sampleRss(workerd), sampleRss(native)];
  const growth = (idle: number, samples: RssSample[]): Growth => ({
    idle,
    peak: Math.max(idle, ...samples.map((x) => x.rss)),
    samples,
  });
  return { stop: () => ({ workerd: growth(idleW, w.stop()), native: growth(idleN, n.stop()) }) };
}

/** Pids of LibreOffice's `soffice.bin` processes under `root` (the native engine's office pool, office/pool.ts). */
export function sofficePids(root: number): number[] {
  return pidsUnder(root, (_, comm) => comm === "soffice.bin");
}

/** VmHWM (peak resident memory since it started) in bytes of `pid`, 0 when it is gone. */
export function hwm(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Watches the processes `find()` answers (looked up again every `everyMs`: they may start, and be restarted, during
 * the run) and answers on `stop()` the largest VmHWM any of them reached while watched, bytes, and how many were seen.
 */
export function watchPeak(find: () => number[], everyMs = 250): { stop(): { peak: number; seen: number } } {
  const peaks = new Map<number, number>();
  const take = () => {
    for (const pid of find()) peaks.set(pid, Math.max(peaks.get(pid) ?? 0, hwm(pid)));
  };
  take();
  const t = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(t);
      take();
      return { peak: Math.max(0, ...peaks.values()), seen: peaks.size };
    },
  };
}
