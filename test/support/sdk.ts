/**
 * The official `cloudconvert` SDK (v3), unchanged but for its hosts: `callWithBase` is overridden
 * on the instance to send api and sync hosts to the local server (contract §5.1), and the socket
 * its `subscribe` would open to socketio.cloudconvert.com is opened to the local server instead
 * (the SDK's own socket.io-client, `transports: ['websocket']` as the SDK asks), on first use.
 */
import CloudConvert from "cloudconvert";
import { io, type Socket } from "socket.io-client";

/**
 * The SDK's job body (`jobs.create`), typed by its union of operations. Operations the API has beyond that union
 * (`pdf/split-pages`, `pdf/ocr`) and bodies the tests build as records are cast to it: the SDK sends them as given.
 */
export type JobBody = NonNullable<Parameters<CloudConvert["jobs"]["create"]>[0]>;

/** `tasks.get`'s query with the task's payload: a list in the API (contract §3.3), one string in the SDK's type. */
export const withPayload = () => ({ include: ["payload"] }) as unknown as { include: string };

export function sdk(apiKey: string, base: string): CloudConvert {
  const cc = new CloudConvert(apiKey);
  const orig = cc.callWithBase.bind(cc);
  const re = /^https:\/\/(?:(?!sync\.)[a-z0-9-]+\.)?(sync\.)?api(?:\.sandbox)?\.cloudconvert\.com\/v2\//;
  (cc as unknown as { callWithBase: typeof orig }).callWithBase = (
    b: string,
    ...rest: Parameters<typeof orig> extends [string, ...infer R] ? R : never
  ) =>
    orig(
      b.replace(re, (_: string, s?: string) => `${base}/${s ? "sync/" : ""}v2/`),
      ...rest,
    );
  let socket: Socket | undefined;
  Object.defineProperty(cc, "socket", {
    get: () => (socket ??= io(base, { transports: ["websocket"] })),
    set: (s: Socket | undefined) => (socket = s),
    configurable: true,
  });
  (cc as unknown as { subscribedChannels: Map<string, boolean> }).subscribedChannels = new Map();
  return cc;
}

/**
 * Polls job `id` with GET /v2/jobs/{id} every `everyMs` until it is finished or error, and answers it: for jobs that
 * outlast the sync wait (the slow tests' 1 GB transfers). Never times out by itself (the test's timeout bounds it).
 */
export async function pollJob(cc: CloudConvert, id: string, everyMs = 2000) {
  let job = await cc.jobs.get(id);
  while (job.status !== "finished" && job.status !== "error") {
    await new Promise((r) => setTimeout(r, everyMs));
    job = await cc.jobs.get(id);
  }
  return job;
}
