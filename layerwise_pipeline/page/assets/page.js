"use strict";
// The page's behaviour: no fetch, no timer; every number comes from the page data (the plan's
// numbers as the video writes them, with their plan paths), never computed here.
(function () {
  const D = JSON.parse(document.getElementById("page-data").textContent);
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const NS = "http://www.w3.org/2000/svg";
  const video = $("video"), layerIn = $("layer"), headIn = $("head");
  const state = { part: -1, beat: -1, layer: 0, head: 0 };

  function clock(t) {
    const m = Math.floor(t / 60), s = Math.floor(t % 60);
    return m + ":" + String(s).padStart(2, "0");
  }
  const num = (c) => el("span", { class: "num", "data-path": c.p }, c.t);

  // --- header and outline ---
  $("title").textContent = D.title;
  function header(part) {
    $("about").textContent = "Model: " + part.model + ". Every number below is the plan's, " +
      "rounded as in the video; hover or focus a number to see its plan path.";
    const ol = $("sentences");
    ol.replaceChildren(...part.sentences.map((s) => el("li", {}, s)));
  }
  const beatButtons = [];
  D.parts.forEach((part, pi) => {
    if (D.parts.length > 1) $("outline").append(el("li", { class: "part" }, part.title));
    part.beats.forEach((b, bi) => {
      const li = el("li"), btn = el("button", { type: "button", "data-beat": b.id });
      btn.append(el("span", { class: "time" }, clock(part.offset + b.start)),
                 document.createTextNode(b.caption || b.id));
      btn.title = b.narration;
      btn.addEventListener("click", () => {
        seek(part.offset + b.start);
        select(pi, bi);
        showCue(part.offset + b.start);
      });
      btn.addEventListener("keydown", (e) => {
        const i = beatButtons.indexOf(btn);
        const j = e.key === "ArrowDown" ? i + 1 : e.key === "ArrowUp" ? i - 1 : -1;
        if (j >= 0 && j < beatButtons.length) { beatButtons[j].focus(); e.preventDefault(); }
      });
      beatButtons.push(btn);
      li.append(btn);
      $("outline").append(li);
    });
  });

  function seek(t) {
    if (video && !video.error && video.readyState > 0) video.currentTime = t + 0.01;
  }

  // --- panels ---
  function panelBody(p, body) {
    const cell = p.cells[state.layer];
    body.replaceChildren();
    if (!cell) { body.append(el("span", { class: "more" }, "not at this layer")); return; }
    if (p.kind === "series") body.append(num(cell));
    else if (p.kind === "vector") {
      body.append(...cell.items.map(num));
      if (cell.n > cell.items.length)
        body.append(el("span", { class: "more" }, "… (" + cell.n + " numbers)"));
    } else if (p.kind === "ranked") {
      const ol = el("ol", { class: "toplist" });
      cell.forEach((c) => {
        const li = el("li", {}, c.tok + " ");
        li.append(num(c));
        ol.append(li);
      });
      body.append(ol);
    } else if (p.kind === "attention") attention(p, cell, body);
  }

  function attention(p, cell, body) {
    const h = p.heads[0] === null ? 0 : Math.min(state.head, cell.length - 1);
    const row = cell[h], n = p.tokens.length, q = p.focus;
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("class", "arcs");
    svg.setAttribute("viewBox", "0 0 " + n * 10 + " 70");
    svg.setAttribute("preserveAspectRatio", "none");
    svg.setAttribute("aria-hidden", "true");
    row.forEach((c, k) => {
      const x0 = q * 10 + 5, x1 = k * 10 + 5, top = 68 - Math.min(60, 8 + Math.abs(k - q) * 9);
      const path = document.createElementNS(NS, "path");
      path.setAttribute("d", k === q ? `M${x0 - 2} 68 C${x0 - 5} 52 ${x0 + 5} 52 ${x0 + 2} 68`
                                     : `M${x0} 68 Q${(x0 + x1) / 2} ${top} ${x1} 68`);
      path.setAttribute("stroke-width", String(0.3 + 4 * c.w));
      path.setAttribute("vector-effect", "non-scaling-stroke");
      path.style.strokeWidth = (0.5 + 9 * c.w) + "px";
      path.style.opacity = String(0.25 + 0.75 * c.w);
      svg.append(path);
    });
    const toks = el("div", { class: "tokens" });
    toks.style.gridTemplateColumns = "repeat(" + n + ", minmax(0, 1fr))";
    const readout = el("p", { class: "readout" });
    let best = 0;
    row.forEach((c, k) => { if (c.w > row[best].w) best = k; });
    const who = p.heads[0] === null ? "" : " in head " + p.heads[h];
    const say = (k) => {
      readout.replaceChildren(document.createTextNode(
        `'${p.tokens[q]}' → '${p.tokens[k]}'${who}: `), num(row[k]));
    };
    p.tokens.forEach((t, k) => {
      const tok = el("span", { class: "tok" + (k === q ? " focus" : ""), tabindex: "0",
                               "data-path": row[k].p, "data-text": row[k].t,
                               "aria-label": t + ": " + row[k].t }, t);
      tok.addEventListener("mouseenter", () => say(k));
      tok.addEventListener("focus", () => say(k));
      toks.append(tok);
    });
    const most = el("p", { class: "readout most" },
                    `Most attended by '${p.tokens[q]}'${who}: '${p.tokens[best]}' `);
    most.append(num(row[best]));
    body.append(svg, toks, most, readout);
  }

  let panelEls = [];
  function buildPanels(part) {
    const box = $("panels");
    panelEls = part.panels.map((p) => {
      const sec = el("section", { class: "panel " + p.kind, "data-key": p.key, "data-panel": p.path });
      sec.append(el("h3", {}, p.label), el("div", { class: "body" }));
      return sec;
    });
    box.replaceChildren(...panelEls);
    layerIn.max = String(part.axis.length - 1);
    const heads = Math.max(0, ...part.panels.filter((p) => p.kind === "attention" && p.heads[0] !== null)
                                             .map((p) => p.heads.length));
    $("head-box").hidden = heads === 0;
    headIn.max = String(Math.max(0, heads - 1));
    $("source").textContent = part.panels.length ? "" :
      "This plan has no numbers per layer to explore.";
  }

  function update() {
    const part = D.parts[state.part];
    layerIn.value = String(state.layer);
    headIn.value = String(state.head);
    $("layer-label").textContent = part.axis[state.layer];
    $("head-label").textContent = String(state.head);
    layerIn.setAttribute("aria-valuetext", part.axis[state.layer]);
    part.panels.forEach((p, i) => panelBody(p, panelEls[i].querySelector(".body")));
    const beat = part.beats[state.beat];
    panelEls.forEach((sec, i) => sec.classList.toggle("shown",
      !!beat && beat.keys.includes(part.panels[i].key)));
  }

  function select(pi, bi) {
    if (pi !== state.part) {
      state.part = pi; state.layer = 0; state.head = 0;
      header(D.parts[pi]); buildPanels(D.parts[pi]);
    }
    state.beat = bi;
    const b = D.parts[pi].beats[bi];
    if (b) {
      const axisIdx = D.parts[pi].layers.indexOf(b.layer);
      if (b.layer !== null && axisIdx >= 0 && axisIdx < D.parts[pi].axis.length) state.layer = axisIdx;
      if (b.head !== null) state.head = Math.min(b.head, Number(headIn.max));
    }
    let k = 0;
    D.parts.forEach((p, i) => p.beats.forEach((_, j) => {
      beatButtons[k++].setAttribute("aria-current", String(i === pi && j === bi));
    }));
    update();
  }

  function at(t) {
    let found = [0, 0];
    D.parts.forEach((p, i) => p.beats.forEach((b, j) => {
      if (t >= p.offset + b.start) found = [i, j];
    }));
    return found;
  }

  layerIn.addEventListener("input", () => { state.layer = Number(layerIn.value); update(); });
  headIn.addEventListener("input", () => { state.head = Number(headIn.value); update(); });
  document.addEventListener("mouseover", (e) => {
    const n = e.target.closest && e.target.closest(".num");
    if (n && !n.title) n.title = n.dataset.path;
  });

  // --- video, captions ---
  function showCue(t) {
    const cue = D.cues.find((c) => t >= c.start && t < c.end);
    $("caption").textContent = cue ? cue.text : "";
  }
  function tick() {
    const t = video.currentTime;
    const [pi, bi] = at(t);
    if (pi !== state.part || bi !== state.beat) select(pi, bi);
    showCue(t);
  }
  video.addEventListener("timeupdate", tick);
  video.addEventListener("seeked", tick);
  function missing() {
    video.hidden = true;
    const msg = $("novideo");
    msg.hidden = false;
    msg.textContent = "The video " + D.video + " is not next to this page. " + D.missing +
      " The outline, captions and numbers below work without it.";
  }
  video.addEventListener("error", missing);
  if (video.error) missing();                 // it failed before this script ran
  select(0, 0);
  showCue(0);
  window.layerwisePage = { state, select, data: D };
})();
