/**
 * API keys and the users they name (contract §0, §1.5): API_KEYS is "key:username,key2:username2";
 * each username names the user's AccountDO and gets a stable integer id. Shared by the HTTP
 * authentication (api/auth.ts) and the socket.io hubs, which check a key per subscription.
 */

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
  return h & 0x7fffffff || 1;
}
