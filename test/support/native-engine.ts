/**
 * Starts the native engine (container/server.ts) as a local process on a free port for Node tests,
 * as `npm start` does, and stops exactly the process it started. `env` overrides its environment
 * (e.g. PATH without the tools, to see ENGINE_UNAVAILABLE).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { httpNative, type NativeTarget } from "../../src/engines/native/client";
import { nativeEngines } from "../../src/engines/native/engines";
import type { EngineInstances } from "../../src/engines/registry";
import { afterAll, beforeAll } from "vitest";
import { freePort } from "./server";
import { treePids } from "./proc-memory";
import { scaled } from "./time-scale";

const SERVER = fileURLToPath(new URL("../../container/server.ts", import.meta.url));

export interface NativeServer {
  url: string;
  target: NativeTarget;
  /** The native rows as engine objects (engines/native/engines.ts). */
  engines(opts?: Parameters<typeof nativeEngines>[1]): EngineInstances;
  log(): string;
  stop(): Promise<void>;
  /** SIGKILL to the server and every process under it (soffice, ffmpeg…: found in /proc first), as a container dies. */
  kill(): Promise<void>;
}

/** Starts the server and waits (up to 60 s) for GET /health. */
export async function startNativeEngine(env: Record<string, string> = {}): Promise<NativeServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 60_000; ;) {
    if (child.exitCode !== null) throw new Error(`native engine exited early:\n${out}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`native engine did not answer:\n${out}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  const target = { fetch: httpNative(url), key: url };
  return {
    url,
    target,
    engines: (opts) => nativeEngines(target, opts),
    log: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
    async kill() {
      const gone = child.exitCode !== null || child.signalCode !== null;
      const exited = gone ? Promise.resolve() : new Promise((r) => child.once("exit", r));
      // soffice runs in a session of its own (its pool's setsid): the tree is read before the server dies
      for (const pid of gone ? [] : treePids(child.pid!)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // ended meanwhile
        }
      }
      await exited;
    },
  };
}

/**
 * The native engine of one test file: started before its tests (up to 120 s) and stopped after them, through vitest's
 * beforeAll/afterAll. The answer stands for the server once it is up (its members read before then throw).
 */
export function nativeEngineForFile(env: Record<string, string> = {}): NativeServer {
  let server: NativeServer | undefined;
  beforeAll(async () => {
    server = await startNativeEngine(env);
  }, scaled(120_000));
  afterAll(async () => server?.stop());
  const up = () => {
    if (!server) throw new Error("the native engine is not started yet (use it inside a test or a hook)");
    return server;
  };
  return {
    get url() {
      return up().url;
    },
    get target() {
      return up().target;
    },
    engines: (opts) => up().engines(opts),
    log: () => up().log(),
    stop: () => up().stop(),
    kill: () => up().kill(),
  };
}
