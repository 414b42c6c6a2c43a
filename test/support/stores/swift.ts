/**
 * OpenStack Swift 2.30 (Debian swift-proxy/-object/-container/-account, memcached) on loopback for
 * the storage tests (issue 35; storage-connectors.md §4.1, §4.3): one set of storage servers and
 * a proxy with `s3api` + `tempauth` — S3 with real SigV4 and payload-hash checking, access key
 * `test:tester`, secret `testing`. Everything in a temporary folder, on free ports, stopped by PID.
 */
import { chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, startProc, until, type Proc } from "./proc.ts";

/** The running Swift. */
export interface SwiftServers {
  /** S3 API base URL of the tempauth proxy, e.g. http://127.0.0.1:PORT. */
  s3: string;
  /** S3 credentials of the tempauth user. */
  accessKeyId: string;
  secretAccessKey: string;
  /** The config folder (rings, swift.conf), for a second proxy (Keystone). */
  etc: string;
  memcached: string;
  stop(): Promise<void>;
}

const PY = "/usr/bin/python3";

/** Writes an ini file from sections. */
function ini(path: string, sections: Record<string, Record<string, string | number>>) {
  writeFileSync(
    path,
    Object.entries(sections)
      .map(
        ([name, kv]) =>
          `[${name}]\n${Object.entries(kv)
            .map(([k, v]) => `${k} = ${v}`)
            .join("\n")}\n`,
      )
      .join("\n"),
  );
}

/** The filters every proxy pipeline uses beside its auth. */
export function commonFilters(memcached: string): Record<string, Record<string, string>> {
  return {
    "filter:catch_errors": { use: "egg:swift#catch_errors" },
    "filter:gatekeeper": { use: "egg:swift#gatekeeper" },
    "filter:healthcheck": { use: "egg:swift#healthcheck" },
    "filter:proxy-logging": { use: "egg:swift#proxy_logging" },
    "filter:cache": { use: "egg:swift#memcache", memcache_servers: memcached },
    "filter:listing_formats": { use: "egg:swift#listing_formats" },
    "filter:copy": { use: "egg:swift#copy" },
    "filter:slo": { use: "egg:swift#slo" },
    "filter:dlo": { use: "egg:swift#dlo" },
  };
}

/** Starts a proxy with `conf` and waits for its healthcheck. */
export async function startProxy(conf: string, port: number, procs: Proc[]): Promise<Proc> {
  const proxy = startProc("swift-proxy", PY, ["/usr/bin/swift-proxy-server", conf, "-v"]);
  procs.push(proxy);
  await until(
    async () => (await fetch(`http://127.0.0.1:${port}/healthcheck`)).ok,
    60_000,
    procs,
    "swift-proxy-server",
  );
  return proxy;
}

/** Starts memcached, the three storage servers and the s3api proxy; `secret` is tempauth's key of test:tester. */
export async function startSwift(secret = "testing"): Promise<SwiftServers & { procs: Proc[]; root: string }> {
  const root = mkdtempSync(join(tmpdir(), "edge-convert-swift-"));
  const etc = join(root, "etc");
  const srv = join(root, "srv");
  mkdirSync(etc);
  mkdirSync(join(srv, "sdb1"), { recursive: true });
  const procs: Proc[] = [];
  const stop = async () => {
    await Promise.all(procs.map((p) => p.stop()));
    rmSync(root, { recursive: true, force: true });
  };
  try {
    writeFileSync(
      join(etc, "swift.conf"),
      "[swift-hash]\nswift_hash_path_suffix = e2e-suffix\nswift_hash_path_prefix = e2e-prefix\n[storage-policy:0]\nname = Policy-0\ndefault = yes\n",
    );
    const ports = { object: await freePort(), container: await freePort(), account: await freePort() };
    for (const [n, port] of Object.entries(ports)) {
      for (const args of [["create", "8", "1", "1"], ["add", `r1z1-127.0.0.1:${port}/sdb1`, "1"], ["rebalance"]]) {
        const r = spawnSync(PY, ["/usr/bin/swift-ring-builder", join(etc, `${n}.builder`), ...args], {
          encoding: "utf8",
        });
        if (r.status !== 0 && !(args[0] === "rebalance" && r.status === 1))
          throw new Error(`swift-ring-builder ${n} ${args.join(" ")}: ${r.stdout}${r.stderr}`);
      }
      ini(join(etc, `${n}-server.conf`), {
        DEFAULT: {
          bind_ip: "127.0.0.1",
          bind_port: port,
          devices: srv,
          mount_check: "false",
          swift_dir: etc,
          workers: 0,
          user: "swift",
        },
        "pipeline:main": { pipeline: `${n}-server` },
        [`app:${n}-server`]: { use: `egg:swift#${n}` },
      });
    }
    const swiftUser = spawnSync("id", ["-u", "swift"], { encoding: "utf8" });
    const uid = Number(swiftUser.stdout.trim());
    const gid = Number(spawnSync("id", ["-g", "swift"], { encoding: "utf8" }).stdout.trim());
    for (const d of [srv, join(srv, "sdb1")]) chownSync(d, uid, gid);
    const mcPort = await freePort();
    procs.push(
      startProc("memcached", "memcached", [
        "-l",
        "127.0.0.1",
        "-p",
        String(mcPort),
        "-U",
        "0",
        "-u",
        "nobody",
        "-m",
        "32",
      ]),
    );
    for (const n of Object.keys(ports))
      procs.push(startProc(`swift-${n}`, PY, [`/usr/bin/swift-${n}-server`, join(etc, `${n}-server.conf`), "-v"]));
    const memcached = `127.0.0.1:${mcPort}`;
    const port = await freePort();
    const conf = join(etc, "proxy-server.conf");
    ini(conf, {
      DEFAULT: { bind_ip: "127.0.0.1", bind_port: port, swift_dir: etc, workers: 0, user: "swift" },
      "pipeline:main": {
        pipeline:
          "catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server",
      },
      "app:proxy-server": { use: "egg:swift#proxy", account_autocreate: "true" },
      "filter:tempauth": { use: "egg:swift#tempauth", user_test_tester: `${secret} .admin` },
      "filter:s3api": { use: "egg:swift#s3api", location: "us-east-1" },
      ...commonFilters(memcached),
    });
    await startProxy(conf, port, procs);
    return {
      s3: `http://127.0.0.1:${port}`,
      accessKeyId: "test:tester",
      secretAccessKey: secret,
      etc,
      memcached,
      procs,
      root,
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
