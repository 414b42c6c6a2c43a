/**
 * OpenSSH's sshd (Debian openssh-server) on 127.0.0.1 for the SFTP tests (issue 35;
 * storage-connectors.md §4.5), started and stopped here: its own sshd_config, host key and
 * authorized_keys in a temporary folder, a free high port, `sshd -D -e -f config`, and a throw-away
 * system user (useradd + chpasswd, removed by stop()) that logs in with a password or a key and is
 * held to `internal-sftp -d <root>` (ChrootDirectory is impossible under /tmp).
 *
 * sshd must run as root for password logins (it reads /etc/shadow) — CI (.ci/run) runs as root on a
 * fresh Debian 12; without root this throws rather than skipping. The oracle is OpenSSH's own `sftp`
 * client in batch mode with the key (not this project's ssh2 code), plus the files on disk.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { freePort, startProc, until } from "./proc";

export interface Sshd {
  host: string;
  port: number;
  username: string;
  password: string;
  /** OpenSSH-format ed25519 private key (authorized). */
  ed25519Key: string;
  /** PEM ("BEGIN RSA PRIVATE KEY") RSA private key (authorized). */
  rsaPemKey: string;
  /** The user's login directory on disk: SFTP paths relative to it, or absolute (`root` + "/x"). */
  root: string;
  /** The sftp user's uid and gid (to seed files the user owns). */
  uid: number;
  gid: number;
  /** Writes `bytes` at `path` under root through OpenSSH's sftp client (creating its directories). */
  put(path: string, bytes: Uint8Array): void;
  /** Reads `path` under root through OpenSSH's sftp client; null when it does not exist. */
  get(path: string): Uint8Array | null;
  stop(): Promise<void>;
}

/** Starts sshd and creates its user; everything is undone by stop() (also when the start fails). */
export async function startSshd(): Promise<Sshd> {
  if (process.getuid?.() !== 0)
    throw new Error("the SFTP tests start sshd with a throw-away user and need root (CI runs .ci/run as root)");
  const dir = mkdtempSync(join(tmpdir(), "edge-convert-sshd-"));
  chmodSync(dir, 0o755); // the user's session must reach root/ and read authorized_keys
  const username = `ecsftp${randomBytes(4).toString("hex")}`;
  const password = `pw-${randomBytes(9).toString("base64url")}`;
  const root = join(dir, "root");
  const port = await freePort();
  let created = false;
  let proc: ReturnType<typeof startProc> | undefined;
  const stop = async () => {
    await proc?.stop();
    if (created) await removeUser(username);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    mkdirSync(root);
    mkdirSync("/run/sshd", { recursive: true }); // sshd's privilege-separation directory
    const keygen = (file: string, ...args: string[]) =>
      execFileSync("ssh-keygen", ["-q", "-N", "", "-C", "", "-f", join(dir, file), ...args], { stdio: "ignore" });
    keygen("hostkey", "-t", "ed25519");
    keygen("client_ed25519", "-t", "ed25519");
    keygen("client_rsa", "-t", "rsa", "-b", "3072", "-m", "PEM");
    writeFileSync(
      join(dir, "authorized_keys"),
      readFileSync(join(dir, "client_ed25519.pub"), "utf8") + readFileSync(join(dir, "client_rsa.pub"), "utf8"),
      { mode: 0o644 },
    );
    execFileSync("useradd", ["--no-create-home", "--home-dir", root, "--shell", "/usr/sbin/nologin", username]);
    created = true;
    execFileSync("chpasswd", { input: `${username}:${password}\n` });
    const uid = Number(execFileSync("id", ["-u", username], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", username], { encoding: "utf8" }).trim());
    chownSync(root, uid, gid);
    const config = join(dir, "sshd_config");
    writeFileSync(
      config,
      [
        `Port ${port}`,
        "ListenAddress 127.0.0.1",
        `HostKey ${join(dir, "hostkey")}`,
        `PidFile ${join(dir, "sshd.pid")}`,
        `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
        "PasswordAuthentication yes",
        "KbdInteractiveAuthentication no",
        "UsePAM no",
        "PermitRootLogin no",
        `AllowUsers ${username}`,
        "StrictModes no",
        "MaxStartups 50",
        "Subsystem sftp internal-sftp",
        `Match User ${username}`,
        `  ForceCommand internal-sftp -d ${root}`,
        "  AllowTcpForwarding no",
        "  X11Forwarding no",
        "",
      ].join("\n"),
    );
    execFileSync("/usr/sbin/sshd", ["-t", "-f", config]);
    proc = startProc("sshd", "/usr/sbin/sshd", ["-D", "-e", "-f", config]);
    await until(
      () =>
        new Promise<boolean>((resolve) => {
          const s = createConnection({ host: "127.0.0.1", port }, () => {
            s.once("data", (d) => (s.destroy(), resolve(String(d).startsWith("SSH-2.0-"))));
          });
          s.once("error", () => resolve(false));
        }),
      30_000,
      [proc],
      "sshd",
    );
    const keyFile = join(dir, "client_ed25519");
    const sftpBatch = (batch: string) =>
      execFileSync(
        "sftp",
        [
          "-q",
          "-b",
          "-",
          "-i",
          keyFile,
          "-P",
          String(port),
          "-o",
          "StrictHostKeyChecking=no",
          "-o",
          "UserKnownHostsFile=/dev/null",
          "-o",
          "BatchMode=yes",
          "-o",
          "LogLevel=ERROR",
          `${username}@127.0.0.1`,
        ],
        { input: batch, stdio: ["pipe", "pipe", "pipe"], encoding: "utf8" },
      );
    const quote = (p: string) => `"${p.replace(/(["\\])/g, "\\$1")}"`;
    return {
      host: "127.0.0.1",
      port,
      username,
      password,
      ed25519Key: readFileSync(keyFile, "utf8"),
      rsaPemKey: readFileSync(join(dir, "client_rsa"), "utf8"),
      root,
      uid,
      gid,
      put(path, bytes) {
        const local = join(dir, `put-${randomBytes(6).toString("hex")}`);
        writeFileSync(local, bytes);
        const parts = path.split("/").slice(0, -1);
        const mk = parts.map((_, i) => `-mkdir ${quote(parts.slice(0, i + 1).join("/"))}`).join("\n");
        try {
          sftpBatch(`${mk}\nput ${quote(local)} ${quote(path)}\n`);
        } finally {
          rmSync(local, { force: true });
        }
      },
      get(path) {
        const local = join(dir, `get-${randomBytes(6).toString("hex")}`);
        try {
          sftpBatch(`get ${quote(path)} ${quote(local)}\n`);
          return new Uint8Array(readFileSync(local));
        } catch {
          return null;
        } finally {
          rmSync(local, { force: true });
        }
      },
      stop,
    };
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
}

/**
 * Removes the throw-away user. sshd's per-connection processes (running as the user) can outlive the listener by a moment,
 * and `userdel` then exits 8 ("user is currently used by process"): CI failed on that once (stop 53). So the user's
 * processes are killed first, userdel is retried for up to 5 s, and `userdel -f` is the last resort; a user left behind is
 * reported on stderr, never a failed suite (the tests' own assertions have already run).
 */
async function removeUser(username: string): Promise<void> {
  const run = (cmd: string, args: string[]) => {
    try {
      execFileSync(cmd, args, { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 25; i++) {
    run("pkill", ["-KILL", "-u", username]);
    if (run("userdel", [username])) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  if (!run("userdel", ["-f", username])) console.error(`sshd: could not remove the test user ${username}`);
}
