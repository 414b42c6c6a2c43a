/**
 * The official `cloudconvert` SDK (v3), unchanged but for its base URL: `callWithBase` is
 * overridden on the instance to send api and sync hosts to the local server (contract §5.1).
 */
import CloudConvert from "cloudconvert";

export function sdk(apiKey: string, base: string): CloudConvert {
  const cc = new CloudConvert(apiKey);
  const orig = cc.callWithBase.bind(cc);
  const re = /^https:\/\/(?:(?!sync\.)[a-z0-9-]+\.)?(sync\.)?api(?:\.sandbox)?\.cloudconvert\.com\/v2\//;
  (cc as unknown as { callWithBase: typeof orig }).callWithBase = (b: string, ...rest: Parameters<typeof orig> extends [string, ...infer R] ? R : never) =>
    orig(b.replace(re, (_: string, s?: string) => `${base}/${s ? "sync/" : ""}v2/`), ...rest);
  return cc;
}
