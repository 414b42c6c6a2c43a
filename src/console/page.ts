/**
 * The console page served at `/` (issue 18): paste an API key, build a job from an example drawn
 * from GET /v2/operations (or edit its JSON), upload files to its import/upload tasks, watch every
 * task live over the job's Server-Sent Events (GET /v2/jobs/{id}/events, read with fetch so the
 * key travels in the Authorization header), and download the exported files. One static HTML
 * document with its script inline: no build step, no dependency, nothing sent anywhere but this API.
 */
export const CONSOLE_PAGE = String.raw`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>edge-convert console</title>
<style>
  :root { font: 15px/1.45 system-ui, sans-serif; color: #1d232a; background: #f6f7f9; }
  body { max-width: 980px; margin: 0 auto; padding: 16px; }
  h1 { font-size: 20px; margin: 0 0 12px; }
  section { background: #fff; border: 1px solid #dde1e6; border-radius: 8px; padding: 12px 14px; margin-bottom: 12px; }
  label { font-weight: 600; margin-right: 6px; }
  input[type=password], select { padding: 5px 8px; border: 1px solid #c3c9d1; border-radius: 5px; min-width: 260px; }
  textarea { width: 100%; box-sizing: border-box; min-height: 200px; font: 13px/1.4 ui-monospace, monospace; border: 1px solid #c3c9d1; border-radius: 5px; padding: 8px; }
  button { padding: 6px 14px; border: 0; border-radius: 5px; background: #2456d3; color: #fff; font-weight: 600; cursor: pointer; }
  button:disabled { background: #9aa8c8; cursor: default; }
  table { border-collapse: collapse; width: 100%; font-size: 14px; }
  th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid #eceff3; vertical-align: top; }
  .status-finished { color: #17803d; font-weight: 600; }
  .status-error { color: #c0262d; font-weight: 600; }
  .status-processing { color: #a15c00; font-weight: 600; }
  .muted { color: #66707c; font-size: 13px; }
  .bar { height: 6px; background: #e3e7ee; border-radius: 3px; min-width: 80px; }
  .bar > div { height: 6px; background: #2456d3; border-radius: 3px; }
  #error { color: #c0262d; white-space: pre-wrap; }
  .row { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; margin: 8px 0; }
</style>
</head>
<body>
<h1>edge-convert console</h1>
<section>
  <div class="row"><label for="key">API key</label><input id="key" type="password" autocomplete="off" placeholder="Bearer key"><span id="me" class="muted"></span></div>
</section>
<section>
  <div class="row"><label for="example">Example</label><select id="example"><option value="">loading the catalogue…</option></select></div>
  <textarea id="job" spellcheck="false"></textarea>
  <div class="row"><label for="files">Files for import/upload tasks</label><input id="files" type="file" multiple></div>
  <div class="row"><button id="run">Run job</button><label class="muted"><input id="local" type="checkbox"> run in this browser (the <a href="/browser/">browser build</a>: nothing is uploaded)</label><span id="jobstatus" class="muted"></span></div>
  <div id="error"></div>
</section>
<section>
  <table><thead><tr><th>task</th><th>operation</th><th>status</th><th>progress</th><th>engine</th><th>message</th></tr></thead><tbody id="tasks"></tbody></table>
  <div id="results"></div>
</section>
<section>
  <div class="row"><label>Signed URLs</label><button id="newbase">Create a signed-URL base</button><span class="muted">use its url and signing secret with the SDK's <code>signedUrls.sign</code></span></div>
  <table><thead><tr><th>url</th><th>signing secret</th><th>created</th></tr></thead><tbody id="bases"></tbody></table>
</section>
<p class="muted">Jobs use the CloudConvert v2 API of this server; progress arrives as Server-Sent Events from <code>/v2/jobs/{id}/events</code>. The API's description: <a href="/openapi.json">/openapi.json</a>.</p>
<script>
"use strict";
var $ = function (id) { return document.getElementById(id); };
var keyInput = $("key");
keyInput.value = localStorage.getItem("edge-convert-key") || "";
function key() { return keyInput.value.trim(); }
function api(method, path, body) {
  var init = { method: method, headers: { authorization: "Bearer " + key() } };
  if (body !== undefined) { init.headers["content-type"] = "application/json"; init.body = JSON.stringify(body); }
  return fetch(path, init).then(function (res) {
    return res.text().then(function (text) {
      var json = text ? JSON.parse(text) : null;
      if (!res.ok) throw new Error(res.status + " " + ((json && json.message) || res.statusText) + (json && json.errors ? "\n" + JSON.stringify(json.errors, null, 1) : ""));
      return json;
    });
  });
}
function checkKey() {
  localStorage.setItem("edge-convert-key", key());
  if (!key()) { $("me").textContent = "paste a key"; return; }
  api("GET", "/v2/users/me").then(function (r) { $("me").textContent = "signed in as " + r.data.username + " (user " + r.data.id + ")"; },
    function (e) { $("me").textContent = e.message; });
}
function listBases() {
  if (!key()) return;
  api("GET", "/v2/users/me/signed-url-bases").then(function (r) {
    var body = $("bases");
    body.innerHTML = "";
    r.data.forEach(function (b) {
      var tr = document.createElement("tr");
      [b.url, b.signing_secret, b.created_at].forEach(function (v) { var td = document.createElement("td"); td.textContent = v; tr.appendChild(td); });
      body.appendChild(tr);
    });
  }, function () {});
}
$("newbase").addEventListener("click", function () { api("POST", "/v2/signed-url-bases").then(listBases, function (e) { $("error").textContent = e.message; }); });
keyInput.addEventListener("change", function () { checkKey(); listBases(); });
checkKey();
listBases();

function template(op) {
  var step = { operation: op.operation, input: "upload" };
  if (op.input_format && op.input_format !== "*") step.input_format = op.input_format;
  if (op.output_format && op.output_format !== "*") step.output_format = op.output_format;
  return { tasks: { upload: { operation: "import/upload" }, step: step, export: { operation: "export/url", input: "step" } } };
}
var examples = [];
fetch("/v2/operations").then(function (r) { return r.json(); }).then(function (r) {
  var seen = {};
  r.data.forEach(function (op) {
    if (/^(import|export)\//.test(op.operation) || op.operation === "capture-website" || op.operation === "command") return;
    var id = op.operation + " " + (op.input_format || "") + " " + (op.output_format || "");
    if (seen[id]) return;
    seen[id] = true;
    examples.push(op);
  });
  var sel = $("example");
  sel.innerHTML = "";
  examples.forEach(function (op, i) {
    var o = document.createElement("option");
    o.value = String(i);
    o.textContent = op.operation + (op.input_format ? ": " + op.input_format + " → " + (op.output_format || op.input_format) : "") + " (" + op.engine + ")";
    sel.appendChild(o);
  });
  var png = examples.findIndex(function (op) { return op.operation === "convert" && op.input_format === "png" && op.output_format === "jpg"; });
  sel.value = String(png >= 0 ? png : 0);
  if (!$("job").value) $("job").value = JSON.stringify(template(examples[Number(sel.value)]), null, 2);
});
$("example").addEventListener("change", function () { $("job").value = JSON.stringify(template(examples[Number($("example").value)]), null, 2); });

var rows = {};
function showTask(t) {
  var tr = rows[t.id];
  if (!tr) {
    tr = document.createElement("tr");
    tr.dataset.task = t.name;
    tr.innerHTML = "<td></td><td></td><td></td><td><div class=bar><div></div></div></td><td></td><td></td>";
    $("tasks").appendChild(tr);
    rows[t.id] = tr;
  }
  var c = tr.children;
  c[0].textContent = t.name;
  c[1].textContent = t.operation;
  c[2].textContent = t.status;
  c[2].className = "status-" + t.status;
  c[3].firstChild.firstChild.style.width = (t.status === "finished" ? 100 : t.percent || 0) + "%";
  c[4].textContent = t.engine ? t.engine + " " + (t.engine_version || "") : "";
  c[5].textContent = t.code ? t.code + ": " + (t.message || "") : (t.message || "");
}
function addDownload(href, filename) {
  var a = document.createElement("a");
  a.href = href;
  a.textContent = "download " + filename;
  a.className = "download";
  a.setAttribute("download", filename);
  var p = document.createElement("p");
  p.appendChild(a);
  $("results").appendChild(p);
}
function showJob(job) {
  $("jobstatus").textContent = "job " + job.id + ": " + job.status;
  $("jobstatus").dataset.status = job.status;
  (job.tasks || []).forEach(showTask);
  if (job.status !== "finished" && job.status !== "error") return;
  $("results").innerHTML = "";
  (job.tasks || []).filter(function (t) { return t.operation === "export/url" && t.status === "finished"; }).forEach(function (t) {
    (t.result.files || []).forEach(function (f) { addDownload(f.url, f.filename); });
  });
}
/** Reads the job's Server-Sent Events with fetch (EventSource cannot send the Authorization header). */
function follow(jobId) {
  return fetch("/v2/jobs/" + jobId + "/events", { headers: { authorization: "Bearer " + key() } }).then(function (res) {
    var reader = res.body.getReader();
    var dec = new TextDecoder();
    var buf = "";
    function pump() {
      return reader.read().then(function (r) {
        if (r.done) return;
        buf += dec.decode(r.value, { stream: true });
        var at;
        while ((at = buf.indexOf("\n\n")) >= 0) {
          var block = buf.slice(0, at);
          buf = buf.slice(at + 2);
          var data = block.split("\n").filter(function (l) { return l.indexOf("data: ") === 0; }).map(function (l) { return l.slice(6); }).join("\n");
          if (!data) continue;
          var e = JSON.parse(data);
          if (e.job) showJob(e.job);
          if (e.task) showTask(e.task);
        }
        return pump();
      });
    }
    return pump();
  });
}
/** The same job in this browser (issue 19): the engines run in a Web Worker, files stay here. */
function runHere(body) {
  var files = Array.prototype.slice.call($("files").files);
  var names = Object.keys(body.tasks || {}).filter(function (n) { return body.tasks[n] && body.tasks[n].operation === "import/upload"; });
  if (names.length > files.length) return Promise.reject(new Error("The job has " + names.length + " import/upload task(s); choose as many files."));
  var given = {};
  names.forEach(function (n, i) { given[n] = files[i]; });
  return import("/browser/edge-convert.js").then(function (m) {
    return m.runJob(body, { files: given, onProgress: showJob });
  }).then(function (r) {
    showJob(r.job);
    $("results").innerHTML = "";
    r.outputs.forEach(function (o) { addDownload(URL.createObjectURL(o.blob), o.filename); });
  });
}
function upload(task, file) {
  var form = new FormData();
  var params = task.result.form.parameters;
  Object.keys(params).forEach(function (k) { form.append(k, params[k]); });
  form.append("file", file, file.name);
  return fetch(task.result.form.url, { method: "POST", body: form }).then(function (res) {
    if (res.status !== 201) throw new Error("upload of " + file.name + " failed: " + res.status);
  });
}
$("run").addEventListener("click", function () {
  $("error").textContent = "";
  $("results").innerHTML = "";
  $("tasks").innerHTML = "";
  rows = {};
  var body;
  try { body = JSON.parse($("job").value); } catch (e) { $("error").textContent = "The job is not JSON: " + e.message; return; }
  $("run").disabled = true;
  if ($("local").checked) {
    runHere(body).catch(function (e) { $("error").textContent = (e.code ? e.code + ": " : "") + e.message + (e.errors ? "\n" + JSON.stringify(e.errors, null, 1) : ""); }).then(function () { $("run").disabled = false; });
    return;
  }
  api("POST", "/v2/jobs", body).then(function (r) {
    var job = r.data;
    showJob(job);
    var following = follow(job.id);
    var files = Array.prototype.slice.call($("files").files);
    var uploads = job.tasks.filter(function (t) { return t.operation === "import/upload"; });
    if (uploads.length > files.length) throw new Error("The job has " + uploads.length + " import/upload task(s); choose as many files.");
    return Promise.all(uploads.map(function (t, i) { return upload(t, files[i]); })).then(function () { return following; });
  }).catch(function (e) { $("error").textContent = e.message; }).then(function () { $("run").disabled = false; });
});
</script>
</body>
</html>
`;
