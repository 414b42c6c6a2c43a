/**
 * "Copy as code": a job as a bash script (curl and jq), a Node script (the official cloudconvert SDK) or a Python
 * script (cloudconvert-python), each running the job against this server, uploading its files and saving its exports.
 */

/** A job's JSON as the builder makes it. */
export interface JobBody {
  tasks: Record<string, Record<string, unknown>>;
  tag?: string;
}

/** The languages the page prints a job in. */
export type Lang = "curl" | "node" | "python";

/** `s` as one single-quoted shell word. */
export function shellQuote(s: unknown): string {
  return `'${String(s).replace(/'/g, "'\\''")}'`;
}

/** The names of a job's import/upload tasks, in order. */
export function uploadsOf(job: JobBody): string[] {
  return Object.keys(job.tasks).filter((n) => job.tasks[n]!.operation === "import/upload");
}

/** Where the code runs it: this server's origin, the API key, and the file name each upload task sends. */
export interface CodeContext {
  base: string;
  key: string;
  fileNameFor(task: string): string;
}

/** The job as a script in `which` language, ending with a newline. */
export function codeFor(which: Lang, job: JobBody, { base, key: k, fileNameFor }: CodeContext): string {
  const json = JSON.stringify(job, null, 2);
  const ups = uploadsOf(job);
  if (which === "curl") {
    const lines = [
      "#!/usr/bin/env bash",
      "# needs curl and jq; run it where the upload files are",
      "set -euo pipefail",
      `API=${shellQuote(base)}`,
      `KEY="\${CLOUDCONVERT_API_KEY:-${k.replace(/["$`\\]/g, "")}}"`,
      `JOB=$(curl -sS -f -X POST "$API/v2/jobs" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' --data-binary @- <<'EOF'`,
      json,
      "EOF",
      ")",
      'ID=$(jq -r .data.id <<<"$JOB")',
      'echo "job $ID"',
    ];
    for (const n of ups) {
      const sel = `.data.tasks[] | select(.name == ${JSON.stringify(n)}) | .result.form`;
      lines.push(
        `mapfile -t FIELDS < <(jq -r ${shellQuote(`${sel} | .parameters | to_entries[] | "-F", "\\(.key)=\\(.value)"`)} <<<"$JOB")`,
      );
      lines.push(
        `curl -sS -f -o /dev/null "\${FIELDS[@]}" -F ${shellQuote(`file=@${fileNameFor(n)}`)} "$(jq -r ${shellQuote(`${sel} | .url`)} <<<"$JOB")"`,
      );
    }
    lines.push('DONE=$(curl -sS -f -H "Authorization: Bearer $KEY" "$API/v2/jobs/$ID/wait")');
    lines.push('jq -r \'.data.tasks[] | "\\(.name): \\(.status) \\(.code // "") \\(.message // "")"\' <<<"$DONE"');
    lines.push(
      'jq -r \'.data.tasks[] | select(.operation == "export/url" and .status == "finished") | .result.files[] | "\\(.filename)\\t\\(.url)"\' <<<"$DONE" |',
    );
    lines.push('  while IFS=$\'\\t\' read -r name url; do curl -sS -f -o "$name" "$url"; echo "saved $name"; done');
    return `${lines.join("\n")}\n`;
  }
  if (which === "node") {
    const n = [
      "// npm install cloudconvert; save as job.mjs and run with node, where the upload files are",
      'import CloudConvert from "cloudconvert";',
      'import { createReadStream, writeFileSync } from "node:fs";',
      "",
      `const API = ${JSON.stringify(base)};`,
      `const cc = new CloudConvert(process.env.CLOUDCONVERT_API_KEY || ${JSON.stringify(k)});`,
      "// The SDK has no base-URL option; send its api and sync hosts to this server.",
      "const call = cc.callWithBase.bind(cc);",
      "cc.callWithBase = (base, ...rest) =>",
      '  call(base.replace(/^https:\\/\\/(sync\\.)?api\\.cloudconvert\\.com\\/v2\\//, (_, s) => `${API}/${s ? "sync/" : ""}v2/`), ...rest);',
      "",
      `let job = await cc.jobs.create(${json});`,
    ];
    for (const u of ups)
      n.push(
        `await cc.tasks.upload(job.tasks.find((t) => t.name === ${JSON.stringify(u)}), createReadStream(${JSON.stringify(fileNameFor(u))}), ${JSON.stringify(fileNameFor(u))});`,
      );
    n.push(
      "job = await cc.jobs.wait(job.id);",
      'for (const t of job.tasks) console.log(`${t.name}: ${t.status} ${t.code ?? ""} ${t.message ?? ""}`);',
      "for (const file of cc.jobs.getExportUrls(job)) {",
      "  writeFileSync(file.filename, Buffer.from(await (await fetch(file.url)).arrayBuffer()));",
      "  console.log(`saved ${file.filename}`);",
      "}",
    );
    return `${n.join("\n")}\n`;
  }
  const p = [
    "# pip install cloudconvert; run where the upload files are",
    "import json, os",
    "import cloudconvert",
    "",
    `API = ${JSON.stringify(base)}`,
    `cloudconvert.configure(api_key=os.environ.get("CLOUDCONVERT_API_KEY") or ${JSON.stringify(k)}, sandbox=False, endpoint=API, sync_endpoint=API + "/sync")`,
    "",
    `job = cloudconvert.Job.create(payload=json.loads(r'''${json}'''))`,
  ];
  for (const u of ups)
    p.push(
      `cloudconvert.Task.upload(file_name=${JSON.stringify(fileNameFor(u))}, task=next(t for t in job["tasks"] if t["name"] == ${JSON.stringify(u)}))`,
    );
  p.push(
    'job = cloudconvert.Job.wait(id=job["id"])',
    'for task in job["tasks"]:',
    '    print(task["name"], task["status"], task.get("code") or "", task.get("message") or "")',
    '    if task["operation"] == "export/url" and task["status"] == "finished":',
    '        for f in task["result"]["files"]:',
    '            cloudconvert.download(filename=f["filename"], url=f["url"])',
  );
  return `${p.join("\n")}\n`;
}
