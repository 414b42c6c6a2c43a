/**
 * Account webhooks (contract §1.6): `{url, events}` subscriptions with a signing secret each.
 */
import { isoTime } from "../../src/model/types";
import type { Db } from "../../src/storage/sql";
import type { WebhookEvent } from "../../src/model/rpc";

export const WEBHOOK_SCHEMA = `
CREATE TABLE IF NOT EXISTS webhooks (id TEXT PRIMARY KEY, url TEXT NOT NULL, events TEXT NOT NULL, signing_secret TEXT NOT NULL,
  disabled INTEGER NOT NULL DEFAULT 0, failing INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, webhook_id TEXT, url TEXT NOT NULL, secret TEXT NOT NULL,
  body TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL);
`;

interface WebhookRow {
  id: string;
  url: string;
  events: string;
  signing_secret: string;
  disabled: number;
  failing: number;
  created_at: number;
  updated_at: number;
}

/** The Webhook object (contract §1.6). */
export interface WebhookJson {
  id: string;
  url: string;
  events: WebhookEvent[];
  disabled: boolean;
  failing: boolean;
  signing_secret: string;
  created_at: string;
  updated_at: string;
  links: { self: string };
}

export class Webhooks {
  constructor(private db: Db) {}

  create(url: string, events: WebhookEvent[], baseUrl: string): WebhookJson {
    const now = Date.now();
    const id = crypto.randomUUID();
    const secret = [...crypto.getRandomValues(new Uint8Array(20))].map((b) => b.toString(16).padStart(2, "0")).join("");
    this.db.run(
      "INSERT INTO webhooks VALUES (?, ?, ?, ?, 0, 0, ?, ?)",
      id,
      url,
      JSON.stringify(events),
      secret,
      now,
      now,
    );
    return this.json(this.db.one<WebhookRow>("SELECT * FROM webhooks WHERE id = ?", id)!, baseUrl);
  }

  list(filterUrl: string | undefined, baseUrl: string): WebhookJson[] {
    const rows = filterUrl
      ? this.db.all<WebhookRow>("SELECT * FROM webhooks WHERE url = ? ORDER BY created_at", filterUrl)
      : this.db.all<WebhookRow>("SELECT * FROM webhooks ORDER BY created_at");
    return rows.map((r) => this.json(r, baseUrl));
  }

  delete(id: string): boolean {
    const found = this.db.one("SELECT 1 AS x FROM webhooks WHERE id = ?", id) !== null;
    this.db.run("DELETE FROM webhooks WHERE id = ?", id);
    this.db.run("DELETE FROM outbox WHERE webhook_id = ?", id);
    return found;
  }

  /** Enabled webhooks subscribed to `event`. */
  subscribed(event: WebhookEvent): WebhookRow[] {
    return this.db
      .all<WebhookRow>("SELECT * FROM webhooks WHERE disabled = 0")
      .filter((r) => (JSON.parse(r.events) as string[]).includes(event));
  }

  /** 410 Gone disables a webhook (contract §4). */
  disable(id: string): void {
    this.db.run("UPDATE webhooks SET disabled = 1, updated_at = ? WHERE id = ?", Date.now(), id);
  }

  markFailing(id: string): void {
    this.db.run("UPDATE webhooks SET failing = 1, updated_at = ? WHERE id = ?", Date.now(), id);
  }

  private json(r: WebhookRow, baseUrl: string): WebhookJson {
    return {
      id: r.id,
      url: r.url,
      events: JSON.parse(r.events),
      disabled: r.disabled === 1,
      failing: r.failing === 1,
      signing_secret: r.signing_secret,
      created_at: isoTime(r.created_at)!,
      updated_at: isoTime(r.updated_at)!,
      links: { self: `${baseUrl}/v2/webhooks/${r.id}` },
    };
  }
}
