/** The cost meter (issue 20): bindings wrapped by `metered` count the billed operations by their billing class. */
import { describe, expect, it } from "vitest";
import type { Env, TaskMessage } from "../../src/env";
import { metered, readMeter } from "../../src/meter/meter";

const fakeBucket = () => ({
  put: async () => ({}),
  get: async () => null,
  head: async () => null,
  delete: async () => {},
  list: async () => ({ objects: [] }),
});
const fakeNamespace = () => ({ getByName: (name: string) => ({ name, greet: async (x: string) => `hi ${x}` }) });

describe("cost meter", () => {
  it("is off unless METER is on: the env is returned as is", () => {
    const env = { FILES: fakeBucket() } as unknown as Env; // fakes of the bindings metered wraps
    expect(metered(env)).toBe(env);
  });

  it("counts R2 class A and B (a delete is free), queue messages and Durable Object RPC calls, and still calls through", async () => {
    readMeter(true);
    const env = metered({
      METER: "on",
      FILES: fakeBucket(),
      TASKS: { send: async () => {}, sendBatch: async () => {} },
      JOBS: fakeNamespace(),
      ACCOUNTS: fakeNamespace(),
      EVENTS: fakeNamespace(),
    } as unknown as Env);
    await env.FILES.put("k", "v");
    await env.FILES.delete("k");
    await env.FILES.get("k");
    await env.FILES.head("k");
    await env.FILES.list();
    await env.TASKS.sendBatch([{ body: 1 }, { body: 2 }] as unknown as MessageSendRequest<TaskMessage>[]); // counted, not read
    await env.TASKS.send({ jobId: "j", taskId: "t" });
    const stub = env.JOBS.getByName("a") as unknown as ReturnType<ReturnType<typeof fakeNamespace>["getByName"]>;
    expect(await stub.greet("x")).toBe("hi x");
    expect(stub.name).toBe("a");
    // class A: put and list; class B: get and head; the delete is none: R2 pricing lists DeleteObject among its
    // "Free operations" (with DeleteBucket and AbortMultipartUpload), https://developers.cloudflare.com/r2/pricing/
    expect(readMeter(true)).toMatchObject({ r2ClassA: 2, r2ClassB: 2, queueMessages: 3, doRequests: 1 });
    expect(readMeter(false)).toMatchObject({ r2ClassA: 0, doRequests: 0 });
  });

  it("a delete alone, of one key or many, costs no R2 operation and still deletes", async () => {
    readMeter(true);
    const deleted: unknown[] = [];
    const FILES = { ...fakeBucket(), delete: async (k: unknown) => void deleted.push(k) };
    const env = metered({
      METER: "on",
      FILES,
      TASKS: { send: async () => {} },
      JOBS: fakeNamespace(),
      ACCOUNTS: fakeNamespace(),
      EVENTS: fakeNamespace(),
    } as unknown as Env);
    await env.FILES.delete("k");
    await env.FILES.delete(["a", "b"]);
    expect(deleted).toEqual(["k", ["a", "b"]]);
    expect(readMeter(true)).toMatchObject({ r2ClassA: 0, r2ClassB: 0 });
  });
});
