/**
 * The `command` operation's arguments (contract §6 `command`: `engine`, `command`, `arguments`):
 * split like a POSIX shell splits words (quotes and backslashes; no expansion of any kind) but never
 * given to one, and every path checked to stay under /input/<task>/ or /output/ (issue 12). Pure:
 * the Worker uses it for the 422 at task creation, the native engine again before running.
 */

/** Commands each engine offers (the first word a user writes). */
export const COMMANDS: Record<string, readonly string[]> = {
  imagemagick: ["convert", "magick", "identify"],
  graphicsmagick: ["gm"],
  ffmpeg: ["ffmpeg", "ffprobe"],
};

/** A file or task name as one safe path segment of /input/<task>/<file> (no slashes, no leading dots). */
export function pathSegment(name: string): string {
  return (
    name
      .replace(/^.*[\\/]/, "")
      .replace(/[^\p{L}\p{N}._ -]/gu, "_")
      .replace(/^\.+/, "_") || "_"
  );
}

/** A word as a POSIX shell would need it quoted, for `result.command` (the line as run). */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** ImageMagick/GraphicsMagick coders that read the network, the file system or run scripts: refused as a `coder:` prefix. */
const UNSAFE_CODERS = new Set([
  "url",
  "http",
  "https",
  "ftp",
  "file",
  "msl",
  "mvg",
  "ephemeral",
  "text",
  "tmp",
  "fd",
  "pipe",
  "xc-file",
]);

/**
 * Splits `line` into words as `sh` would (single quotes literal, double quotes with \\ \" \$ \`
 * escapes, backslash escapes outside quotes), without expanding anything.
 * @returns the words, or an error message for an unterminated quote
 */
export function splitArguments(line: string): { words: string[] } | { error: string } {
  const words: string[] = [];
  let cur = "";
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { error: "a single quote is not closed" };
      cur += line.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === "\\" && j + 1 < line.length && '\\"$`'.includes(line[j + 1]!)) j++;
        cur += line[j];
      }
      if (j >= line.length) return { error: "a double quote is not closed" };
      i = j;
      inWord = true;
    } else if (c === "\\" && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(cur);
      cur = "";
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return { words };
}

/** Normalises a slash path; undefined when it climbs above its root with "..". */
function normalise(path: string): string | undefined {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (!out.length) return undefined;
      out.pop();
    } else out.push(part);
  }
  return `/${out.join("/")}`;
}

/**
 * Checks the words of a command: every word that names a path (contains "/" after an optional
 * `coder:` prefix, or starts with "@") must stay under /input/ or /output/; coders that reach
 * outside (url:, msl:, text:, …) are refused.
 * @returns the first problem as a message, or null when every word is fine
 */
export function checkWords(words: string[]): string | null {
  for (const w of words) {
    const m = /^([A-Za-z0-9-]{2,}):(.*)$/.exec(w);
    const coder = m?.[1]?.toLowerCase();
    if (coder && UNSAFE_CODERS.has(coder)) return `"${w}": the ${coder}: prefix is not allowed.`;
    let rest = m && !/^\d/.test(m[1]!) ? m[2]! : w;
    if (rest.startsWith("@")) rest = rest.slice(1);
    else if (!rest.includes("/")) continue;
    if (!rest.startsWith("/")) return `"${w}": paths must start with /input/ or /output/.`;
    const path = normalise(rest.replace(/\[[^\]]*\]$/, ""));
    if (!path || !(path.startsWith("/input/") || path.startsWith("/output/") || path === "/output")) {
      return `"${w}": only files under /input/ and /output/ can be used.`;
    }
  }
  return null;
}

/**
 * ffmpeg's protocols (`ffmpeg -protocols` of 5.1): a word or filter argument starting with one of
 * these and ":" would open it; only plain paths are allowed, so every one is refused.
 */
const FFMPEG_PROTOCOLS = new Set([
  "async",
  "bluray",
  "cache",
  "concat",
  "concatf",
  "crypto",
  "data",
  "fd",
  "ffrtmpcrypt",
  "ffrtmphttp",
  "file",
  "ftp",
  "gopher",
  "gophers",
  "hls",
  "http",
  "httpproxy",
  "https",
  "icecast",
  "ipfs",
  "ipns",
  "librist",
  "libsmbclient",
  "libsrt",
  "libssh",
  "md5",
  "mmsh",
  "mmst",
  "pipe",
  "prompeg",
  "rist",
  "rtmp",
  "rtmpe",
  "rtmps",
  "rtmpt",
  "rtmpte",
  "rtmpts",
  "rtp",
  "sctp",
  "sftp",
  "smb",
  "srt",
  "srtp",
  "subfile",
  "tcp",
  "tee",
  "tls",
  "udp",
  "udplite",
  "unix",
  "zmq",
]);

/** Input formats (`-f`) that are devices or read other files by their own rules. */
const FFMPEG_DEVICE_FORMATS = new Set([
  "alsa",
  "android_camera",
  "avfoundation",
  "bktr",
  "decklink",
  "dshow",
  "fbdev",
  "gdigrab",
  "iec61883",
  "jack",
  "kmsgrab",
  "lavfi",
  "libcdio",
  "libdc1394",
  "openal",
  "opengl",
  "oss",
  "pulse",
  "sdl",
  "sdl2",
  "sndio",
  "v4l2",
  "video4linux2",
  "vfwcap",
  "x11grab",
  "xcbgrab",
  "xv",
  "caca",
]);

/** Options that read a script or list of further paths the checks cannot see, or lift the concat demuxer's own path rule. */
const FFMPEG_REFUSED_OPTIONS = new Set([
  "-filter_script",
  "-filter_complex_script",
  "-safe",
  "-protocol_whitelist",
  "-protocol_blacklist",
  "-dump_attachment",
  "-sdp_file",
  "-init_hw_device",
  "-filter_hw_device",
  "-hwaccel_device",
]);

/**
 * Checks the words of an ffmpeg or ffprobe command (issue 13): paths, wherever they appear (a
 * word, or an argument inside a filter graph such as `movie=` or `subtitles=`), stay under
 * /input/ and /output/; protocols (http:, tcp:, file:, concat:, …), device input formats, the
 * options that read further scripts or lift the concat demuxer's safe mode, and backslashes (which
 * ffmpeg unescapes inside values, hiding a path or protocol from these checks) are refused. Relative
 * paths are resolved in /output/ by the engines; ".." never climbs out.
 * @returns the first problem as a message, or null when every word is fine
 */
export function checkFfmpegWords(words: string[]): string | null {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    // ffmpeg unescapes "\/" and "\:" inside filter and option values (`movie=\/etc\/passwd` reads
    // /etc/passwd), which no check of the written form can follow: a backslash that reaches ffmpeg is refused
    if (w.includes("\\"))
      return `"${w}": backslash escapes are not allowed in ffmpeg arguments (quote the word instead).`;
    const opt = w.replace(/:.*$/, "");
    if (FFMPEG_REFUSED_OPTIONS.has(opt) || opt.startsWith("-/")) return `"${w}": this option is not allowed.`;
    if ((w === "-f" || w === "-format") && FFMPEG_DEVICE_FORMATS.has((words[i + 1] ?? "").toLowerCase()))
      return `"-f ${words[i + 1]}": devices and lavfi sources are not allowed.`;
    // every piece of the word between the filter graph's separators
    for (const piece of w.split(/[=:,;'"\[\]|]+(?=)/)) {
      const p = piece.trim();
      if (FFMPEG_PROTOCOLS.has(p.toLowerCase()) && new RegExp(`(^|[=,;'"\\[])${p}:`, "i").test(w))
        return `"${w}": the ${p}: protocol is not allowed.`;
    }
    for (const m of w.matchAll(/(?:^|[=:,;'"\[])((?:\.\.?)?\/[^:,;'"\]]*)/g)) {
      const path = m[1]!;
      const norm = path.startsWith("/") ? normalise(path) : undefined;
      if (
        !norm ||
        !(norm.startsWith("/input/") || norm === "/input" || norm.startsWith("/output/") || norm === "/output")
      ) {
        return `"${w}": only files under /input/ and /output/ can be used.`;
      }
    }
    if (/(^|[\/=:,;'"\[])\.\.($|[\/:,;'"\]])/.test(w)) return `"${w}": ".." is not allowed in paths.`;
  }
  return null;
}
