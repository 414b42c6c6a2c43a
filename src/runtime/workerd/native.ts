/**
 * Which adapter of the NativeEngine seam this deployment uses (engines/native/client.ts), from its
 * configuration: NATIVE_ENGINE_URL (the server as a local process: `npm start`, tests, CI; several, comma-separated,
 * share the work like container instances) wins over
 * the NATIVE_CONTAINER binding (production, NATIVE_ENGINE = "container"); NATIVE_ENGINE = "off" or
 * neither: no native engine, and its operations are absent from the catalogue.
 */
import { httpNative, spreadNative, type NativeTarget } from "../../engines/native/client";
import { containerFetch } from "../../engines/native/container";
import { NATIVE_TOOL_OF } from "../../engines/native/rows";
import { nativeHealth } from "../../engines/native/client";
import type { Env } from "../../env";

/** The bindings that choose the adapter. */
export type NativeEnv = Pick<Env, "NATIVE_ENGINE" | "NATIVE_ENGINE_URL" | "NATIVE_CONTAINER" | "NATIVE_INSTANCES">;

/**
 * The native engine of `env`, or undefined. The Container binding is used only when NATIVE_ENGINE
 * says "container" (wrangler.toml's production value): a Container class constructed where
 * containers are disabled (wrangler dev, vitest) throws, so local runs never reach it.
 */
export function nativeTarget(env: NativeEnv): NativeTarget | undefined {
  if (env.NATIVE_ENGINE === "off") return undefined;
  if (env.NATIVE_ENGINE_URL) {
    const urls = env.NATIVE_ENGINE_URL.split(",")
      .map((u) => u.trim())
      .filter(Boolean);
    return { fetch: spreadNative(env.NATIVE_ENGINE_URL, urls.map(httpNative)), key: env.NATIVE_ENGINE_URL };
  }
  if (env.NATIVE_ENGINE === "container" && env.NATIVE_CONTAINER) {
    return { fetch: containerFetch(env.NATIVE_CONTAINER, Number(env.NATIVE_INSTANCES ?? 3) || 3), key: "container" };
  }
  return undefined;
}

/**
 * Names of the native rows whose tools the native engine has (GET /health); empty when there is no
 * native engine or it does not answer.
 */
export async function nativeRowsAvailable(env: NativeEnv): Promise<Set<string>> {
  const health = await nativeHealth(nativeTarget(env));
  const have = new Set((health?.tools ?? []).filter((t) => t.version).map((t) => t.name));
  return new Set(
    Object.entries(NATIVE_TOOL_OF)
      .filter(([, tools]) => tools.some((t) => have.has(t)))
      .map(([row]) => row),
  );
}
