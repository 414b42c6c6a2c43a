/** Hono environment of the API: bindings and per-request variables (DESIGN.md principle 7). */
import type { Env } from "../env";
import type { User } from "../security/keys";

export type AppEnv = { Bindings: Env; Variables: { user: User } };

/** The public origin of this API, as the caller reached it (used in links and signed URLs). */
export function baseUrlOf(url: string): string {
  return new URL(url).origin;
}

/** Query value, with empty strings treated as absent (.NET sends every parameter, contract §0). */
export function q(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/** Comma-separated include list (contract §1.2). */
export function includes(value: string | undefined): Set<string> {
  return new Set(
    (value ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** True for a UUID; other ids are answered 404 without touching storage. */
export const isUuid = (s: string) => UUID.test(s);

/** Longest blocking wait, in ms (issue 2: waits give up after a bounded time). */
export function maxWaitMs(env: Env): number {
  const n = Number(env.MAX_WAIT_SECONDS);
  return (Number.isFinite(n) && n > 0 ? n : 300) * 1000;
}
