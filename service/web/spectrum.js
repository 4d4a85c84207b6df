// ionflow spectrum view: a PSM's measured peaks with the matched fragment ions labelled
// (drawn as SVG), the peptide's fragmentation ladder, Mascot's fragment-ion table and the
// fragment error of each match. Data: GET /v1/jobs/ID/spectrum?psm=N.
"use strict";

const ionflowSpectrum = (() => {
  const { el } = ionflow;
  const NS = "http://www.w3.org/2000/svg";
  const colour = { b: "#1f5fae", y: "#c2331f" };
  const ionColour = (type) => colour[type] || "#2f8a4a";

  function svg(tag, attrs, text) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function niceTicks(lo, hi, n) {
    const span = hi - lo;
    const step0 = span / n;
    const mag = Math.pow(10, Math.floor(Math.log10(step0)));
    const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= step0) || mag * 10;
    const out = [];
    for (let t = Math.ceil(lo / step) * step; t <= hi + 1e-9; t += step) out.push(t);
    return out;
  }

  // Axes in a box [x0, x1] x [y0, y1] (SVG coordinates, y0 top).
  function axes(root, box, xr, yr, xlabel, ylabel) {
    const [x0, x1, y0, y1] = box;
    const sx = (x) => x0 + (x - xr[0]) / (xr[1] - xr[0]) * (x1 - x0);
    const sy = (y) => y1 - (y - yr[0]) / (yr[1] - yr[0]) * (y1 - y0);
    root.append(svg("line", { x1: x0, y1: y1, x2: x1, y2: y1, stroke: "#6b7684" }));
    root.append(svg("line", { x1: x0, y1: y0, x2: x0, y2: y1, stroke: "#6b7684" }));
    for (const t of niceTicks(xr[0], xr[1], 10)) {
      root.append(svg("line", { x1: sx(t), y1: y1, x2: sx(t), y2: y1 + 4, stroke: "#6b7684" }));
      root.append(svg("text", { x: sx(t), y: y1 + 16, "text-anchor": "middle", "font-size": 11, fill: "#3a4556" }, String(Math.round(t * 100) / 100)));
    }
    for (const t of niceTicks(yr[0], yr[1], 5)) {
      root.append(svg("line", { x1: x0 - 4, y1: sy(t), x2: x0, y2: sy(t), stroke: "#6b7684" }));
      root.append(svg("line", { x1: x0, y1: sy(t), x2: x1, y2: sy(t), stroke: "#eef0f3" }));
      root.append(svg("text", { x: x0 - 7, y: sy(t) + 4, "text-anchor": "end", "font-size": 11, fill: "#3a4556" }, String(Math.round(t * 1000) / 1000)));
    }
    root.append(svg("text", { x: (x0 + x1) / 2, y: y1 + 32, "text-anchor": "middle", "font-size": 12, fill: "#3a4556" }, xlabel));
    root.append(svg("text", { x: 14, y: (y0 + y1) / 2, "text-anchor": "middle", "font-size": 12, fill: "#3a4556", transform: "rotate(-90 14 " + (y0 + y1) / 2 + ")" }, ylabel));
    return { sx, sy };
  }

  function peakPlot(d) {
    const W = 1100, H = 380, box = [60, W - 15, 20, H - 45];
    const root = svg("svg", { viewBox: "0 0 " + W + " " + H, id: "spectrum-svg", role: "img" });
    const mz = d.peaks.mz, inten = d.peaks.intensity;
    const matched = d.ions.filter((i) => i.matched);
    const allMz = mz.concat(matched.map((i) => i.observed_mz));
    const lo = Math.max(0, Math.min(...allMz) - 20), hi = Math.max(...allMz, d.precursor_mz) + 20;
    const { sx, sy } = axes(root, box, [lo, hi], [0, 115], "m/z", "relative intensity (%)");
    // Each matched ion's measured peak: the raw peak at its m/z (prepared peaks keep the raw m/z).
    const peakOf = (obs) => {
      let best = -1, bestD = Infinity;
      for (let i = 0; i < mz.length; ++i) { const dd = Math.abs(mz[i] - obs); if (dd < bestD) { bestD = dd; best = i; } }
      return bestD < 1e-3 ? best : -1;
    };
    const labelsAt = new Map();  // raw peak index -> matched ions
    for (const ion of matched) {
      const p = peakOf(ion.observed_mz);
      const key = p >= 0 ? p : "obs" + ion.observed_mz;
      if (!labelsAt.has(key)) labelsAt.set(key, { p, mz: ion.observed_mz, ions: [] });
      labelsAt.get(key).ions.push(ion);
    }
    const matchedPeaks = new Set([...labelsAt.values()].map((v) => v.p));
    const g = svg("g", {});
    for (let i = 0; i < mz.length; ++i) {
      if (matchedPeaks.has(i)) continue;
      g.append(svg("line", { x1: sx(mz[i]), x2: sx(mz[i]), y1: sy(0), y2: sy(inten[i]), stroke: "#9aa3ae", "stroke-width": 1, class: "peak" }));
    }
    root.append(g);
    const labels = svg("g", {});
    for (const v of labelsAt.values()) {
      const y = v.p >= 0 ? inten[v.p] : 2;
      const c = ionColour(v.ions[0].type);
      labels.append(svg("line", { x1: sx(v.mz), x2: sx(v.mz), y1: sy(0), y2: sy(y), stroke: c, "stroke-width": 2, class: "peak matched" }));
      v.ions.forEach((ion, k) => {
        const t = svg("text", { x: sx(v.mz), y: sy(y) - 4 - 12 * k, "text-anchor": "middle", "font-size": 11, "font-weight": 600, fill: ionColour(ion.type), class: "ion-label" }, ion.ion);
        t.append(svg("title", {}, ion.ion + "  theoretical " + ion.mz.toFixed(4) + ", measured " + ion.observed_mz.toFixed(4) + " (" + ion.error_da.toFixed(4) + " Da)"));
        labels.append(t);
      });
    }
    root.append(labels);
    // Precursor m/z marker.
    root.append(svg("line", { x1: sx(d.precursor_mz), x2: sx(d.precursor_mz), y1: sy(0), y2: sy(112), stroke: "#8a3ab9", "stroke-dasharray": "4 3" }));
    root.append(svg("text", { x: sx(d.precursor_mz) + 4, y: sy(110), "font-size": 11, fill: "#8a3ab9" }, "precursor " + d.precursor_mz.toFixed(3) + " (" + d.charge + "+)"));
    return root;
  }

  function errorPlot(d) {
    const ppm = d.fragment_tolerance.unit === "ppm";
    const W = 520, H = 230, box = [62, W - 10, 12, H - 42];
    const root = svg("svg", { viewBox: "0 0 " + W + " " + H, id: "error-svg" });
    const matched = d.ions.filter((i) => i.matched);
    const err = (i) => ppm ? i.error_ppm : i.error_da;
    const lim = Math.max(Math.abs(d.fragment_tolerance.lower), Math.abs(d.fragment_tolerance.upper));
    const mzs = matched.map((i) => i.mz);
    const lo = mzs.length ? Math.min(...mzs) - 20 : 0, hi = mzs.length ? Math.max(...mzs) + 20 : 1;
    const { sx, sy } = axes(root, box, [Math.max(0, lo), hi], [-lim, lim], "m/z", ppm ? "error (ppm)" : "error (Da)");
    for (const i of matched) {
      root.append(svg("circle", { cx: sx(i.mz), cy: sy(err(i)), r: 3.5, fill: ionColour(i.type), class: "error-point" }));
    }
    return root;
  }

  function ladder(d) {
    const n = d.sequence.length;
    const b = new Set(), y = new Set();
    for (const i of d.ions) {
      if (!i.matched) continue;
      if (i.type === "b" || i.type === "a" || i.type === "c") b.add(i.ordinal);
      else y.add(i.ordinal);
    }
    const modsAt = new Map();
    for (const m of d.modifications) modsAt.set(m.position, (modsAt.get(m.position) || []).concat(m));
    const out = [];
    for (let k = 0; k < n; ++k) {
      const mods = modsAt.get(k) || [];
      const title = mods.map((m) => (m.name || m.tag) + " " + (m.mass_delta_da >= 0 ? "+" : "") + m.mass_delta_da.toFixed(4) + " Da").join(", ");
      out.push(el("span", { class: "res" + (mods.length ? " mod" : ""), title: title || null }, d.sequence[k],
        k < n - 1 && b.has(k + 1) ? el("span", { class: "bmark" }) : null,
        k < n - 1 && y.has(n - 1 - k) ? el("span", { class: "ymark" }) : null));
    }
    return out;
  }

  // Mascot's table: one row per residue, b-type columns counted from the N-terminus, y-type ones
  // from the C-terminus; a matched ion's cell is coloured.
  function ionTable(d) {
    const n = d.sequence.length;
    const kinds = [];
    for (const i of d.ions) {
      const key = i.type + "|" + i.charge;
      if (!kinds.some((k) => k.key === key)) kinds.push({ key, type: i.type, charge: i.charge });
    }
    const nTerm = kinds.filter((k) => "abc".includes(k.type)), cTerm = kinds.filter((k) => "yz".includes(k.type));
    const find = (type, charge, ordinal) => d.ions.find((i) => i.type === type && i.charge === charge && i.ordinal === ordinal);
    const head = el("tr", {}, el("th", { text: "#" }), ...nTerm.map((k) => el("th", { text: k.type + "+".repeat(k.charge) })),
      el("th", { text: "seq" }), ...cTerm.map((k) => el("th", { text: k.type + "+".repeat(k.charge) })), el("th", { text: "#" }));
    const rows = [];
    for (let k = 0; k < n; ++k) {
      const cell = (kind, ordinal) => {
        const ion = ordinal >= 1 && ordinal <= n - 1 ? find(kind.type, kind.charge, ordinal) : null;
        const cls = (kind.type === "b" ? "b" : kind.type === "y" ? "y" : "o") + (ion && ion.matched ? " matched" : "");
        return el("td", { class: cls, text: ion ? ion.mz.toFixed(4) : "" });
      };
      rows.push(el("tr", {}, el("td", { text: k + 1 }), ...nTerm.map((kind) => cell(kind, k + 1)),
        el("td", { class: "mono", text: d.sequence[k] }), ...cTerm.map((kind) => cell(kind, n - k)), el("td", { text: n - k })));
    }
    return el("table", { class: "data ions" }, el("thead", {}, head), el("tbody", {}, rows));
  }

  function render(d) {
    document.getElementById("spectrum-title").textContent = d.peptide + "  ·  " + d.filename + "  " + d.scannr;
    document.getElementById("ladder").replaceChildren(...ladder(d));
    document.getElementById("spectrum").replaceChildren(peakPlot(d));
    document.getElementById("ion-table").replaceChildren(ionTable(d));
    document.getElementById("error-plot").replaceChildren(errorPlot(d));
    const facts = [["PSM", d.psm_id], ["precursor m/z", d.precursor_mz.toFixed(4) + " (" + d.charge + "+)"],
      ["retention time", d.rt_seconds >= 0 ? (d.rt_seconds / 60).toFixed(2) + " min" : "–"],
      ["matched ions", d.matched_peaks + " of " + d.ions.length], ["measured peaks", d.peaks.mz.length + " (" + d.prepared_peaks.mz.length + " after preparation, " + d.scored_peaks.mz.length + " matched against)"],
      ["fragment tolerance", d.fragment_tolerance.lower + " to " + d.fragment_tolerance.upper + " " + (d.fragment_tolerance.unit === "da" ? "Da" : "ppm")],
      ["modifications", d.modifications.map((m) => (m.name || m.tag) + (m.residue ? " (" + m.residue + (m.position + 1) + ")" : m.position < 0 ? " (N-term)" : " (C-term)")).join(", ") || "none"]];
    document.getElementById("spectrum-facts").replaceChildren(...facts.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })]));
  }

  return { render };
})();
