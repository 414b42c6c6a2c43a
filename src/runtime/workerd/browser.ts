/**
 * The Chrome engine through the browser Durable Object (issue 37, durable-objects/browser.ts): the web engine seam
 * (kinds/web.ts) whose renderings run in the object that holds the shared browser session. The task's remaining time
 * goes with the request (WEB_PROFILE=1: the call's ms are logged as `web-rpc`); a cancelled task's rendering is cancelled in the object (its page closed).
 */
import type { WebEngine } from "../../engines/kinds/web";
import type { BrowserDO } from "../../../durable-objects/browser";
import type { Stub } from "../../env";
import { fromWire } from "../../engines/wire";
import { fail } from "../../engines/chrome/render";

/** The object every rendering goes to: one browser session for the isolate's and the account's renderings. */
export const BROWSER_OBJECT = "browser-0";

/** The web engine over the `BROWSERS` namespace, for one task (`signal`, `timeoutMs`: the task's). */
export function browserObjectEngine(
  ns: DurableObjectNamespace<BrowserDO>,
  task: { signal?: AbortSignal; timeoutMs?: number; profile?: boolean },
): WebEngine {
  return {
    async render(req) {
      const stub = ns.getByName(BROWSER_OBJECT) as unknown as Stub<BrowserDO>;
      const id = crypto.randomUUID();
      const onAbort = () => void stub.cancel(id).catch(() => {});
      task.signal?.addEventListener("abort", onAbort, { once: true });
      const t0 = performance.now();
      try {
        return (await fromWire(await stub.render(req, task.timeoutMs ?? 120_000, id))) as Awaited<
          ReturnType<WebEngine["render"]>
        >;
      } catch (err) {
        // the object was reset or unreachable (a deploy, an eviction mid-call): the task is tried again like a browser failure
        const message = err instanceof Error ? err.message : String(err);
        if (task.signal?.aborted) return fail("CANCELLED", "The task was cancelled.");
        return fail("CONVERSION_FAILED", `The browser object failed: ${message.slice(0, 300)}`, undefined, true);
      } finally {
        if (task.profile) console.log(`web-rpc ${JSON.stringify({ rpc: performance.now() - t0 })}`);
        task.signal?.removeEventListener("abort", onAbort);
      }
    },
  };
}
