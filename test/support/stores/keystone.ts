/**
 * Keystone v3 (Debian python3-keystone: SQLite, fernet tokens, the wsgiref test server) and a Swift
 * proxy that validates its tokens (keystonemiddleware authtoken + keystoneauth) on loopback, for the
 * OpenStack tests (issue 35; storage-connectors.md §4.3). The proxy shares the storage servers of
 * swift.ts. Keystone holds one object-store endpoint (public, RegionOne) and a user ccuser/ccpass
 * with the member role on project ccproject (its default project).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { execFile, spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, startProc, until, type Proc } from "./proc";
import { commonFilters, startProxy, type SwiftServers } from "./swift";
import { scaled } from "../time-scale";

export interface KeystoneSwift {
  /** Keystone's base URL without a version (CloudConvert's auth_url). */
  authUrl: string;
  username: string;
  password: string;
  project: string;
  region: string;
  stop(): Promise<void>;
}

const ADMIN_PASSWORD = "adminpass";

/** Runs keystone-manage without blocking the event loop (the other stores start meanwhile). */
async function manage(conf: string, args: string[]): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    execFile(
      "/usr/bin/keystone-manage",
      ["--config-file", conf, ...args],
      { timeout: scaled(180_000) },
      (err, stdout, stderr) => {
        // each run prints a harmless eventlet AttributeError at exit (storage-connectors.md §4.3): tolerated
        if (err && !/getcurrent/.test(stderr))
          reject(new Error(`keystone-manage ${args[0]}: ${err.message}\n${stdout}${stderr}`));
        else resolve();
      },
    ),
  );
}

/**
 * Calls Keystone's REST API with `token`; answers the parsed body (and the subject token of a login).
 * A 500 (SQLite's "database is locked" under the wsgiref server, §4.3) is tried again, at most 5 times.
 */
async function api<T>(base: string, method: string, path: string, body?: unknown, token?: string) {
  let r: Response;
  for (let attempt = 1; ; attempt++) {
    r = await fetch(`${base}/v3${path}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { "x-auth-token": token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (r.status !== 500 || attempt === 5) break;
    await new Promise((res) => setTimeout(res, 1000 * attempt));
  }
  if (!r.ok) throw new Error(`Keystone ${method} ${path}: HTTP ${r.status} ${await r.text()}`);
  const text = await r.text();
  // the body the caller reads ({} when empty)
  return { json: (text ? JSON.parse(text) : {}) as T, subject: r.headers.get("x-subject-token") ?? "" };
}

/** A login's body, the part read: the token's service catalogue. */
export interface KeystoneToken {
  token: { catalog: { type: string; endpoints: { url: string }[] }[] };
}

/** Logs in with a password (scoped to `project` when given); answers the token and the body. */
export async function keystoneLogin(authUrl: string, user: string, password: string, project?: string) {
  const { json, subject } = await api<KeystoneToken>(authUrl, "POST", "/auth/tokens", {
    auth: {
      identity: { methods: ["password"], password: { user: { name: user, domain: { id: "default" }, password } } },
      ...(project ? { scope: { project: { name: project, domain: { id: "default" } } } } : {}),
    },
  });
  return { token: subject, body: json };
}

/** Starts Keystone and a Keystone-authenticated Swift proxy on the storage servers of `swift`. */
export async function startKeystoneSwift(swift: SwiftServers): Promise<KeystoneSwift> {
  const root = mkdtempSync(join(tmpdir(), "edge-convert-keystone-"));
  const procs: Proc[] = [];
  const stop = async () => {
    await Promise.all(procs.map((p) => p.stop()));
    rmSync(root, { recursive: true, force: true });
  };
  try {
    for (const d of ["fernet-keys", "credential-keys"]) mkdirSync(join(root, d));
    const conf = join(root, "keystone.conf");
    writeFileSync(
      conf,
      `[DEFAULT]\nlog_dir = ${root}\n[database]\nconnection = sqlite:///${root}/keystone.db\n[token]\nprovider = fernet\n` +
        `[fernet_tokens]\nkey_repository = ${root}/fernet-keys\n[fernet_receipts]\nkey_repository = ${root}/fernet-keys\n` +
        `[credential]\nkey_repository = ${root}/credential-keys\n[cache]\nenabled = false\n`,
    );
    const kPort = await freePort();
    const authUrl = `http://127.0.0.1:${kPort}`;
    await manage(conf, ["db_sync"]);
    await manage(conf, ["fernet_setup", "--keystone-user", "root", "--keystone-group", "root"]);
    await manage(conf, ["credential_setup", "--keystone-user", "root", "--keystone-group", "root"]);
    await manage(conf, [
      "bootstrap",
      "--bootstrap-password",
      ADMIN_PASSWORD,
      "--bootstrap-admin-url",
      `${authUrl}/v3/`,
      "--bootstrap-public-url",
      `${authUrl}/v3/`,
      "--bootstrap-internal-url",
      `${authUrl}/v3/`,
      "--bootstrap-region-id",
      "RegionOne",
    ]);
    // the object-store service and its one public endpoint go straight into the database before Keystone starts:
    // inserting an endpoint through the wsgiref server fails now and then with SQLite's "database is locked" (§4.3)
    const sPort = await freePort();
    const sql = spawnSync(
      "/usr/bin/python3",
      [
        "-c",
        "import sqlite3,sys,uuid,json\n" +
          "db=sqlite3.connect(sys.argv[1]); s=uuid.uuid4().hex\n" +
          "db.execute(\"insert into service(id,type,enabled,extra) values(?,'object-store',1,?)\",(s,json.dumps({'name':'swift'})))\n" +
          "db.execute(\"insert into endpoint(id,legacy_endpoint_id,interface,service_id,url,extra,enabled,region_id) values(?,NULL,'public',?,?,'{}',1,'RegionOne')\",(uuid.uuid4().hex,s,sys.argv[2]))\n" +
          "db.commit()",
        join(root, "keystone.db"),
        `http://127.0.0.1:${sPort}/v1/AUTH_$(project_id)s`,
      ],
      { encoding: "utf8" },
    );
    if (sql.status !== 0) throw new Error(`object-store endpoint: ${sql.stderr}`);
    procs.push(
      startProc("keystone", "/usr/bin/keystone-wsgi-public", [
        "--host",
        "127.0.0.1",
        "--port",
        String(kPort),
        "--",
        "--config-file",
        conf,
      ]),
    );
    await until(async () => (await fetch(`${authUrl}/v3`)).ok, 60_000, procs, "keystone");
    const admin = (await keystoneLogin(authUrl, "admin", ADMIN_PASSWORD, "admin")).token;
    const project = (
      await api<{ project: { id: string } }>(
        authUrl,
        "POST",
        "/projects",
        { project: { name: "ccproject", domain_id: "default" } },
        admin,
      )
    ).json.project.id;
    const user = (
      await api<{ user: { id: string } }>(
        authUrl,
        "POST",
        "/users",
        { user: { name: "ccuser", password: "ccpass", domain_id: "default", default_project_id: project } },
        admin,
      )
    ).json.user.id;
    const role = (await api<{ roles: { id: string }[] }>(authUrl, "GET", "/roles?name=member", undefined, admin)).json
      .roles[0]!.id;
    await api(authUrl, "PUT", `/projects/${project}/users/${user}/roles/${role}`, undefined, admin);
    const proxyConf = join(swift.etc, `proxy-keystone-${sPort}.conf`);
    const filters = commonFilters(swift.memcached);
    writeFileSync(
      proxyConf,
      Object.entries({
        DEFAULT: { bind_ip: "127.0.0.1", bind_port: sPort, swift_dir: swift.etc, workers: 0, user: "swift" },
        "pipeline:main": {
          pipeline:
            "catch_errors gatekeeper healthcheck proxy-logging cache listing_formats authtoken keystoneauth copy slo dlo proxy-logging proxy-server",
        },
        "app:proxy-server": { use: "egg:swift#proxy", account_autocreate: "true" },
        "filter:authtoken": {
          "paste.filter_factory": "keystonemiddleware.auth_token:filter_factory",
          www_authenticate_uri: authUrl,
          auth_url: authUrl,
          auth_type: "password",
          username: "admin",
          password: ADMIN_PASSWORD,
          project_name: "admin",
          user_domain_id: "default",
          project_domain_id: "default",
          delay_auth_decision: "True",
          memcached_servers: swift.memcached,
        },
        "filter:keystoneauth": { use: "egg:swift#keystoneauth", operator_roles: "admin, member" },
        ...filters,
      })
        .map(
          ([n, kv]) =>
            `[${n}]\n${Object.entries(kv)
              .map(([k, v]) => `${k} = ${v}`)
              .join("\n")}\n`,
        )
        .join("\n"),
    );
    await startProxy(proxyConf, sPort, procs);
    return { authUrl, username: "ccuser", password: "ccpass", project: "ccproject", region: "RegionOne", stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
