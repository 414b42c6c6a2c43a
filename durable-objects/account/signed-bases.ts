/**
 * Signed-URL bases of one account (issue 18; contract §1.7): each has an id (the `{base}` of
 * `/s/{base}`) and its own signing secret; `cache_key` results are remembered 24 h per base.
 */
import { isoTime } from "../../src/model/types";
import type { Db } from "../../src/storage/sql";

export const SIGNED_SCHEMA = `
CREATE TABLE IF NOT EXISTS signed_bases (id TEXT PRIMARY KEY, signing_secret TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS signed_cache (base TEXT NOT NULL, cache_key TEXT NOT NULL, job_id TEXT NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (base, cache_key));
`;

/** How long a `cache_key` result is reused, in ms (contract §1.7: 24 h). */
export const SIGNED_CACHE_MS = 24 * 3600 * 1000;

/** The signed-URL base as the API shows it. */
export interface SignedBaseJson {
  id: string;
  /** What to pass to the SDK's `signedUrls.sign` as `base`. */
  url: string;
  signing_secret: string;
  created_at: string;
  links: { self: string };
}

interface Row {
  id: string;
  signing_secret: string;
  created_at: number;
}

export class SignedBases {
  constructor(private db: Db) {}

  create(id: string, now: number, origin: string): SignedBaseJson {
    const secret = [...crypto.getRandomValues(new Uint8Array(24))].map((b) => b.toString(16).padStart(2, "0")).join("");
    this.db.run("INSERT INTO signed_bases VALUES (?, ?, ?)", id, secret, now);
    return this.json({ id, signing_secret: secret, created_at: now }, origin);
  }

  list(origin: string): SignedBaseJson[] {
    return this.db.all<Row>("SELECT * FROM signed_bases ORDER BY created_at DESC, id").map((r) => this.json(r, origin));
  }

  delete(id: string): boolean {
    const found = this.secret(id) !== null;
    this.db.run("DELETE FROM signed_cache WHERE base = ?", id);
    this.db.run("DELETE FROM signed_bases WHERE id = ?", id);
    return found;
  }

  secret(id: string): string | null {
    return (
      this.db.one<{ signing_secret: string }>("SELECT signing_secret FROM signed_bases WHERE id = ?", id)
        ?.signing_secret ?? null
    );
  }

  /** The job of a `cache_key` run less than 24 h ago, or null. */
  cached(base: string, key: string, now: number): string | null {
    this.db.run("DELETE FROM signed_cache WHERE expires_at <= ?", now);
    return (
      this.db.one<{ job_id: string }>("SELECT job_id FROM signed_cache WHERE base = ? AND cache_key = ?", base, key)
        ?.job_id ?? null
    );
  }

  remember(base: string, key: string, jobId: string, now: number): void {
    this.db.run("INSERT OR REPLACE INTO signed_cache VALUES (?, ?, ?, ?)", base, key, jobId, now + SIGNED_CACHE_MS);
  }

  private json(r: Row, origin: string): SignedBaseJson {
    return {
      id: r.id,
      url: `${origin}/s/${r.id}`,
      signing_secret: r.signing_secret,
      created_at: isoTime(r.created_at)!,
      links: { self: `${origin}/v2/signed-url-bases/${r.id}` },
    };
  }
}
