/**
 * Starts this project's own `npm start` (wrangler dev with every Worker) on a free port with its own
 * persistence folder, waits until it answers, and stops exactly the process group it started.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { esbuildPids } from "./proc-memory.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface DevServer {
  base: string;
  /** Process group id of the server (wrangler and its workerd). */
  pid: number;
  /** The persistence folder (R2, Durable Objects, queues' state). */
  persist: string;
  /** Stops the server (SIGTERM to its group) and deletes the persistence folder unless it was given. */
  stop(): Promise<void>;
  /** Kills the whole group with SIGKILL (a crash), keeping the persistence folder. */
  crash(): Promise<void>;
  log(): string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/**
 * Starts the service; `env` adds variables (API_KEYS, ALLOW_PRIVATE_IMPORTS, RETENTION_SECONDS…).
 * `opts.persist` reuses a persistence folder (a restart on the same state); `opts.port` a port.
 */
export async function startDevServer(
  env: Record<string, string> = {},
  timeoutMs = 120_000,
  opts: { persist?: string; port?: number } = {},
): Promise<DevServer> {
  // A port chosen free can be taken by another process before wrangler binds it (two servers starting, or an
  // ephemeral port the OS hands out meanwhile): on "Address already in use" try again on a new port, at most 3 times.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(env, timeoutMs, opts);
    } catch (e) {
      if (opts.port || attempt >= 3 || !/Address already in use/.test(String(e))) throw e;
    }
  }
}

async function startOnce(
  env: Record<string, string>,
  timeoutMs: number,
  opts: { persist?: string; port?: number },
): Promise<DevServer> {
  const port = opts.port ?? (await freePort());
  const persist = opts.persist ?? mkdtempSync(join(tmpdir(), "edge-convert-e2e-"));
  let out = "";
  const child: ChildProcess = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), PERSIST_TO: persist, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  // wrangler's esbuild service can outlive wrangler (seen after a start that failed on a taken port, and after stops:
  // 1–2 of 4 servers a run), holding the output pipes open so that vitest cannot exit (its 140 s close timeout) and
  // polling its sources on a core meanwhile: whatever is left of the group is killed once the server is done
  const killRest = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* the group is gone */
    }
  };
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      killRest();
      if (!opts.persist) rmSync(persist, { recursive: true, force: true });
      throw new Error(`wrangler dev exited early:\n${out}`);
    }
    try {
      const r = await fetch(`${base}/v2/operations`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > until) {
      process.kill(-child.pid!, "SIGTERM");
      await new Promise((r) => setTimeout(r, 2000));
      killRest();
      throw new Error(`wrangler dev did not answer within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  // wrangler dev keeps an esbuild service whose watch mode polls the bundles' sources: ~14 % of a core per idle server,
  // measured with top, for a whole run (five servers stay up through `test:all` on 2 cores). A test server never sees its
  // sources change, so the service is stopped (SIGSTOP) once the server answers; stop() continues it before the SIGTERM
  // so wrangler's exit, which disposes the esbuild contexts, is not left waiting on a stopped process.
  for (const pid of esbuildPids(child.pid!)) process.kill(pid, "SIGSTOP");
  return {
    base,
    pid: child.pid!,
    persist,
    log: () => out,
    async stop() {
      if (child.exitCode === null) {
        process.kill(-child.pid!, "SIGCONT");
        process.kill(-child.pid!, "SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
      killRest();
      if (!opts.persist) rmSync(persist, { recursive: true, force: true });
    },
    async crash() {
      const exited = new Promise((r) => child.once("exit", r));
      if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
      await exited;
    },
  };
}
