/**
 * The console page's script (src/console/index.html loads it as /console/console.js, built by
 * scripts/build-console.mjs): signs in with the key typed, wires the builder, the JSON box, the code view, the run,
 * the history and the signed-URL bases to the page's controls, and loads the catalogue.
 */
import { addFiles, addPickedTask, jsonTyped, loadCatalogue, setLang, updateCode, updateJson } from "./builder";
import type { Lang } from "./code";
import { $, api, dropZone, h, key } from "./dom";
import { loadHistory, reloadHistory, turnHistory } from "./history";
import { makeZip, runJson } from "./run";

const KEY_STORE = "edge-convert-key";

/** Keeps the key for this tab and shows whose it is (then the history). */
function checkKey(): void {
  sessionStorage.setItem(KEY_STORE, key());
  if (!key()) {
    $("me").textContent = "paste a key";
    return;
  }
  api<{ data: { username: string; id: string } }>("GET", "/v2/users/me").then(
    (r) => {
      $("me").textContent = `signed in as ${r.data.username} (user ${r.data.id})`;
      loadHistory(1);
    },
    (e: Error) => {
      $("me").textContent = e.message;
    },
  );
}

/** Lists the account's signed-URL bases (url, signing secret, creation). */
function listBases(): void {
  if (!key()) return;
  api<{ data: { url: string; signing_secret: string; created_at: string }[] }>(
    "GET",
    "/v2/users/me/signed-url-bases",
  ).then(
    (r) => {
      const body = $("bases");
      body.innerHTML = "";
      for (const b of r.data)
        body.appendChild(
          h(
            "tr",
            {},
            [b.url, b.signing_secret, b.created_at].map((v) => h("td", { text: v })),
          ),
        );
    },
    () => {},
  );
}

/** Copies the code shown, or selects it when the clipboard is unavailable. */
function copyCode(): void {
  const copy = $("copy");
  const text = $("code").textContent ?? "";
  (navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject(new Error("no clipboard"))).then(
    () => {
      copy.textContent = "Copied";
    },
    () => {
      const r = document.createRange();
      r.selectNodeContents($("code"));
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(r);
      copy.textContent = "Selected: press Ctrl+C";
    },
  );
  setTimeout(() => {
    copy.textContent = "Copy";
  }, 2500);
}

// the key
const keyInput = $<HTMLInputElement>("key");
keyInput.value = sessionStorage.getItem(KEY_STORE) || "";
keyInput.addEventListener("change", () => {
  checkKey();
  listBases();
  updateCode();
});
$("newbase").addEventListener("click", () => {
  api("POST", "/v2/signed-url-bases").then(listBases, (e: Error) => {
    $("error").textContent = e.message;
  });
});

// the builder
const picker = $<HTMLInputElement>("files");
picker.addEventListener("change", () => {
  if (picker.files) addFiles(picker.files);
  picker.value = "";
});
dropZone($("drop"), addFiles);
$("add-task").addEventListener("click", addPickedTask);
$("tag").addEventListener("input", updateJson);

// the JSON box: the builder follows what is typed, 300 ms after the last key
let jsonTimer: ReturnType<typeof setTimeout> | undefined;
$("job").addEventListener("input", () => {
  clearTimeout(jsonTimer);
  jsonTimer = setTimeout(jsonTyped, 300);
});

// copy as code
const tabs = Array.from(document.querySelectorAll<HTMLElement>("[data-lang]"));
for (const b of tabs)
  b.addEventListener("click", () => {
    for (const o of tabs) o.setAttribute("aria-selected", String(o === b));
    setLang(b.dataset.lang as Lang);
  });
$("copy").addEventListener("click", copyCode);

// the run
$("zip").addEventListener("click", makeZip);
$("run").addEventListener("click", () => {
  let body;
  try {
    body = JSON.parse($<HTMLTextAreaElement>("job").value);
  } catch (e) {
    $("error").textContent = `The job is not JSON: ${(e as Error).message}`;
    return;
  }
  void runJson(body, reloadHistory);
});

// the history
$("hload").addEventListener("click", () => loadHistory(1));
$("hprev").addEventListener("click", () => turnHistory(-1));
$("hnext").addEventListener("click", () => turnHistory(1));

void loadCatalogue();
checkKey();
listBases();
