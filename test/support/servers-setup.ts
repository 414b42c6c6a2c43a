/**
 * Global setup of the e2e and browser projects: brings the browser build up to date, starts each configuration of servers.ts once (in
 * parallel), provides their base URLs to the test files, and stops exactly the process groups it
 * started when the run ends.
 */
import type { TestProject } from "vitest/node";
import { buildBrowserIfChanged } from "../../scripts/engine-workers.mjs";
import { startDevServer, type DevServer } from "./server";
import { SERVER_CONFIGS, type ServerName } from "./servers";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // the api Worker serves dist/browser/ and dist/console/ (npm start rebuilds them only when their sources changed): current before any server starts
  buildBrowserIfChanged();
  // the browser project's files use only the guarded server
  const names =
    project.name === "browser" ? (["guarded"] as ServerName[]) : (Object.keys(SERVER_CONFIGS) as ServerName[]);
  const started: DevServer[] = [];
  try {
    await Promise.all(
      names.map(async (n) =>
        started.push(Object.assign(await startDevServer(SERVER_CONFIGS[n], 240_000), { name: n })),
      ),
    );
  } catch (e) {
    await Promise.all(started.map((s) => s.stop()));
    throw e;
  }
  project.provide(
    "servers",
    Object.fromEntries(started.map((s) => [(s as DevServer & { name: ServerName }).name, s.base])) as Record<
      ServerName,
      string
    >,
  );
  return async () => {
    await Promise.all(started.map((s) => s.stop()));
  };
}
