// ionflow job page: live progress, summary, pipeline timeline, plots, PSM table and the
// spectrum view of one PSM. Data from /v1/jobs/ID and its psms, plots and spectrum endpoints.
"use strict";

(() => {
  const { el, api, fmtInt, fmtSeconds, fmtTime, fmtBytes, badge, bar } = ionflow;
  const $ = (id) => document.getElementById(id);
  const id = decodeURIComponent(location.pathname.split("/").pop());
  const NS = "http://www.w3.org/2000/svg";
  let job = null, timer = null, charts = [];
  $("job-id").textContent = id;
  document.title = "ionflow · job " + id;

  // ---- progress ---------------------------------------------------------------------------
  function renderProgress(j) {
    const p = j.progress;
    const rows = [];
    if (j.state === "running" && p) {
      rows.push(["stage", p.stage], ["overall", bar(p.fraction)],
        ["reading", bar(p.bytes_total ? p.bytes_read / p.bytes_total : 0, fmtBytes(p.bytes_read) + " of " + fmtBytes(p.bytes_total))],
        ["spectra read", fmtInt(p.spectra_read)],
        ["scoring", bar(p.queries ? p.queries_scored / p.queries : 0, fmtInt(p.queries_scored) + " of " + fmtInt(p.queries) + " queries")],
        ["chunks", fmtInt(p.chunks_done) + " of " + fmtInt(p.chunks_total)], ["elapsed", fmtSeconds(p.elapsed_seconds)]);
    } else if (j.state === "queued") {
      rows.push(["stage", "waiting for a job slot"]);
    } else {
      rows.push(["stage", j.state], ["overall", bar(j.state === "done" ? 1 : 0, j.state, j.state === "done")]);
    }
    $("progress").replaceChildren(...rows.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", {}, v)]));
    const now = Date.now() / 1000;
    const times = [["priority", j.priority], ["submitted", fmtTime(j.submitted_at)], ["started", fmtTime(j.started_at)],
      ["finished", fmtTime(j.finished_at)], ["run time", j.started_at ? fmtSeconds((j.finished_at || now) - j.started_at) : "–"]];
    $("times").replaceChildren(...times.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })]));
  }

  // ---- summary ----------------------------------------------------------------------------
  function renderSummary(s) {
    const skipped = Object.values(s.spectra_skipped || {}).reduce((a, b) => a + b, 0);
    // Protein groups (parsimony) are what peers count as proteins; "proteins" counts every accession a shared peptide maps
    // to. A job stored before groups were counted has no protein_groups_at_1pct_fdr: "–".
    const cards = [["PSMs at 1% FDR", s.psms_at_1pct_fdr, "psms-at-1pct", true], ["peptides at 1% FDR", s.peptides_at_1pct_fdr, "", true],
      ["protein groups at 1% FDR", s.protein_groups_at_1pct_fdr === undefined ? "–" : s.protein_groups_at_1pct_fdr, "protein-groups-at-1pct", true,
        "parsimonious protein groups: indistinguishable proteins merged, proteins whose peptides another group explains dropped"],
      ["proteins at 1% FDR", s.proteins_at_1pct_fdr, "proteins-at-1pct", true, "every protein accession of the accepted PSMs, all those of a shared peptide"],
      ["spectra read", s.spectra_read], ["spectra skipped", skipped],
      ["spectra searched", s.spectra_searched], ["queries", s.queries], ["PSMs", s.psms], ["peptides in index", s.peptides_in_index],
      ["wall time", fmtSeconds(s.wall_seconds)], ["peak memory", fmtBytes(s.peak_rss_bytes)]];
    $("cards").replaceChildren(...cards.map(([label, value, cid, key, title]) => el("div", { class: "card" + (key ? " key" : ""), title },
      el("div", { class: "label", text: label }), el("div", { class: "value", id: cid || null, text: typeof value === "number" ? fmtInt(value) : value }))));
    const notes = [];
    for (const [reason, n] of Object.entries(s.spectra_skipped || {})) notes.push(fmtInt(n) + " skipped: " + reason);
    if (s.index_scope) notes.push("index: " + s.index_scope);
    if (s.precursor_calibration) notes.push("precursor errors: " + s.precursor_calibration);
    if (s.rescoring) notes.push("rescoring: " + s.rescoring);
    for (const w of s.warnings || []) notes.push("warning: " + w);
    $("summary-notes").textContent = notes.join(" · ");
    $("summary-panel").classList.remove("hidden");
  }

  // ---- timeline ---------------------------------------------------------------------------
  const STAGE_ORDER = ["database", "reader", "parser", "sorter", "splitter", "scorer", "writer"];
  const DISK = new Set(["reader", "writer"]);
  function svg(tag, attrs, text) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function renderTimeline(s) {
    const names = Object.keys(s.stages || {}).sort((a, b) => {
      const ia = STAGE_ORDER.indexOf(a), ib = STAGE_ORDER.indexOf(b);
      return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
    });
    if (!names.length) return;
    let end = s.wall_seconds || 0;
    for (const n of names) end = Math.max(end, s.stages[n].last_active_seconds || 0);
    if (!(end > 0)) end = 1;
    const W = 1100, row = 30, left = 110, right = 230, top = 10;
    const H = top + row * names.length + 36;
    const root = svg("svg", { viewBox: "0 0 " + W + " " + H, id: "timeline-svg" });
    const sx = (t) => left + t / end * (W - left - right);
    // Where disk work (reader, writer) overlapped scoring: a shaded band.
    const span = (n) => s.stages[n] && s.stages[n].first_active_seconds >= 0 ? [s.stages[n].first_active_seconds, s.stages[n].last_active_seconds] : null;
    const scorer = span("scorer");
    for (const d of ["reader", "writer"]) {
      const a = span(d);
      if (!a || !scorer) continue;
      const lo = Math.max(a[0], scorer[0]), hi = Math.min(a[1], scorer[1]);
      if (hi > lo) root.append(svg("rect", { x: sx(lo), y: top - 4, width: Math.max(1, sx(hi) - sx(lo)), height: row * names.length + 4, fill: "rgba(60,154,88,.16)", stroke: "#3c9a58", "stroke-dasharray": "3 3", class: "overlap" }));
    }
    names.forEach((n, k) => {
      const st = s.stages[n];
      const y = top + k * row;
      root.append(svg("text", { x: left - 10, y: y + 18, "text-anchor": "end", "font-weight": 600 }, n));
      root.append(svg("rect", { x: left, y: y + 6, width: W - left - right, height: 16, fill: "#f0f2f5" }));
      const colour = DISK.has(n) ? "#d08a2e" : "#2f74c8";
      const intervals = st.busy_intervals && st.busy_intervals.length ? st.busy_intervals :
                        (st.first_active_seconds >= 0 ? [[st.first_active_seconds, st.last_active_seconds]] : []);
      const active = st.first_active_seconds >= 0 ? st.last_active_seconds - st.first_active_seconds : 0;
      // Without per-interval data, the span's shade says how busy the stage was within it.
      const opacity = st.busy_intervals ? 1 : Math.max(0.25, Math.min(1, active > 0 ? st.busy_seconds / active : 1));
      for (const [a, b] of intervals) {
        const rect = svg("rect", { x: sx(a), y: y + 6, width: Math.max(1.5, sx(b) - sx(a)), height: 16, fill: colour, "fill-opacity": opacity, class: "busy" });
        rect.append(svg("title", {}, n + (st.busy_intervals ? " busy " : " active ") + a.toFixed(2) + "–" + b.toFixed(2) + " s"));
        root.append(rect);
      }
      const per = st.items ? " · " + fmtInt(st.items) + " items" : "";
      root.append(svg("text", { x: W - right + 10, y: y + 18 }, "busy " + fmtSeconds(st.busy_seconds) + per + (st.bytes ? " · " + fmtBytes(st.bytes) : "")));
    });
    const axisY = top + row * names.length + 6;
    root.append(svg("line", { x1: left, y1: axisY, x2: W - right, y2: axisY, stroke: "#6b7684" }));
    const step = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600].find((t) => end / t <= 10) || 1200;
    for (let t = 0; t <= end + 1e-9; t += step) {
      root.append(svg("line", { x1: sx(t), y1: axisY, x2: sx(t), y2: axisY + 4, stroke: "#6b7684" }));
      root.append(svg("text", { x: sx(t), y: axisY + 17, "text-anchor": "middle" }, (Math.round(t * 10) / 10) + " s"));
    }
    $("timeline").replaceChildren(root);
    $("timeline-legend").replaceChildren(el("span", {}, el("i", { class: "swatch-disk" }), "disk (reader, writer)"),
      el("span", {}, el("i", { class: "swatch-cpu" }), "compute"),
      el("span", {}, el("i", { class: "swatch-overlap" }), "disk work overlapping scoring"),
      el("span", { text: st0(s) }));
    $("timeline-panel").classList.remove("hidden");
  }
  function st0(s) {
    return s.stages && s.stages.scorer && !s.stages.scorer.busy_intervals ? "bars span each stage's first to last work; shade = busy share of that span" : "";
  }

  // ---- plots ------------------------------------------------------------------------------
  const blue = "rgba(47,116,200,0.75)", red = "rgba(194,51,31,0.65)", green = "rgba(60,154,88,0.8)";
  function chart(canvasId, config) {
    config.options = Object.assign({ responsive: true, maintainAspectRatio: false, animation: false,
      plugins: { legend: { labels: { boxWidth: 12, font: { size: 11 } } } } }, config.options || {});
    const c = new Chart($(canvasId), config);
    charts.push(c);
    $(canvasId).dataset.points = String(config.data.datasets.reduce((n, d) => n + d.data.filter((v) => (v && v.y !== undefined ? v.y : v) > 0 || (v && v.x !== undefined)).length, 0));
    return c;
  }
  const axis = (title, extra) => Object.assign({ title: { display: true, text: title, font: { size: 11 } }, ticks: { font: { size: 10 } } }, extra || {});
  async function renderPlots() {
    const r = await api("/v1/jobs/" + id + "/plots");
    if (!r.ok) return;
    const p = r.body;
    $("plots-panel").dataset.accepted = p.accepted_psms;
    const binLabels = (h) => h.bin_lo.map((x) => (x + h.bin_width / 2).toFixed(h.bin_width < 1 ? 2 : 1));
    chart("plot-score", { type: "bar", data: { labels: binLabels(p.score), datasets: [
      { label: "targets", data: p.score.target, backgroundColor: blue, barPercentage: 1, categoryPercentage: 1 },
      { label: "decoys", data: p.score.decoy, backgroundColor: red, barPercentage: 1, categoryPercentage: 1 }] },
      options: { scales: { x: axis("hyperscore", { ticks: { maxTicksLimit: 10, font: { size: 10 } } }), y: axis("PSMs") } } });
    chart("plot-q", { type: "line", data: { labels: p.q_curve.q.map((q) => q.toFixed(3)), datasets: [
      { label: "accepted target PSMs", data: p.q_curve.accepted, borderColor: blue, backgroundColor: blue, pointRadius: 0, borderWidth: 2 }] },
      options: { scales: { x: axis("q-value threshold", { ticks: { maxTicksLimit: 11, font: { size: 10 } } }), y: axis("PSMs", { beginAtZero: true }) } } });
    chart("plot-ppm", { type: "bar", data: { labels: binLabels(p.precursor_ppm), datasets: [
      { label: "accepted PSMs", data: p.precursor_ppm.count, backgroundColor: green, barPercentage: 1, categoryPercentage: 1 }] },
      options: { scales: { x: axis("precursor error (ppm)", { ticks: { maxTicksLimit: 12, font: { size: 10 } } }), y: axis("PSMs") } } });
    chart("plot-ppm-rt", { type: "scatter", data: { datasets: [{ label: "accepted PSMs",
      data: p.ppm_vs_rt.rt_minutes.map((x, i) => ({ x, y: p.ppm_vs_rt.ppm[i] })), backgroundColor: blue, pointRadius: 2 }] },
      options: { scales: { x: axis("retention time (min)"), y: axis("precursor error (ppm)") } } });
    chart("plot-charge", { type: "bar", data: { labels: p.charges.charge.map((z) => z + "+"), datasets: [
      { label: "accepted", data: p.charges.accepted, backgroundColor: green }, { label: "all rank 1", data: p.charges.all, backgroundColor: "rgba(120,130,145,0.55)" }] },
      options: { scales: { x: axis("precursor charge"), y: axis("PSMs", { beginAtZero: true }) } } });
    $("plots-panel").classList.remove("hidden");
  }

  // ---- PSM table --------------------------------------------------------------------------
  const SHOWN = [["psm_id", "#", "num"], ["scannr", "spectrum", "mono"], ["charge", "z", "num"], ["peptide", "peptide", "peptide"],
    ["proteins", "proteins", "proteins"], ["hyperscore", "hyperscore", "num"], ["evalue", "E-value", "num"], ["spectrum_q", "q-value", "num"],
    ["precursor_ppm", "ppm", "num"], ["matched_peaks", "matched", "num"], ["rt", "RT (min)", "num"], ["label", "label", "num"]];
  const state = { offset: 0, limit: 50, sort: "spectrum_q", order: "asc" };
  let selectedPsm = null;
  function fmtCell(col, v) {
    if (v === "") return "";
    if (col === "evalue") return Number(v).toExponential(2);
    if (col === "spectrum_q") return Number(v).toFixed(4);
    if (col === "hyperscore" || col === "precursor_ppm" || col === "rt") return Number(v).toFixed(2);
    if (col === "scannr") { const m = /scan=(\d+)/.exec(v); return m ? "scan " + m[1] : v; }
    if (col === "label") return v === "1" ? "target" : "decoy";
    return v;
  }
  async function loadPsms() {
    const q = new URLSearchParams({ offset: state.offset, limit: state.limit, sort: state.sort, order: state.order });
    const f = $("psm-filter").value.trim();
    if (f) q.set("filter", f);
    if ($("psm-q").value) q.set("max_q", $("psm-q").value);
    if ($("psm-label").value) q.set("label", $("psm-label").value);
    if ($("psm-rank1").checked) q.set("rank", "1");
    const started = performance.now();
    const r = await api("/v1/jobs/" + id + "/psms?" + q);
    if (!r.ok) { $("psm-count").textContent = r.body.error; return; }
    const d = r.body;
    const idx = Object.fromEntries(d.columns.map((c, i) => [c, i]));
    const head = el("tr", {}, ...SHOWN.map(([col, label, cls]) => el("th", {
      class: "sortable " + (cls === "num" ? "num " : "") + (state.sort === col ? "sorted-" + state.order : ""), dataset: { col },
      onclick: () => { state.order = state.sort === col && state.order === "asc" ? "desc" : "asc"; state.sort = col; state.offset = 0; loadPsms(); } }, label)));
    $("psms").querySelector("thead").replaceChildren(head);
    $("psms").querySelector("tbody").replaceChildren(...d.rows.map((row) => {
      const psm = row[idx.psm_id];
      return el("tr", { class: "clickable" + (psm === selectedPsm ? " selected" : ""), dataset: { psm }, onclick: () => showSpectrum(psm) },
        ...SHOWN.map(([col, , cls]) => el("td", { class: cls, text: idx[col] === undefined ? "" : fmtCell(col, row[idx[col]]), title: col === "proteins" ? row[idx[col]] : null })));
    }));
    const last = Math.min(d.offset + d.rows.length, d.matched);
    $("psm-count").textContent = d.matched ? "PSMs " + fmtInt(d.offset + 1) + "–" + fmtInt(last) + " of " + fmtInt(d.matched) +
      " matching (" + fmtInt(d.total) + " in results.tsv)" : "no PSM matches (" + fmtInt(d.total) + " in results.tsv)";
    $("psm-count").dataset.matched = d.matched;
    $("psm-prev").disabled = d.offset === 0;
    $("psm-next").disabled = last >= d.matched;
    $("psm-panel").dataset.loadMs = String(Math.round(performance.now() - started));
    $("psm-panel").classList.remove("hidden");
  }
  let filterTimer = null;
  $("psm-filter").addEventListener("input", () => { clearTimeout(filterTimer); filterTimer = setTimeout(() => { state.offset = 0; loadPsms(); }, 250); });
  for (const idc of ["psm-q", "psm-label", "psm-rank1"]) $(idc).addEventListener("change", () => { state.offset = 0; loadPsms(); });
  $("psm-prev").onclick = () => { state.offset = Math.max(0, state.offset - state.limit); loadPsms(); };
  $("psm-next").onclick = () => { state.offset += state.limit; loadPsms(); };

  // ---- spectrum view ------------------------------------------------------------------------
  async function showSpectrum(psm) {
    selectedPsm = psm;
    document.querySelectorAll("#psms tbody tr").forEach((tr) => tr.classList.toggle("selected", tr.dataset.psm === psm));
    const panel = $("spectrum-panel");
    panel.classList.add("shown");
    panel.dataset.state = "loading";
    const r = await api("/v1/jobs/" + id + "/spectrum?psm=" + encodeURIComponent(psm));
    $("spectrum-error").classList.toggle("shown", !r.ok);
    if (!r.ok) { $("spectrum-error").textContent = r.body.error; panel.dataset.state = "error"; return; }
    ionflowSpectrum.render(r.body);
    panel.dataset.psm = psm;
    panel.dataset.state = "ready";
    panel.scrollIntoView({ behavior: "instant", block: "start" });
  }
  $("spectrum-close").onclick = () => $("spectrum-panel").classList.remove("shown");

  // ---- downloads (fetched with the token, then saved) ------------------------------------------
  function renderDownloads(j) {
    const files = (j.result_files || []).map((p) => p.split("/").pop());
    $("downloads").replaceChildren(...(files.length ? [el("span", { class: "hint", text: "download " })] : []), ...files.map((name) =>
      el("button", { class: "small", text: name, dataset: { file: name }, onclick: async () => {
        const token = sessionStorage.getItem("ionflow-api-token");
        const res = await fetch("/v1/jobs/" + id + "/files/" + name, { headers: token ? { Authorization: "Bearer " + token } : {} });
        if (!res.ok) return;
        const url = URL.createObjectURL(await res.blob());
        const a = el("a", { href: url, download: name });
        document.body.append(a); a.click(); a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10000);
      } })));
  }

  // ---- the job --------------------------------------------------------------------------------
  async function refresh() {
    const r = await api("/v1/jobs/" + id);
    if (!r.ok) {
      $("job-error").textContent = r.body.error || ("HTTP " + r.status);
      $("job-error").classList.add("shown");
      return;
    }
    const before = job ? job.state : null;
    job = r.body;
    $("job-state").replaceChildren(badge(job.state));
    $("cancel").classList.toggle("hidden", !(job.state === "queued" || job.state === "running"));
    if (job.error) { $("job-error").textContent = job.error; $("job-error").classList.add("shown"); }
    renderProgress(job);
    if (job.state === "done" && before !== "done") {
      clearInterval(timer);
      if (job.summary) { renderSummary(job.summary); renderTimeline(job.summary); }
      renderDownloads(job);
      await Promise.all([renderPlots(), loadPsms()]);
      document.body.dataset.ready = "true";
    } else if (job.state === "failed" || job.state === "cancelled") {
      clearInterval(timer);
      document.body.dataset.ready = "true";
    }
  }
  $("cancel").onclick = async () => { await api("/v1/jobs/" + id, { method: "DELETE" }); refresh(); };
  ionflow.showHealth();
  refresh();
  timer = setInterval(refresh, 1000);
})();
