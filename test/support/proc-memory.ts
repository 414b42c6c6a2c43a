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
