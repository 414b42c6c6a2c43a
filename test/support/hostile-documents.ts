/**
 * Small documents the hostile sweeps build in the test rather than keep as fixtures (a probe, not a proof of a format):
 * zips whose members are given (or repeated, for a bomb) and EPUB books around one chapter. Used by
 * test/native/native-hostile-books.test.ts and test/native/egress-sweep.test.ts.
 */
import { crc32, deflateRawSync } from "node:zlib";

const utf8 = (s: string) => new TextEncoder().encode(s);

/** A zip (stored or deflated members) built here, so a bomb needs no tool: [name, bytes, deflate?][]. */
export function zip(
  members: [string, Uint8Array, boolean?][],
  repeat: { data: Uint8Array; size: number; crc: number; name: (i: number) => string; count: number } | null = null,
): Uint8Array {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const add = (name: string, stored: Uint8Array, method: number, size: number, crc: number) => {
    const n = Buffer.from(name);
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(method, 8);
    h.writeUInt32LE(crc >>> 0, 14);
    h.writeUInt32LE(stored.length, 18);
    h.writeUInt32LE(size, 22);
    h.writeUInt16LE(n.length, 26);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(method, 10);
    c.writeUInt32LE(crc >>> 0, 16);
    c.writeUInt32LE(stored.length, 20);
    c.writeUInt32LE(size, 24);
    c.writeUInt16LE(n.length, 28);
    c.writeUInt32LE(offset, 42);
    locals.push(h, n, Buffer.from(stored));
    central.push(c, n);
    offset += 30 + n.length + stored.length;
  };
  for (const [name, data, deflate] of members)
    deflate
      ? add(name, deflateRawSync(data), 8, data.length, crc32(data))
      : add(name, data, 0, data.length, crc32(data));
  if (repeat) for (let i = 0; i < repeat.count; i++) add(repeat.name(i), repeat.data, 8, repeat.size, repeat.crc);
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length / 2, 8);
  end.writeUInt16LE(central.length / 2, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, cd, end]));
}

/** An EPUB 2 whose one chapter is `xhtml` (and whose manifest may name `extraItems`). */
export function epub(xhtml: string, extraItems = ""): Uint8Array {
  const opf = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Hostile</dc:title><dc:identifier id="id">h</dc:identifier><dc:language>en</dc:language></metadata><manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/>${extraItems}</manifest><spine><itemref idref="c"/></spine></package>`;
  return zip([
    ["mimetype", utf8("application/epub+zip")],
    [
      "META-INF/container.xml",
      utf8(
        '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
      ),
      true,
    ],
    ["OEBPS/content.opf", utf8(opf), true],
    ["OEBPS/c.xhtml", utf8(xhtml), true],
  ]);
}
