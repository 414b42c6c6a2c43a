/**
 * Fixes for decryption bugs of @cantoo/pdf-lib 2.11 (PDFObjectParser + pdf.js's crypto), applied by
 * patching its parser prototype once, explicitly, from openPdf (never as an import side effect):
 *
 * 1. Cross-reference streams are decrypted although they never are encrypted (ISO 32000-1
 *    §7.5.8.2): their entries become garbage and /Info is lost, e.g. on re-opening pdf-lib's own
 *    AES-256 output. Fix: an /XRef stream is re-parsed without the cipher.
 * 2. The encryption dictionary's strings (/O /U /OE /UE /Perms) are "decrypted" too, and the
 *    object is kept as an orphan, written back with unescaped binary parentheses: qpdf --check
 *    fails on decrypted output. Fix: re-parsed without the cipher, remembered, and deleted from the
 *    decrypted document by {@link dropEncryptDict}.
 * 3. A decrypted literal string holds raw bytes but is written back as a literal without escaping,
 *    so a decrypted ")" or "\" corrupts the file. Fix: decrypted strings become hex strings.
 * 4. Streams are decrypted with the *string* crypt filter (CipherTransform.decryptBytes), a
 *    stream's own /Crypt filter is ignored and embedded files do not use /EFF (§7.6.5, §7.4.10):
 *    with "encrypt attachments only" (qpdf's encrypted-attachments test file) they stay ciphertext.
 *    Fix: when the right filter differs from /StrF, the stream is re-read and decrypted with it,
 *    and a /Crypt entry is removed from /Filter.
 */
import {
  PDFArray,
  type PDFContext,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFObjectParser,
  PDFRawStream,
  type PDFRef,
  PDFString,
  type PDFDocument,
} from "@cantoo/pdf-lib";

/** The parts of pdf.js's CipherTransformFactory (inside pdf-lib) these fixes use. */
interface CipherFactory {
  stmf: unknown;
  strf: unknown;
  eff: unknown;
  createCipherTransform(num: number, gen: number): { decryptBytes(data: Uint8Array): Uint8Array };
}

interface ParserInternals {
  cryptoFactory?: CipherFactory;
  context: PDFContext;
  bytes: { offset(): number; moveTo(offset: number): void };
  parseString(ref?: PDFRef): PDFString | PDFHexString;
  parseDictOrStream(ref?: PDFRef): PDFDict | PDFRawStream;
}

const encryptRefs = new WeakMap<PDFContext, PDFRef>();
let installed = false;

const NAME = {
  Type: PDFName.of("Type"),
  XRef: PDFName.of("XRef"),
  Filter: PDFName.of("Filter"),
  Crypt: PDFName.of("Crypt"),
};

/** Index of /Crypt in a stream's /Filter (name or array), or -1. */
function cryptFilterIndex(dict: PDFDict): number {
  const filter = dict.get(NAME.Filter);
  if (filter === NAME.Crypt) return 0;
  return filter instanceof PDFArray ? filter.asArray().indexOf(NAME.Crypt) : -1;
}

/** The crypt filter name a stream must be decrypted with (§7.6.5), or null when it is /StrF (pdf-lib's choice). */
function streamFilterName(dict: PDFDict, factory: CipherFactory): unknown {
  const at = cryptFilterIndex(dict);
  if (at >= 0) {
    const parms = dict.get(PDFName.of("DecodeParms"));
    const own = parms instanceof PDFArray ? parms.get(at) : parms;
    return own instanceof PDFDict ? (own.get(PDFName.of("Name")) ?? PDFName.of("Identity")) : PDFName.of("Identity");
  }
  const name = dict.get(NAME.Type) === PDFName.of("EmbeddedFile") ? factory.eff : factory.stmf;
  return name === factory.strf ? null : name;
}

/** Fix 4: decrypts `stream` (read without the cipher) with crypt filter `name`, dropping /Crypt. */
function decryptWith(stream: PDFRawStream, name: unknown, factory: CipherFactory, ref: PDFRef): PDFRawStream {
  const dict = stream.dict;
  const at = cryptFilterIndex(dict);
  if (at >= 0) {
    const filter = dict.get(NAME.Filter);
    const parms = dict.get(PDFName.of("DecodeParms"));
    if (filter instanceof PDFArray) filter.remove(at);
    else dict.delete(NAME.Filter);
    if (parms instanceof PDFArray) parms.remove(at);
    else dict.delete(PDFName.of("DecodeParms"));
  }
  const { stmf, strf } = factory;
  factory.stmf = factory.strf = name; // decryptBytes uses the string cipher: set both
  try {
    return PDFRawStream.of(
      dict,
      factory.createCipherTransform(ref.objectNumber, ref.generationNumber).decryptBytes(stream.contents),
    );
  } finally {
    factory.stmf = stmf;
    factory.strf = strf;
  }
}

function isEncryptDict(obj: PDFDict): boolean {
  return ["O", "U", "P", "Filter"].every((k) => obj.has(PDFName.of(k)));
}

function toHex(raw: string): string {
  let hex = "";
  for (let i = 0; i < raw.length; i++) hex += (raw.charCodeAt(i) & 0xff).toString(16).padStart(2, "0");
  return hex;
}

/** Installs the fixes (idempotent). */
export function installDecryptFixes(): void {
  if (installed) return;
  installed = true;
  const proto = PDFObjectParser.prototype as unknown as ParserInternals;
  const parseString = proto.parseString;
  const parseDictOrStream = proto.parseDictOrStream;
  proto.parseString = function (this: ParserInternals, ref?: PDFRef) {
    const s = parseString.call(this, ref);
    return this.cryptoFactory && ref && s instanceof PDFString ? PDFHexString.of(toHex(s.asString())) : s;
  };
  proto.parseDictOrStream = function (this: ParserInternals, ref?: PDFRef) {
    const start = this.bytes.offset();
    const obj = parseDictOrStream.call(this, ref);
    const factory = this.cryptoFactory;
    if (!factory || !ref) return obj;
    const isStream = obj instanceof PDFRawStream;
    const xref = isStream && obj.dict.get(NAME.Type) === NAME.XRef;
    const filterName = isStream && !xref ? streamFilterName(obj.dict, factory) : null;
    const encrypt = !isStream && isEncryptDict(obj);
    if (!xref && filterName === null && !encrypt) return obj;
    this.bytes.moveTo(start);
    const plain = parseDictOrStream.call(this, undefined);
    if (encrypt) encryptRefs.set(this.context, ref);
    return filterName !== null && plain instanceof PDFRawStream ? decryptWith(plain, filterName, factory, ref) : plain;
  };
}

/** Deletes the (orphaned) encryption dictionary from a document opened with a password. */
export function dropEncryptDict(doc: PDFDocument): void {
  const ref = encryptRefs.get(doc.context);
  if (ref && !doc.context.trailerInfo.Encrypt) doc.context.delete(ref);
}
