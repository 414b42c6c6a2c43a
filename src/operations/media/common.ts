/** Pieces shared by the audio/video operations. */

/** MIME types of the media outputs (the runner's table may not know them all). */
export const MEDIA_MIME: Record<string, string> = {
  mp4: "video/mp4",
  m4v: "video/x-m4v",
  mov: "video/quicktime",
  mkv: "video/x-matroska",
  webm: "video/webm",
  avi: "video/x-msvideo",
  gif: "image/gif",
  flv: "video/x-flv",
  wmv: "video/x-ms-wmv",
  aiff: "audio/aiff",
  wma: "audio/x-ms-wma",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  opus: "audio/opus",
  flac: "audio/flac",
  aac: "audio/aac",
  m4a: "audio/mp4",
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
};
