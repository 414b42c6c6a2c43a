/**
 * The regular members of a Unix ar archive (a .deb is one), read from its headers (issue 44: 7-Zip's ar handler hides
 * a .deb's `debian-binary` member, so deb → zip lost it). Format: the global header "!<arch>\n", then per member a
 * 60-byte header — name (16), mtime (12), uid (6), gid (6), mode (8), size (10, decimal), "`\n" — and its data, padded
 * to an even offset. GNU ar ends short names with "/" and keeps long ones in the "//" table ("/<offset>"); BSD ar
 * writes "#1/<length>" and puts the name before the data. Source: FreeBSD ar(5), GNU binutils bfd/archive.c.
 */

const MAGIC = "!<arch>\n";

/** Whether `data` starts with the ar global header. */
export function isAr(data: Uint8Array): boolean {
  return data.length >= 8 && new TextDecoder("latin1").decode(data.subarray(0, 8)) === MAGIC;
}

/**
 * The regular members of the ar archive `data`, in order (the GNU symbol and name tables left out): name and a view of
 * their bytes. Stops at the first malformed header (what came before it is returned). [] when `data` is not ar.
 */
export function arMembers(data: Uint8Array): { name: string; data: Uint8Array }[] {
  if (!isAr(data)) return [];
  const text = (a: number, b: number) => new TextDecoder("latin1").decode(data.subarray(a, b));
  const out: { name: string; data: Uint8Array }[] = [];
  let longNames = "";
  for (let at = 8; at + 60 <= data.length;) {
    if (text(at + 58, at + 60) !== "`\n") break;
    const rawName = text(at, at + 16).trimEnd();
    const size = Number(text(at + 48, at + 58).trim());
    if (!Number.isSafeInteger(size) || size < 0 || at + 60 + size > data.length) break;
    let start = at + 60;
    let length = size;
    let name = rawName;
    const bsd = /^#1\/(\d+)$/.exec(rawName);
    if (bsd) {
      const n = Number(bsd[1]);
      if (n > length) break;
      name = new TextDecoder().decode(data.subarray(start, start + n)).replace(/\0+$/, "");
      start += n;
      length -= n;
    } else if (rawName === "//") {
      longNames = text(start, start + length);
      name = "";
    } else if (rawName === "/" || rawName === "/SYM64/") {
      name = ""; // the symbol table
    } else if (/^\/\d+$/.test(rawName)) {
      const off = Number(rawName.slice(1));
      const end = longNames.indexOf("/\n", off);
      name = end > off ? longNames.slice(off, end) : "";
    } else if (name.endsWith("/")) {
      name = name.slice(0, -1);
    }
    if (name && !name.includes("/") && name !== "." && name !== "..")
      out.push({ name, data: data.subarray(start, start + length) });
    at += 60 + size + (size % 2);
  }
  return out;
}
