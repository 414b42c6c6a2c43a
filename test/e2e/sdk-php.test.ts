/**
 * Issue 31, "Done when": the official PHP SDK's integration tests (cloudconvert-php 3.4.4, tests/Integration, kept
 * unmodified in test/php/cloudconvert-php) pass against this server with only the host redirected: test/php/bootstrap.php
 * loads the SDK without Composer (Debian's php-* packages plus test/php/vendor, see test/php/README.md) and has
 * php-http/discovery hand the SDK a client that sends api.sandbox.cloudconvert.com to this server. The tests' input
 * files come from the corpus (pdf/cloudconvert-input.pdf and images/cloudconvert-input.png are byte for byte the SDK's
 * tests/Integration/files/input.pdf and input.png; the upload/download test asserts the 172,570-byte size).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { sharedServer, type SharedServer } from "../support/servers";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SDK_TESTS = join(ROOT, "test/php/cloudconvert-php/tests/Integration");
const STAGE = join(ROOT, ".cache/cloudconvert-php/tests");
let server: SharedServer;

beforeAll(() => {
  server = sharedServer("guarded");
  rmSync(STAGE, { recursive: true, force: true });
  mkdirSync(join(STAGE, "Integration/files"), { recursive: true });
  for (const f of readdirSync(SDK_TESTS)) copyFileSync(join(SDK_TESTS, f), join(STAGE, "Integration", f));
  copyFileSync(corpusPath("pdf/cloudconvert-input.pdf"), join(STAGE, "Integration/files/input.pdf"));
  copyFileSync(corpusPath("images/cloudconvert-input.png"), join(STAGE, "Integration/files/input.png"));
});

describe("cloudconvert-php 3.4.4's own integration tests", () => {
  it("pass against this server (job create/delete, upload + wait + download, task create payload and status, users me)", () => {
    const r = spawnSync(
      "phpunit",
      ["-c", join(ROOT, "test/php/phpunit.xml"), "--testdox", join(STAGE, "Integration")],
      {
        env: { ...process.env, CC_BASE: server.base, CC_PHP_TESTS: STAGE, CLOUDCONVERT_API_KEY: "cc-php-key" },
        encoding: "utf8",
        timeout: 120_000,
      },
    );
    console.log(r.stdout);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    // every test of the SDK's suite ran and passed: JobTest (2), TaskTest (2), UserTest (1)
    expect(r.stdout).toMatch(/OK \(5 tests, \d+ assertions\)/);
    for (const name of ["Create job", "Upload and download files", "Create import url task", "Upload file", "Me"])
      expect(r.stdout).toMatch(new RegExp(`✔ ${name}\\b`));
  });
});
