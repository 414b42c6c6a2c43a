/**
 * The native engine as a Cloudflare Container (production adapter of the NativeEngine seam,
 * client.ts): container/Dockerfile's image, the server listening on 8080, no outbound internet
 * (documents and Ghostscript must not reach out, issue 12), asleep after 10 idle minutes. Bound to
 * the api Worker as NATIVE_CONTAINER (wrangler.toml [[containers]]); `wrangler dev` and the tests
 * run with containers disabled and reach the same server over loopback instead (NATIVE_ENGINE_URL),
 * so this class is never constructed locally (shared/reference/cloudflare-platform.md §6).
 */
import { Container, getContainer } from "@cloudflare/containers";
import { containerNative, spreadNative, type NativeFetch } from "./client";

/** What the container class reads of the api Worker's vars (src/env.ts Env has the same field; not imported: this file is in the browser build's graph). */
interface ContainerVars {
  NATIVE_OFFICE_POOL?: string;
}

/** soffice processes per instance when NATIVE_OFFICE_POOL is unset: three fit a standard-3's 8 GiB beside a large image. */
export const DEFAULT_CONTAINER_OFFICE_POOL = "3";

/**
 * The native engine's Container Durable Object. Its LibreOffice pool comes from the Worker's NATIVE_OFFICE_POOL
 * (default 3), passed to the container's server; how many instances is `max_instances` (wrangler.toml) and
 * NATIVE_INSTANCES (issue 48).
 */
export class NativeContainer extends Container {
  defaultPort = 8080;
  sleepAfter = "10m";
  enableInternet = false;
  pingEndpoint = "health";

  constructor(ctx: ConstructorParameters<typeof Container>[0], env: ContainerVars) {
    super(ctx, env as never); // the class reads only ContainerVars of the Worker's env
    const pool = /^[1-9]\d?$/.test(env.NATIVE_OFFICE_POOL ?? "")
      ? env.NATIVE_OFFICE_POOL!
      : DEFAULT_CONTAINER_OFFICE_POOL;
    this.envVars = { HOST: "0.0.0.0", PORT: "8080", NATIVE_OFFICE_POOL: pool };
  }
}

/**
 * The Container adapter over `binding`: each exchange goes to one of `instances` containers (`native-0` …), the less
 * loaded of two chosen at random, one that failed lately passed over (client.ts spreadNative, issue 48).
 */
export function containerFetch(
  binding: Parameters<typeof getContainer<NativeContainer>>[0],
  instances: number,
): NativeFetch {
  return spreadNative(
    `container:${instances}`,
    Array.from({ length: Math.max(1, instances) }, (_, i) =>
      containerNative(() => getContainer(binding, `native-${i}`)),
    ),
  );
}
