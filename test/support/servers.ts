/**
 * The dev servers the e2e and browser projects share (issue 30 part 1): each distinct configuration
 * is started once per run by the projects' global setup (test/support/servers-setup.ts) and handed
 * to the test files, instead of one `npm start` per file (19 starts → 3). Files run one after
 * another on a shared server, so a test counts only what it created (its own tag, its own job ids,
 * or a count taken before and after).
 */
import { inject } from "vitest";

/** The server configurations: name → the environment `npm start` gets (scripts/start.mjs). */
export const SERVER_CONFIGS = {
  /** The production rule: loopback and private addresses refused by import/url and capture-website. */
  guarded: { API_KEYS: "key-a:alice,key-b:bob,cc-node-key:ccnode,cc-php-key:ccphp" },
  /** ALLOW_PRIVATE_IMPORTS=true (development only): imports and captures may read this run's loopback servers. */
  open: { API_KEYS: "key-a:alice,key-b:bob", ALLOW_PRIVATE_IMPORTS: "true" },
  /** The cost meter on, for one heavy user whose 1,000 jobs are all open at once (account-shards.test.ts). */
  metered: { API_KEYS: "key-h:heavy", METER: "on", MAX_OPEN_JOBS: "10000" },
} as const satisfies Record<string, Record<string, string>>;

export type ServerName = keyof typeof SERVER_CONFIGS;

/** What a test file gets of a shared server: its base URL (http://127.0.0.1:PORT). */
export interface SharedServer {
  base: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of each shared server, by configuration name. */
    servers: Record<ServerName, string>;
  }
}

/**
 * The shared server `name`, started by the global setup.
 * @throws Error when the project has no such server (its config lacks the global setup)
 */
export function sharedServer(name: ServerName): SharedServer {
  const base = inject("servers")?.[name];
  if (!base)
    throw new Error(`no shared server "${name}": the project's globalSetup must be test/support/servers-setup.ts`);
  return { base };
}
