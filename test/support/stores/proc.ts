/**
 * Child processes of the store servers the storage tests start (issue 35): each started in its own
 * process group, its output kept for the failure message, stopped by its PID (never by name).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "../server.ts";

export { freePort };

/** A started server process. */
export interface Proc {
  name: string;
  child: ChildProcess;
  log(): string;
  stop(): Promise<void>;
}

/** Starts `cmd args` detached (its own process group), output collected. */
export function startProc(name: string, cmd: string, args: string[], env: Record<string, string> = {}): Proc {
  let out = "";
  const child = spawn(cmd, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout!.on("data", (d) => (out = (out + d).slice(-20_000)));
  child.stderr!.on("data", (d) => (out = (out + d).slice(-20_000)));
  return {
    name,
    child,
    log: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((r) => child.once("exit", () => r()));
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        /* already gone */
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          /* already gone */
        }
      }, 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Waits until `probe` resolves true, or throws after `ms` with the processes' logs. */
export async function until(probe: () => Promise<boolean>, ms: number, procs: Proc[], what: string): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (await probe().catch(() => false)) return;
    const dead = procs.find((p) => p.child.exitCode !== null);
    if (dead || Date.now() > end)
      throw new Error(
        `${what} did not start${dead ? ` (${dead.name} exited ${dead.child.exitCode})` : ` within ${ms} ms`}:\n` +
          procs.map((p) => `--- ${p.name}\n${p.log()}`).join("\n"),
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}
