// ionflow web page: helpers shared by the jobs page and the job page.
// The API token (ionflow serve --api-token) is asked for once, kept in sessionStorage and sent
// as "Authorization: Bearer <token>" with every API request.
"use strict";

const ionflow = (() => {
  const TOKEN_KEY = "ionflow-api-token";
  let tokenPrompt = null;  // a pending Promise while the token dialog is open

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (k === "dataset") Object.assign(e.dataset, v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  function askToken(message) {
    if (tokenPrompt) return tokenPrompt;
    const back = document.getElementById("token-dialog");
    const input = document.getElementById("token-input");
    document.getElementById("token-message").textContent = message;
    back.classList.add("shown");
    input.value = "";
    input.focus();
    tokenPrompt = new Promise((resolve) => {
      const done = () => {
        back.classList.remove("shown");
        sessionStorage.setItem(TOKEN_KEY, input.value.trim());
        tokenPrompt = null;
        resolve();
      };
      document.getElementById("token-ok").onclick = done;
      input.onkeydown = (ev) => { if (ev.key === "Enter") done(); };
    });
    return tokenPrompt;
  }

  // fetch() against the API with the bearer token; asks for the token on a 401 and retries.
  // Resolves to {status, ok, body} (body parsed as JSON when it is JSON), never rejects on an
  // HTTP error status.
  async function api(path, options = {}, retries = 3) {
    const headers = Object.assign({}, options.headers || {});
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) headers["Authorization"] = "Bearer " + token;
    const res = await fetch(path, Object.assign({}, options, { headers }));
    if (res.status === 401 && retries > 0) {
      const body = await res.json().catch(() => ({}));
      // Sent before the token was entered (the page's first requests go out together): retry
      // with it instead of asking again.
      const now = sessionStorage.getItem(TOKEN_KEY);
      if (now && now !== token) return api(path, options, retries - 1);
      await askToken(token ? "The token was not accepted (" + (body.error || "401") + "). Enter the API token:" :
                             "This server needs its API token (ionflow serve --api-token). Enter it:");
      return api(path, options, retries - 1);
    }
    const type = res.headers.get("Content-Type") || "";
    const body = type.includes("json") ? await res.json() : await res.text();
    return { status: res.status, ok: res.ok, body };
  }

  function fmtInt(n) { return n === undefined || n === null ? "–" : Number(n).toLocaleString("en-US"); }
  function fmtSeconds(s) {
    if (s === undefined || s === null || s < 0) return "–";
    if (s < 10) return s.toFixed(2) + " s";
    if (s < 120) return s.toFixed(1) + " s";
    const m = Math.floor(s / 60);
    return m + " min " + Math.round(s - 60 * m) + " s";
  }
  function fmtTime(unix) {
    if (!unix) return "–";
    const d = new Date(unix * 1000);
    const pad = (x) => String(x).padStart(2, "0");
    return d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate()) + " " +
           pad(d.getHours()) + ":" + pad(d.getMinutes()) + ":" + pad(d.getSeconds());
  }
  function fmtBytes(b) {
    if (b === undefined || b === null) return "–";
    const units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let i = 0;
    while (b >= 1024 && i < units.length - 1) { b /= 1024; ++i; }
    return (i === 0 ? b : b.toFixed(1)) + " " + units[i];
  }
  function badge(state) { return el("span", { class: "badge " + state, text: state }); }
  function bar(fraction, label, done) {
    const pct = Math.max(0, Math.min(1, fraction || 0)) * 100;
    const inner = el("div");
    inner.style.width = pct.toFixed(1) + "%";
    return el("div", { class: "bar" + (done ? " done" : "") }, inner, el("span", { text: label || pct.toFixed(0) + "%" }));
  }

  async function showHealth() {
    const box = document.getElementById("health");
    if (!box) return;
    const r = await api("/v1/health");
    if (!r.ok) return;
    const h = r.body;
    box.textContent = "ionflow " + h.version + " · " + h.running_jobs + " of " + h.concurrent_jobs +
                      " job slot(s) busy" + (h.auth ? " · token required" : "");
  }

  return { el, api, fmtInt, fmtSeconds, fmtTime, fmtBytes, badge, bar, showHealth };
})();
