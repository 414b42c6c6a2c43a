/**
 * Hardened LibreOffice user profiles for the office pool: one fresh directory per soffice process,
 * holding only `user/registrymodifications.xcu` (LibreOffice fills in the rest on first start).
 *
 * The settings keep a converted document from reaching anything outside itself — no macros, no
 * link or field updates, no referer-less external links, and every network protocol sent to a
 * closed local port — and keep a restarted process from attempting document recovery or showing
 * first-start UI. Values were checked against the schema of LibreOffice 7.4 (share/registry/main.xcd);
 * settings a given version does not know are ignored by LibreOffice.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** One configuration value: the node path, the property name, its xs type and value. */
export interface ProfileSetting {
  path: string;
  name: string;
  type: "boolean" | "int" | "string";
  value: boolean | number | string;
}

/** The closed port every proxied protocol is sent to (discard service; nothing listens here). */
const DEAD_PROXY_HOST = "127.0.0.1";
const DEAD_PROXY_PORT = 9;

/**
 * The hardening applied to every profile, in `registrymodifications.xcu` terms.
 * Numeric codes: Writer Content/Update/Link 0 = never (sw UpdateLinks NEVER); Calc Content/Update/Link
 * 1 = never (sc ScLkUpdMode LM_NEVER); Inet ooInetProxyType 1 = manual proxy; MacroSecurityLevel 3 = very high
 * (only signed macros from trusted locations, and DisableMacrosExecution turns even those off).
 */
export const HARDENING: readonly ProfileSetting[] = [
  // Macros: never run, at any security level.
  { path: "/org.openoffice.Office.Common/Security/Scripting", name: "MacroSecurityLevel", type: "int", value: 3 },
  {
    path: "/org.openoffice.Office.Common/Security/Scripting",
    name: "DisableMacrosExecution",
    type: "boolean",
    value: true,
  },
  // Links from an untrusted document (any document not in a trusted location) are not followed.
  {
    path: "/org.openoffice.Office.Common/Security/Scripting",
    name: "BlockUntrustedRefererLinks",
    type: "boolean",
    value: true,
  },
  // Newer LibreOffice (not 7.4): no OLE/DDE/active content. Ignored by versions that lack it.
  {
    path: "/org.openoffice.Office.Common/Security/Scripting",
    name: "DisableActiveContent",
    type: "boolean",
    value: true,
  },
  // Writer and Calc: never update links or (Writer) fields on load.
  { path: "/org.openoffice.Office.Writer/Content/Update", name: "Link", type: "int", value: 0 },
  { path: "/org.openoffice.Office.Writer/Content/Update", name: "Field", type: "boolean", value: false },
  { path: "/org.openoffice.Office.Calc/Content/Update", name: "Link", type: "int", value: 1 },
  // Second guard against outbound fetches: every protocol goes through a proxy on a closed local port.
  { path: "/org.openoffice.Inet/Settings", name: "ooInetProxyType", type: "int", value: 1 },
  { path: "/org.openoffice.Inet/Settings", name: "ooInetHTTPProxyName", type: "string", value: DEAD_PROXY_HOST },
  { path: "/org.openoffice.Inet/Settings", name: "ooInetHTTPProxyPort", type: "int", value: DEAD_PROXY_PORT },
  { path: "/org.openoffice.Inet/Settings", name: "ooInetHTTPSProxyName", type: "string", value: DEAD_PROXY_HOST },
  { path: "/org.openoffice.Inet/Settings", name: "ooInetHTTPSProxyPort", type: "int", value: DEAD_PROXY_PORT },
  { path: "/org.openoffice.Inet/Settings", name: "ooInetFTPProxyName", type: "string", value: DEAD_PROXY_HOST },
  { path: "/org.openoffice.Inet/Settings", name: "ooInetFTPProxyPort", type: "int", value: DEAD_PROXY_PORT },
  { path: "/org.openoffice.Inet/Settings", name: "ooInetNoProxy", type: "string", value: "" },
  // No recovery, autosave, first-start or update UI: a restarted process starts clean.
  { path: "/org.openoffice.Office.Recovery/AutoSave", name: "Enabled", type: "boolean", value: false },
  { path: "/org.openoffice.Office.Recovery/RecoveryInfo", name: "Enabled", type: "boolean", value: false },
  { path: "/org.openoffice.Office.Common/Misc", name: "FirstRun", type: "boolean", value: false },
  { path: "/org.openoffice.Office.Common/Misc", name: "ShowTipOfTheDay", type: "boolean", value: false },
  { path: "/org.openoffice.Setup/Office", name: "ooSetupInstCompleted", type: "boolean", value: true },
  { path: "/org.openoffice.Office.Update/Update", name: "Enabled", type: "boolean", value: false },
  { path: "/org.openoffice.Office.Common/Load", name: "ShowOfficeUpdateDialog", type: "boolean", value: false },
  // No .~lock files written beside the input.
  { path: "/org.openoffice.Office.Common/Misc", name: "UseLocking", type: "boolean", value: false },
];

const escapeXml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The text of a `registrymodifications.xcu` holding `settings` (defaults to HARDENING). */
export function registryModifications(settings: readonly ProfileSetting[] = HARDENING): string {
  const items = settings.map((s) => {
    const value = typeof s.value === "boolean" ? (s.value ? "true" : "false") : escapeXml(String(s.value));
    return (
      `<item oor:path="${escapeXml(s.path)}"><prop oor:name="${escapeXml(s.name)}" oor:op="fuse">` +
      `<value>${value}</value></prop></item>`
    );
  });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n' +
    items.join("\n") +
    "\n</oor:items>\n"
  );
}

/**
 * Creates (or empties and recreates) `dir` as a fresh LibreOffice user profile with the hardening
 * above, and returns the `file://` URL to pass as `-env:UserInstallation=<url>`.
 * Throws the underlying fs error when the directory cannot be written.
 */
export function writeProfile(dir: string): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "user"), { recursive: true });
  writeFileSync(join(dir, "user", "registrymodifications.xcu"), registryModifications());
  return pathToFileURL(dir).href;
}
