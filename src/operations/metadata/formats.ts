/**
 * Formats of the metadata rows (catalogue and routing). ExifTool sniffs content, so these lists
 * only decide which `input_format`/extensions route here: a file with no extension routes anyway,
 * and `input_format` overrides a wrong one (service-spec "input_format").
 *
 * READ: the file types of ExifTool 13.42 the service reads (every type of ../shared/corpus is
 * tested against Debian's exiftool: test/unit/metadata-corpus.test.ts).
 * WRITE: types ExifTool writes and test/unit/metadata-write.test.ts round-trips (ExifTool itself
 * refuses DOCX/XLSX/PPTX, MP3, FLAC, WAV/AVI (RIFF), MKV/WEBM, SVG, ZIP-based and archive formats).
 */
export const METADATA_READ_FORMATS = [
  // documents
  "pdf", "ai", "eps", "ps", "docx", "xlsx", "pptx", "doc", "xls", "ppt", "odt", "ods", "odp", "epub", "rtf", "pages", "key", "numbers", "html", "htm", "xml", "txt", "md", "csv", "json", "xmp",
  // images
  "jpg", "jpeg", "png", "gif", "tif", "tiff", "bmp", "webp", "heic", "heif", "avif", "psd", "svg", "ico", "jp2", "jxl", "dng", "cr2", "cr3", "nef", "arw", "orf", "rw2", "raf", "exr",
  // audio and video
  "mp3", "wav", "aiff", "aif", "au", "flac", "m4a", "ogg", "opus", "aac", "wma", "mp4", "m4v", "mov", "3gp", "avi", "mkv", "webm", "mpg", "mpeg", "wmv", "flv",
  // archives
  "zip", "rar", "7z", "gz", "tgz", "tar", "iso",
] as const;

export const METADATA_WRITE_FORMATS = ["pdf", "ai", "eps", "ps", "jpg", "jpeg", "png", "gif", "tif", "tiff", "webp", "heic", "heif", "avif", "psd", "jp2", "jxl", "dng", "mp4", "m4v", "m4a", "mov", "3gp", "xmp"] as const;

/** MIME type of a written file by its extension (the runner derives it when absent; these are the ones it may not know). */
export const WRITE_MIME: Record<string, string> = {
  pdf: "application/pdf", jpg: "image/jpeg", jpeg: "image/jpeg", png: "image/png", gif: "image/gif", tif: "image/tiff", tiff: "image/tiff", webp: "image/webp",
  heic: "image/heic", heif: "image/heif", avif: "image/avif", psd: "image/vnd.adobe.photoshop", jp2: "image/jp2", jxl: "image/jxl",
  mp4: "video/mp4", m4v: "video/x-m4v", m4a: "audio/mp4", mov: "video/quicktime", "3gp": "video/3gpp", xmp: "application/rdf+xml",
  ai: "application/postscript", eps: "application/postscript", ps: "application/postscript", dng: "image/x-adobe-dng",
};
