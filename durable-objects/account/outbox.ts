/**
 * The persisted webhook outbox (contract §4): every call is a row first, delivered by the alarm,
 * signed with `CloudConvert-Signature` (hex HMAC-SHA256 of the raw body), retried 3 times with
 * back-off on network errors and 5xx/other failures; 410 Gone disables an account webhook.
 */
import { hmacHex } from "../../src/security/signing";
import { refuseUrl } from "../../src/security/ssrf";
import type { Db } from "../../src/storage/sql";

/** Delay before retry n (1-based), in ms. */
const BACKOFF_MS = [2_000, 15_000, 60_000];
/** Per-call time limit, in ms. */
const CALL_TIMEOUT_MS = 10_000;

interface OutboxRow {
  id: number;
  webhook_id: string | null;
  url: string;
  secret: string;
  body: string;
  attempts: number;
}

export class Outbox {
  /** `clock`: the AccountDO's clock (unix ms), replaceable by tests. */
  constructor(
    private db: Db,
    private storage: DurableObjectStorage,
    private allowLoopback: boolean,
    private clock: () => number = Date.now,
  ) {}

  /** Persists one call per target and arms the alarm to deliver now. */
  async enqueue(targets: { webhookId: string | null; url: string; secret: string }[], body: string): Promise<void> {
    const now = this.clock();
    for (const t of targets)
      this.db.run(
        "INSERT INTO outbox (webhook_id, url, secret, body, next_at) VALUES (?, ?, ?, ?, ?)",
        t.webhookId,
        t.url,
        t.secret,
        body,
        now,
      );
    await this.storage.setAlarm(now);
  }

  /** Delivers every due call; re-arms the alarm for the next retry. */
  async deliverDue(disable: (webhookId: string) => void, markFailing: (webhookId: string) => void): Promise<void> {
    const now = this.clock();
    const due = this.db.all<OutboxRow>("SELECT * FROM outbox WHERE next_at <= ? ORDER BY id LIMIT 50", now);
    await Promise.all(
      due.map(async (row) => {
        const status = await this.deliver(row);
        if (status !== null && status >= 200 && status < 300)
          return this.db.run("DELETE FROM outbox WHERE id = ?", row.id);
        if (status === 410) {
          if (row.webhook_id) disable(row.webhook_id);
          return this.db.run("DELETE FROM outbox WHERE id = ?", row.id);
        }
        if (row.attempts >= BACKOFF_MS.length) {
          if (row.webhook_id) markFailing(row.webhook_id);
          return this.db.run("DELETE FROM outbox WHERE id = ?", row.id);
        }
        this.db.run(
          "UPDATE outbox SET attempts = attempts + 1, next_at = ? WHERE id = ?",
          now + BACKOFF_MS[row.attempts],
          row.id,
        );
      }),
    );
    const next = this.db.one<{ t: number | null }>("SELECT MIN(next_at) AS t FROM outbox");
    if (next?.t != null) await this.storage.setAlarm(Math.max(next.t, now + 1));
  }

  /** One POST; the HTTP status, or null on a network error or a refused address. */
  private async deliver(row: OutboxRow): Promise<number | null> {
    if (refuseUrl(row.url, this.allowLoopback)) return 410;
    try {
      const res = await fetch(row.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "cloudconvert-signature": await hmacHex(row.secret, row.body),
          "user-agent": "edge-convert-webhooks/1",
        },
        body: row.body,
        redirect: "manual",
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
      await res.body?.cancel();
      return res.status;
    } catch {
      return null;
    }
  }
}
