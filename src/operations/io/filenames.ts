/**
 * File-name rules shared by import, upload and export: a safe base name (no directories, no control
 * characters, no traversal), extensions, and MIME types by extension.
 */
import { MIME as IMAGE_MIME } from "../../engines/kinds/image";

/** Reduces any caller-supplied name to a safe base name; falls back to `fallback` when nothing is left. */
export function safeFilename(name: string | null | undefined, fallback = "file"): string {
  let n = (name ?? "").replace(/[\x00-\x1f\x7f]/g, "");
  n = n.split(/[\\/]/).pop() ?? "";
  n = n.replace(/^\.+/, "").trim();
  if (n.length > 200) {
    const ext = extensionOf(n);
    n = n.slice(0, 190) + (ext ? `.${ext}` : "");
  }
  return n || fallback;
}

/** Lower-case extension without the dot ("tar.gz" aware), or "" when none. */
export function extensionOf(name: string): string {
  const lower = name.toLowerCase();
  // compressed tars named with two extensions (issue 34 adds the archive list's tar.Z, tar.lzma, tar.7z, tar.bz, tar.lz, tar.lzo)
  for (const double of ["tar.gz", "tar.bz2", "tar.xz", "tar.z", "tar.lzma", "tar.7z", "tar.bz", "tar.lz", "tar.lzo"])
    if (lower.endsWith(`.${double}`)) return double;
  const i = lower.lastIndexOf(".");
  return i > 0 ? lower.slice(i + 1) : "";
}

/** Replaces the extension of `name` by `ext` ("a.png", "jpg" → "a.jpg"). */
export function withExtension(name: string, ext: string): string {
  const cur = extensionOf(name);
  const base = cur ? name.slice(0, name.length - cur.length - 1) : name;
  return `${base}.${ext}`;
}

/** File name from a Content-Disposition header (RFC 6266: filename* preferred over filename), or null. */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[2].trim());
    } catch {
      /* fall through to the plain parameter */
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(header);
  if (!plain) return null;
  return (plain[2] !== undefined ? plain[2].replace(/\\(.)/g, "$1") : plain[1]).trim();
}

/** File name from the last path segment of a URL, or null. */
export function filenameFromUrl(url: string): string | null {
  try {
    const seg = new URL(url).pathname.split("/").filter(Boolean).pop();
    return seg ? decodeURIComponent(seg) : null;
  } catch {
    return null;
  }
}

/** MIME types by extension: every image format's (engines/kinds/image.ts, the camera raws' too), then the rest. */
const TYPES: Record<string, string> = {
  ...IMAGE_MIME,
  jpeg: "image/jpeg",
  tif: "image/tiff",
  pdf: "application/pdf",
  txt: "text/plain; charset=utf-8",
  html: "text/html; charset=utf-8",
  htm: "text/html; charset=utf-8",
  json: "application/json",
  xml: "application/xml",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  zip: "application/zip",
  gz: "application/gzip",
  "tar.gz": "application/gzip",
  tar: "application/x-tar",
  "7z": "application/x-7z-compressed",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  mp4: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

/** MIME type by file extension; application/octet-stream when unknown. */
export function contentTypeOf(name: string): string {
  return TYPES[extensionOf(name)] ?? "application/octet-stream";
}
