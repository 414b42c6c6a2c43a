/**
 * Bearer authentication against API_KEYS ("key:username,key2:username2"; contract §0). There is no
 * default key: without API_KEYS every authenticated route answers 401.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import { unauthenticated } from "./errors";

/** The caller: a username (names the AccountDO) and the integer id shown as `id`/`user_id` (contract §1.5). */
export interface User {
  name: string;
  num: number;
}

const cache = new Map<string, Map<string, User>>();

/** Parses API_KEYS; user ids are stable per username (FNV-1a of the name, 31 bits). */
export function parseKeys(spec: string | undefined): Map<string, User> {
  const hit = cache.get(spec ?? "");
  if (hit) return hit;
  const map = new Map<string, User>();
  for (const pair of (spec ?? "").split(",")) {
    const i = pair.lastIndexOf(":");
    if (i <= 0) continue;
    const key = pair.slice(0, i).trim();
    const name = pair.slice(i + 1).trim();
    if (key && /^[A-Za-z0-9_.@-]{1,64}$/.test(name)) map.set(key, { name, num: userNum(name) });
  }
  cache.set(spec ?? "", map);
  return map;
}

/** The user named `name` (signed URLs run jobs as their base's owner). */
export const userNamed = (name: string): User => ({ name, num: userNum(name) });

function userNum(name: string): number {
  let h = 0x811c9dc5;
  for (const ch of new TextEncoder().encode(name)) h = Math.imul(h ^ ch, 0x01000193) >>> 0;
  return (h & 0x7fffffff) || 1;
}

/** Middleware: sets `user` or answers 401 `{"message":"Unauthenticated."}`. */
export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const m = /^Bearer\s+(.+)$/i.exec(c.req.header("authorization") ?? "");
  const user = m ? parseKeys(c.env.API_KEYS).get(m[1].trim()) : undefined;
  if (!user) throw unauthenticated();
  c.set("user", user);
  await next();
};
