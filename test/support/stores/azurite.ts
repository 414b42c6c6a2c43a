/**
 * Azurite 3.37 (npm, Microsoft's Azure Storage emulator) on loopback for the storage tests (issue
 * 35; storage-connectors.md §4.2): it checks Shared Key signatures, SAS signatures and SAS
 * permissions. It needs Node ≥ 22: run with the project's own Node (node_modules/.bin/node).
 * `--skipApiVersionCheck` lets the tests' oracle (Microsoft's SDK) use its newer API version.
 * Account devstoreaccount1 with the emulator's well-known key; path-style URLs
 * http://127.0.0.1:PORT/devstoreaccount1/<container>/<blob>.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startProc, until } from "./proc";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/** The emulator's development account and its published key. */
export const AZURITE_ACCOUNT = "devstoreaccount1";
export const AZURITE_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

export interface Azurite {
  /** Blob endpoint of the account, e.g. http://127.0.0.1:PORT/devstoreaccount1. */
  accountUrl: string;
  stop(): Promise<void>;
}

/** Starts azurite's blob service on `port` with its data in a temporary folder. */
export async function startAzurite(port: number): Promise<Azurite> {
  const data = mkdtempSync(join(tmpdir(), "edge-convert-azurite-"));
  const proc = startProc("azurite", join(ROOT, "node_modules/.bin/node"), [
    join(ROOT, "node_modules/azurite/dist/src/blob/main.js"),
    "--blobHost",
    "127.0.0.1",
    "--blobPort",
    String(port),
    "--location",
    data,
    "--disableTelemetry",
    // Microsoft's @azure/storage-blob (the tests' oracle) sends a newer x-ms-version than 3.37 knows; the check of
    // signatures and SAS permissions is unaffected (the service's own requests send 2021-12-02)
    "--skipApiVersionCheck",
  ]);
  const stop = async () => {
    await proc.stop();
    rmSync(data, { recursive: true, force: true });
  };
  try {
    await until(
      async () => (await fetch(`http://127.0.0.1:${port}/${AZURITE_ACCOUNT}?comp=list`)).status > 0,
      60_000,
      [proc],
      "azurite",
    );
  } catch (e) {
    await stop();
    throw e;
  }
  return { accountUrl: `http://127.0.0.1:${port}/${AZURITE_ACCOUNT}`, stop };
}
