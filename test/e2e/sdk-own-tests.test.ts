/**
 * Issue 18, "Done when": cloudconvert-node 3.0.0's own integration tests (test/e2e/cloudconvert-node,
 * unchanged but for the SDK import) pass against this server, the socket test included. They run
 * under mocha with tsx as in the SDK's repository, their hosts redirected by hosts.cjs; their input
 * file comes from the corpus (images/cloudconvert-input.png is the SDK's tests/integration/files/input.png).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { sharedServer, type SharedServer } from "../support/servers";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SRC = join(ROOT, "test/e2e/cloudconvert-node");
const STAGE = join(ROOT, ".cache/cloudconvert-node");
let server: SharedServer;

beforeAll(async () => {
  server = sharedServer("guarded");
  rmSync(STAGE, { recursive: true, force: true });
  mkdirSync(join(STAGE, "tests/integration/files"), { recursive: true });
  writeFileSync(join(STAGE, "package.json"), JSON.stringify({ type: "commonjs" })); // the SDK's repository is CommonJS (its tests use __dirname)
  for (const f of readdirSync(SRC).filter((n) => n.endsWith(".ts")))
    copyFileSync(join(SRC, f), join(STAGE, "tests/integration", f));
  copyFileSync(corpusPath("images/cloudconvert-input.png"), join(STAGE, "tests/integration/files/input.png"));
});

describe("cloudconvert-node 3.0.0's own integration tests", () => {
  it("pass against this server (jobs with upload/download, the socket finished event, task upload, users.me)", () => {
    const r = spawnSync(
      process.execPath,
      [
        join(ROOT, "node_modules/mocha/bin/mocha.js"),
        "--require",
        "tsx",
        "--require",
        join(SRC, "hosts.cjs"),
        "--exit",
        "tests/integration/*.ts",
      ],
      {
        cwd: STAGE,
        env: { ...process.env, CC_BASE: server.base, CLOUDCONVERT_API_KEY: "cc-node-key" },
        encoding: "utf8",
        timeout: 120_000,
      },
    );
    console.log(
      r.stdout
        .split("\n")
        .filter((l) => /passing|failing|✔|✓|\d+\) /.test(l))
        .join("\n"),
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/4 passing/);
    expect(r.stdout).not.toMatch(/failing|pending/);
  });
});
