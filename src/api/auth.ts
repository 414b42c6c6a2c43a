/**
 * Bearer authentication against API_KEYS ("key:username,key2:username2"; contract §0; parsed by
 * security/keys.ts). There is no default key: without API_KEYS every authenticated route answers 401.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import { unauthenticated } from "./errors";
import { parseKeys } from "../security/keys";

/** Middleware: sets `user` or answers 401 `{"message":"Unauthenticated."}`. */
export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const m = /^Bearer\s+(.+)$/i.exec(c.req.header("authorization") ?? "");
  const user = m ? parseKeys(c.env.API_KEYS).get(m[1].trim()) : undefined;
  if (!user) throw unauthenticated();
  c.set("user", user);
  await next();
};
