/**
 * Password candidates for opening a PDF. AES-256 (revision 6) passwords are SASLprep-normalised
 * UTF-8 (ISO 32000-2 §7.6.4.3.3, RFC 4013); revision 2–4 passwords are PDFDocEncoding bytes. pdf-lib
 * uses the password as given, so the normalised form is tried as a second candidate: "SªSL\u00ADprep"
 * then opens a file protected with "SaSLprep" (pdf.js test saslprep-r6.pdf), as Acrobat and qpdf do.
 */

/** Characters RFC 3454 table B.1 maps to nothing (soft hyphen, zero-width joiners, variation selectors …). */
const MAPPED_TO_NOTHING = /[\u00AD\u034F\u1806\u180B-\u180D\u200B-\u200D\u2060\uFE00-\uFE0F\uFEFF]/g;
/** Non-ASCII spaces (RFC 3454 table C.1.2), mapped to U+0020 by SASLprep. */
const NON_ASCII_SPACE = /[\u00A0\u1680\u2000-\u200B\u202F\u205F\u3000]/g;

/** A simplified SASLprep (RFC 4013 mapping + NFKC; no prohibited-output or bidi checks). */
export function saslprep(password: string): string {
  return password.replace(MAPPED_TO_NOTHING, "").replace(NON_ASCII_SPACE, " ").normalize("NFKC");
}

/**
 * Passwords to try, in order: the given one, its SASLprep form when different, and "" when none
 * was given (many encrypted PDFs have an empty user password and open without asking).
 */
export function passwordCandidates(password: string | undefined): string[] {
  if (password === undefined) return [""];
  const prepped = saslprep(password);
  return prepped === password ? [password] : [password, prepped];
}
