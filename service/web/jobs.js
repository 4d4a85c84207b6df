// ionflow jobs page: the job list (polled), the scorer pool, and the search form.
"use strict";

(() => {
  const { el, api, fmtInt, fmtSeconds, fmtTime, fmtBytes, badge, bar } = ionflow;
  const $ = (id) => document.getElementById(id);
  const psmsAt1pct = new Map();  // job id -> PSMs at 1% FDR (done jobs do not change)

  // ---- job list -------------------------------------------------------------------------
  async function fetchPsms(id) {
    psmsAt1pct.set(id, null);
    const r = await api("/v1/jobs/" + id);
    if (r.ok && r.body.summary) psmsAt1pct.set(id, r.body.summary.psms_at_1pct_fdr);
  }

  function jobRow(job) {
    const now = Date.now() / 1000;
    let time = "";
    if (job.started_at) time = fmtSeconds((job.finished_at || now) - job.started_at);
    let progress;
    if (job.state === "running" && job.progress) {
      const p = job.progress;
      progress = bar(p.fraction, p.stage + " " + Math.round(100 * (p.fraction || 0)) + "%");
    } else if (job.state === "done") {
      progress = bar(1, "done", true);
    } else {
      progress = el("span", { class: "hint", text: job.state === "queued" ? "waiting" : (job.error || "") });
    }
    if (job.state === "done" && !psmsAt1pct.has(job.id)) fetchPsms(job.id);
    const psms = psmsAt1pct.get(job.id);
    const cancellable = job.state === "queued" || job.state === "running";
    return el("tr", { dataset: { id: job.id, state: job.state } },
      el("td", { class: "mono" }, el("a", { href: "/jobs/" + job.id, text: job.id })),
      el("td", {}, badge(job.state)),
      el("td", { class: "num", text: job.priority }),
      el("td", { class: "nowrap", text: fmtTime(job.submitted_at) }),
      el("td", { class: "num", text: time }),
      el("td", {}, progress),
      el("td", { class: "num psms", text: psms === undefined || psms === null ? "" : fmtInt(psms) }),
      el("td", {}, cancellable ? el("button", { class: "small danger", text: job.cancel_requested ? "stopping…" : "Cancel",
        disabled: job.cancel_requested, onclick: () => cancel(job.id) }) : null));
  }

  async function cancel(id) {
    await api("/v1/jobs/" + id, { method: "DELETE" });
    refreshJobs();
  }

  async function refreshJobs() {
    const state = $("state-filter").value;
    const r = await api("/v1/jobs?limit=200" + (state ? "&state=" + state : ""));
    if (!r.ok) return;
    const tbody = $("jobs").querySelector("tbody");
    tbody.replaceChildren(...r.body.jobs.map(jobRow));
    $("jobs-empty").classList.toggle("hidden", r.body.jobs.length > 0);
  }

  // ---- scorer pool ----------------------------------------------------------------------
  async function refreshScorers() {
    const r = await api("/v1/scorers");
    if (!r.ok) return;
    const s = r.body;
    const rows = [["scorers", s.scorers], ["licensed cores", s.licensed_cores],
      ["autoscaler bounds", s.min_scorers + " – " + s.max_scorers], ["target", s.target],
      ["autoscaling", s.autoscaling ? (s.pinned ? "on, pinned" : "on") : "off"],
      ["backlog", fmtInt(s.backlog_chunks) + " chunk(s)"],
      ["local scorers", s.local_scorers],
      ...(s.nodes || []).map((n) => ["node " + n.name,
        n.scorers + " scorer(s), " + fmtInt(n.chunks_scored) + " chunk(s) scored"])];
    $("scorers").replaceChildren(...rows.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })]));
  }
  async function putScorers(body) {
    const r = await api("/v1/scorers", { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    $("scorer-error").textContent = r.ok ? "" : r.body.error;
    $("scorer-error").classList.toggle("shown", !r.ok);
    refreshScorers();
  }
  $("scorer-resize").onclick = () => putScorers({ count: Number($("scorer-count").value) });
  $("scorer-autoscale").onclick = () => putScorers({ autoscale: true });

  // ---- form: chips ----------------------------------------------------------------------
  const spectra = [];
  function renderSpectra() {
    const box = $("spectra-list");
    box.replaceChildren(...spectra.map((p, i) => el("span", { class: "chip mono" }, p,
      el("button", { type: "button", title: "remove", text: "×", onclick: () => { spectra.splice(i, 1); renderSpectra(); syncJson(); } }))),
      el("input", { type: "text", id: "spectra-input", placeholder: spectra.length ? "" : "path of an mzML/MGF file, Enter to add",
        onkeydown: (ev) => { if (ev.key === "Enter") { ev.preventDefault(); addSpectra(ev.target.value.trim()); } } }));
  }
  function addSpectra(path) {
    if (path && !spectra.includes(path)) spectra.push(path);
    renderSpectra();
    syncJson();
    $("spectra-input").focus();
  }

  // A modification list with search-as-you-type over Unimod names (GET /v1/modifications).
  function modChips(boxId, initial) {
    const box = $(boxId);
    const mods = initial.slice();
    const input = el("input", { type: "text", placeholder: "type a Unimod name, e.g. Oxidation" });
    const list = el("div", { class: "suggest hidden" });
    let active = -1, items = [], seq = 0;
    function render() {
      box.replaceChildren(...mods.map((m, i) => el("span", { class: "chip" }, m,
        el("button", { type: "button", title: "remove", text: "×", onclick: () => { mods.splice(i, 1); render(); syncJson(); } }))), input, list);
    }
    function add(name) {
      if (name && !mods.includes(name)) mods.push(name);
      input.value = "";
      list.classList.add("hidden");
      render();
      syncJson();
      input.focus();
    }
    async function suggest() {
      const q = input.value.trim();
      const mine = ++seq;
      if (!q) { list.classList.add("hidden"); return; }
      const r = await api("/v1/modifications?limit=12&q=" + encodeURIComponent(q));
      if (mine !== seq || !r.ok) return;
      items = r.body.modifications;
      active = items.length ? 0 : -1;
      list.replaceChildren(...items.map((m, i) => el("div", { class: i === active ? "active" : "", onmousedown: (ev) => { ev.preventDefault(); add(m.name); } },
        el("span", { text: m.name }), el("span", { class: "mass", text: (m.mono_mass_da >= 0 ? "+" : "") + m.mono_mass_da.toFixed(4) + " Da · UNIMOD:" + m.accession }))));
      list.classList.toggle("hidden", items.length === 0);
    }
    input.addEventListener("input", suggest);
    input.addEventListener("blur", () => setTimeout(() => list.classList.add("hidden"), 150));
    input.addEventListener("keydown", (ev) => {
      if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
        ev.preventDefault();
        if (!items.length) return;
        active = (active + (ev.key === "ArrowDown" ? 1 : items.length - 1)) % items.length;
        [...list.children].forEach((c, i) => c.classList.toggle("active", i === active));
      } else if (ev.key === "Enter") {
        ev.preventDefault();
        // Enter takes the highlighted suggestion; with the list closed, the text as typed.
        add(!list.classList.contains("hidden") && active >= 0 ? items[active].name : input.value.trim());
      } else if (ev.key === "Escape") {
        list.classList.add("hidden");
      }
    });
    render();
    return mods;
  }
  const fixedMods = modChips("fixed-mods", ["Carbamidomethyl (C)"]);
  const variableMods = modChips("variable-mods", ["Oxidation (M)"]);

  // ---- form -> job message ----------------------------------------------------------------
  let jsonEdited = false;
  function tolerance(value, unit) {
    const x = Number(value);
    return { [unit]: [-x, x] };
  }
  function message() {
    const formats = [...document.querySelectorAll("input[name=format]:checked")].map((c) => c.value);
    const generate = $("generate-decoys").checked;
    const msg = {
      database: {
        fasta: $("fasta").value.trim(),
        enzyme: { missed_cleavages: Number($("missed-cleavages").value) },
        max_variable_mods: Number($("max-variable-mods").value),
        decoy_tag: $("decoy-tag").value,
        generate_decoys: generate,
      },
      enzyme: $("enzyme").value,
      mzml_paths: spectra.slice(),
      precursor_tol: tolerance($("precursor-tol").value, $("precursor-unit").value),
      isotope_errors: [Number($("isotope-lo").value), Number($("isotope-hi").value)],
      fragment_tol: tolerance($("fragment-tol").value, $("fragment-unit").value),
      fixed_modifications: fixedMods.slice(),
      variable_modifications: variableMods.slice(),
      output_formats: formats,
      priority: Number($("priority").value),
    };
    return msg;
  }
  function syncJson() {
    if (jsonEdited) return;
    $("job-json").value = JSON.stringify(message(), null, 2);
  }
  $("job-form").addEventListener("input", (ev) => { if (ev.target.id !== "job-json") syncJson(); });
  $("job-form").addEventListener("change", (ev) => { if (ev.target.id !== "job-json") syncJson(); });
  $("job-json").addEventListener("input", () => {
    jsonEdited = true;
    $("json-state").textContent = "Edited by hand: this JSON is what will be submitted.";
  });
  $("json-reset").onclick = () => {
    jsonEdited = false;
    $("json-state").textContent = "Follows the form; edit it to submit your own JSON.";
    syncJson();
  };

  function clearErrors() {
    document.querySelectorAll(".field-error").forEach((e) => { e.textContent = ""; e.classList.remove("shown"); });
    document.querySelectorAll(".has-error").forEach((e) => e.classList.remove("has-error"));
    for (const id of ["submit-error", "submit-ok"]) $(id).classList.remove("shown");
  }
  // Shows `text` beside the form field whose data-key is the longest prefix of the API's field
  // ("database.enzyme.missed_cleavages", "variable_modifications[0]"); the JSON box otherwise.
  function showFieldError(field, text) {
    const path = (field || "").replace(/\[\d+\]/g, "");
    let best = null, bestLen = -1;
    for (const e of document.querySelectorAll("[data-key]")) {
      const key = e.dataset.key;
      if (key.length > bestLen && (path === key || path.startsWith(key + ".") || (key === "" && bestLen < 0))) {
        best = e; bestLen = key.length;
      }
    }
    const fieldBox = best ? best.closest(".field") : null;
    const target = fieldBox ? fieldBox.querySelector(".field-error") : $("json-error");
    target.textContent = text;
    target.classList.add("shown");
    if (fieldBox) fieldBox.classList.add("has-error");
    return target;
  }

  $("job-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    clearErrors();
    let text = $("job-json").value;
    if (!jsonEdited) text = JSON.stringify(message(), null, 2);
    $("submit").disabled = true;
    try {
      const r = await api("/v1/jobs", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
      if (r.status === 201) {
        const ok = $("submit-ok");
        ok.replaceChildren("Job ", el("a", { href: "/jobs/" + r.body.id, text: r.body.id, id: "submitted-job" }), " queued.",
          ...(r.body.warnings || []).map((w) => el("div", { class: "hint", text: "warning: " + w })));
        ok.classList.add("shown");
        refreshJobs();
      } else {
        const body = typeof r.body === "object" ? r.body : { error: String(r.body) };
        showFieldError(body.field, body.error);
        const box = $("submit-error");
        box.textContent = "HTTP " + r.status + ": " + body.error;
        box.classList.add("shown");
      }
    } finally {
      $("submit").disabled = false;
    }
  });

  // ---- file browser -------------------------------------------------------------------------
  let browseTarget = null;
  async function browse(path) {
    const r = await api("/v1/files" + (path ? "?path=" + encodeURIComponent(path) : ""));
    const err = $("files-error");
    err.textContent = r.ok ? "" : r.body.error;
    err.classList.toggle("shown", !r.ok);
    if (!r.ok) return;
    const d = r.body;
    $("files-path").value = d.path;
    $("files-up").dataset.parent = d.parent;
    $("files-up").disabled = !d.path;
    $("files-list").replaceChildren(...d.entries.map((e) => {
      const wanted = e.type === "directory" || e.kind === browseTarget;
      return el("div", { class: "entry" + (e.type === "directory" ? " dir" : "") + (wanted ? "" : " muted"), dataset: { path: e.path },
        onclick: () => {
          if (e.type === "directory") return browse(e.path);
          if (browseTarget === "spectra") addSpectra(e.path); else { $("fasta").value = e.path; syncJson(); }
          $("files-dialog").classList.remove("shown");
        } }, el("span", { class: "name", text: e.name }), el("span", { class: "size", text: e.type === "file" ? fmtBytes(e.bytes) : "" }));
    }));
  }
  function openBrowser(kind) {
    browseTarget = kind;
    $("files-kind").textContent = kind === "spectra" ? "spectra files" : "a FASTA file";
    $("files-dialog").classList.add("shown");
    browse($("files-path").value || "");
  }
  $("browse-spectra").onclick = () => openBrowser("spectra");
  $("browse-fasta").onclick = () => openBrowser("fasta");
  $("files-go").onclick = () => browse($("files-path").value.trim());
  $("files-path").addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); browse(ev.target.value.trim()); } });
  $("files-up").onclick = () => browse($("files-up").dataset.parent || "");
  $("files-close").onclick = () => $("files-dialog").classList.remove("shown");

  // ---- uploads: sent in pieces of 512 KiB, or of the server's request-body limit when smaller,
  // each giving the whole file's size: the server stages the pieces out of sight and the file
  // takes its name whole with the last one (never listed or read by a job half-done) ----
  async function upload(file, onDone) {
    const ok = $("submit-ok");
    const health = await api("/v1/health");
    const limit = health.ok ? Number(health.body.max_body_bytes) : 0;
    const chunk = limit > 0 ? Math.min(512 * 1024, limit) : 512 * 1024;
    const name = file.name.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^[.]+/, "");
    let upload = "";  // the server's id of this upload, from its first piece
    const fail = (message) => {
      showFieldError(onDone === addSpectra ? "mzml_paths" : "database.fasta", "upload: " + message);
      ok.classList.remove("shown");
    };
    for (let offset = 0; offset < file.size || offset === 0; offset += chunk) {
      ok.textContent = "Uploading " + file.name + ": " + fmtBytes(offset) + " of " + fmtBytes(file.size);
      ok.classList.add("shown");
      const r = await api("/v1/uploads/" + encodeURIComponent(name) + "?offset=" + offset + "&size=" + file.size +
                          (upload ? "&upload=" + encodeURIComponent(upload) : ""),
                          { method: "PUT", headers: { "Content-Type": "application/octet-stream" }, body: file.slice(offset, offset + chunk) });
      if (r.ok && offset === 0) upload = r.body.upload || "";
      if (!r.ok) return fail(r.body.error);
      const last = offset + chunk >= file.size;
      if (last && !r.body.complete) return fail("the server did not complete " + name + " (" + fmtBytes(r.body.bytes) + " of " + fmtBytes(file.size) + ")");
      if (last) { ok.textContent = "Uploaded " + file.name + " (" + fmtBytes(file.size) + ")"; onDone(r.body.path); return; }
    }
  }
  $("upload-spectra").onchange = async (ev) => { for (const f of ev.target.files) await upload(f, addSpectra); };
  $("upload-fasta").onchange = async (ev) => { if (ev.target.files[0]) await upload(ev.target.files[0], (p) => { $("fasta").value = p; syncJson(); }); };

  // ---- start --------------------------------------------------------------------------------
  $("state-filter").onchange = refreshJobs;
  renderSpectra();
  syncJson();
  refreshJobs();
  refreshScorers();
  ionflow.showHealth();
  setInterval(refreshJobs, 1000);
  setInterval(refreshScorers, 2000);
  setInterval(ionflow.showHealth, 5000);
})();
