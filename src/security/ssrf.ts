/**
 * SSRF guard for import/url (issue 2): refuses non-http(s) schemes, loopback, private, link-local,
 * carrier-grade NAT, cloud metadata, multicast/reserved and IPv4-mapped/NAT64 IPv6 addresses,
 * and internal host names. Gotenberg's SSRF advisories (GHSA-…: redirects into private ranges,
 * decimal/octal IPv4 spellings, IPv6-mapped IPv4) are the list this covers; the WHATWG URL parser
 * already normalises decimal, octal and hex IPv4 spellings to dotted quads.
 *
 * Limit: a Worker cannot resolve DNS before fetching, so a public name that resolves to a private
 * address is not caught here; on Cloudflare's network Worker subrequests cannot reach private
 * networks, and under `wrangler dev` this is the operator's own machine.
 */
import ipaddr from "ipaddr.js";

const INTERNAL_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|corp)$/i;
const METADATA_NAMES = new Set(["metadata", "metadata.google.internal", "instance-data", "metadata.azure.com"]);

/** Why a URL was refused, or null when it may be fetched. `allowLoopback` is ALLOW_PRIVATE_IMPORTS (development only). */
export function refuseUrl(raw: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "url is not a valid absolute URL.";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `url scheme ${url.protocol} is not allowed; use http or https.`;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (ipaddr.isValid(host)) {
    const addr = ipaddr.process(host); // unwraps IPv4-mapped IPv6
    const range = addr.range();
    if (range === "unicast") return nat64Check(addr);
    if (range === "loopback" && allowLoopback) return null;
    return `url points to a ${range} address (${host}), which imports may not reach.`;
  }
  if (host === "localhost" || host.endsWith(".localhost"))
    return allowLoopback ? null : "url points to localhost, which imports may not reach.";
  if (METADATA_NAMES.has(host) || INTERNAL_NAMES.test(host))
    return `url points to an internal host name (${host}), which imports may not reach.`;
  if (!host.includes(".")) return `url host "${host}" is not a public domain name.`;
  return null;
}

/** NAT64 (64:ff9b::/96) and 6to4 (2002::/16) embed an IPv4 address; check the embedded one. */
function nat64Check(addr: ipaddr.IPv4 | ipaddr.IPv6): string | null {
  if (addr.kind() !== "ipv6") return null;
  const v6 = addr as ipaddr.IPv6;
  const p = v6.parts;
  let embedded: ipaddr.IPv4 | null = null;
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((x) => x === 0))
    embedded = ipaddr.IPv4.parse(`${p[6] >> 8}.${p[6] & 255}.${p[7] >> 8}.${p[7] & 255}`);
  if (p[0] === 0x2002) embedded = ipaddr.IPv4.parse(`${p[1] >> 8}.${p[1] & 255}.${p[2] >> 8}.${p[2] & 255}`);
  if (embedded && embedded.range() !== "unicast")
    return `url embeds a ${embedded.range()} IPv4 address, which imports may not reach.`;
  return null;
}
