// mcptrail HTML report. Everything from the capture reaches the page as
// text (textContent), never as markup; the data blocks are JSON, parsed,
// never evaluated. Frames are pretty-printed only when a call is opened.
(function () {
  "use strict";
  const C_DIR = 0, C_METHOD = 1, C_TARGET = 2, C_STATUS = 3, C_DUR = 4, C_START = 5, C_ID = 6, C_ERA = 7,
    C_LATE = 8, C_PARENT = 9, C_ERR = 10, C_OP = 11, C_ROUND = 12, C_REQ = 13, C_RESP = 14;
  const O_ROOT = 0, O_STATUS = 1, O_DUR = 2, O_WAIT = 3, O_TOOL = 4, O_ENDED = 5, O_ROUNDS = 6, O_TASK = 7;
  const PAGE = 50, TIMELINE_MAX = 300, PRETTY_MAX = 256 * 1024, SLICE = 20000, SYNC_MS = 8;

  const D = JSON.parse(document.getElementById("report-data").textContent);
  const calls = D.calls, ops = D.ops, names = D.names;
  for (const c of calls) {
    for (const k of [C_DIR, C_METHOD, C_TARGET, C_STATUS, C_ERA]) if (typeof c[k] === "number") c[k] = names[c[k]];
  }
  const table = document.getElementById("calls");
  const tbody = table.tBodies[0];
  const more = document.getElementById("calls-more");
  const input = document.getElementById("filter");
  const errBox = document.getElementById("filter-error");
  const countBox = document.getElementById("filter-count");

  // vis makes controls, bidi controls and line separators visible as \uXXXX.
  const VIS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
  function vis(s) {
    return String(s).replace(VIS, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
  }
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = vis(text);
    return e;
  }
  // fmtMS formats a duration in ms as mcptrail does everywhere (Go's
  // units.Millis): 0.42ms, 358.0ms, 2.49s, 1m02s, 1h02m; a negative one
  // (unanswered) is "—".
  function fmtMS(v) {
    if (!isFinite(v)) return "-";
    if (v < 0) return "—";
    if (v === 0) return "0ms";
    if (v < 1) return v.toFixed(2) + "ms";
    if (Math.round(v * 10) < 10000) return v.toFixed(1) + "ms";
    if (Math.round(v / 10) < 6000) return (v / 1000).toFixed(2) + "s";
    const two = (n) => String(n).padStart(2, "0");
    let s = Math.round(v / 1000);
    if (s < 3600) return Math.floor(s / 60) + "m" + two(s % 60) + "s";
    const m = Math.round(s / 60);
    return Math.floor(m / 60) + "h" + two(m % 60) + "m";
  }

  // Per-call facts the filter matches: ledger outcomes and modes, rules, kids.
  const elicitOf = new Map(), rulesOf = new Map(), kids = new Map();
  function push(m, k, v) {
    if (k < 0) return;
    let a = m.get(k);
    if (!a) m.set(k, (a = []));
    if (!a.includes(v)) a.push(v);
  }
  for (const r of D.elicit) {
    for (const c of r[0] === r[1] ? [r[0]] : [r[0], r[1]]) {
      push(elicitOf, c, r[2]);
      if (r[3]) push(elicitOf, c, r[3]);
    }
  }
  for (const r of D.rules) push(rulesOf, r[0], r[1]);
  const rows = [];
  let serverRows = 0;
  calls.forEach((c, i) => {
    if ((c[C_OP] < 0 || c[C_ROUND] <= 1) && c[C_DIR] === "s2c") serverRows++;
    if (c[C_PARENT] >= 0) push(kids, c[C_PARENT], i);
    if (c[C_OP] < 0 || c[C_ROUND] <= 1) rows.push(i);
  });
  const isOpRoot = (i) => calls[i][C_OP] >= 0 && ops[calls[i][C_OP]] && ops[calls[i][C_OP]][O_ROOT] === i;
  function rowDur(i) {
    if (isOpRoot(i)) {
      const op = ops[calls[i][C_OP]];
      return op[O_ENDED] ? op[O_DUR] : -1;
    }
    return calls[i][C_DUR];
  }
  function rowStatus(i) {
    return isOpRoot(i) ? ops[calls[i][C_OP]][O_STATUS] : calls[i][C_STATUS];
  }

  const { matchAll, SyntaxErr, isSpace } = mcptrailFilter;
  const parseFilter = (text) => mcptrailFilter.parse(text, D.filter);

  // items caches what each call offers the filter (made on first use).
  const items = [];
  function callItem(i, rootID) {
    if (!rootID) return items[i] || (items[i] = makeItem(i, ""));
    return makeItem(i, rootID);
  }
  const NONE = Object.freeze([]);
  function makeItem(i, rootID) {
    const c = calls[i];
    const ids = [c[C_ID]];
    if (rootID && rootID !== c[C_ID]) ids.push(rootID);
    return { target: c[C_TARGET], method: c[C_METHOD], ids: ids, dir: c[C_DIR], status: c[C_STATUS], late: !!c[C_LATE],
      era: c[C_ERA], elicit: elicitOf.get(i) || NONE, rules: rulesOf.get(i) || NONE, dur: c[C_DUR], message: c[C_ERR] };
  }
  // The items are made in slices while the page is idle, so that the
  // first keystroke over a big session does not pay for them.
  function prepareItems(from) {
    const end = Math.min(calls.length, from + 10000);
    for (let i = from; i < end; i++) callItem(i, "");
    if (end < calls.length) setTimeout(() => prepareItems(end), 0);
    else setTimeout(warmFilter, 0);
  }
  // warmFilter runs one free-text query over every row while the page is
  // idle: the engine compiles the matcher then, not on the reader's first
  // keystroke (which otherwise costs several times the next ones).
  function warmFilter() {
    const terms = parseFilter("warm");
    let n = 0;
    for (const i of rows) if (rowMatches(terms, i)) n++;
    table.dataset.indexed = String(calls.length);
    table.dataset.warm = String(n);
  }
  function rowMatches(terms, i) {
    if (terms.length === 0) return true;
    if (isOpRoot(i)) {
      const op = ops[calls[i][C_OP]];
      const it = Object.assign({}, callItem(i, ""));
      it.status = op[O_STATUS];
      it.late = false;
      it.dur = op[O_ENDED] ? op[O_DUR] : -1;
      if (matchAll(terms, it)) return true;
      for (const r of op[O_ROUNDS]) if (matchAll(terms, callItem(r, calls[i][C_ID]))) return true;
    } else if (matchAll(terms, callItem(i, ""))) {
      return true;
    }
    for (const k of kids.get(i) || []) if (matchAll(terms, callItem(k, ""))) return true;
    return false;
  }
  function ledgerMatches(terms, r) {
    if (terms.length === 0) return true;
    const base = r[0] >= 0 ? r[0] : r[1];
    const it = base >= 0 && base < calls.length ? Object.assign({}, callItem(base, "")) :
      { target: "", method: "", ids: [], dir: "", status: "", late: false, era: "", rules: [], dur: -1 };
    it.elicit = r[3] ? [r[2], r[3]] : [r[2]];
    it.message = r[4];
    return matchAll(terms, it);
  }

  // ---- the calls table ----
  let matching = rows.slice(), rendered = 0, sortDir = "", ordered = rows;
  let scan = { terms: [], at: rows.length }, scanGen = 0, wantMore = false;
  const open = new Set();
  // frames-data follows this script, gzipped in base64: until the page is
  // parsed it is not there, and it is inflated (off the main thread) when
  // a call is first opened; an opened call says so and fills in once the
  // frames are there.
  let frameLines = null, framesLoad = null, framesErr = "";
  function loadFrames() {
    if (framesLoad) return framesLoad;
    framesLoad = new Promise((ok) => {
      if (document.readyState !== "loading") ok();
      else document.addEventListener("DOMContentLoaded", () => ok(), { once: true });
    }).then(() => {
      const b64 = document.getElementById("frames-data").textContent;
      let bytes;
      if (Uint8Array.fromBase64) bytes = Uint8Array.fromBase64(b64);
      else {
        const bin = atob(b64);
        bytes = new Uint8Array(bin.length);
        for (let k = 0; k < bin.length; k++) bytes[k] = bin.charCodeAt(k);
      }
      return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
    }).then((text) => { frameLines = text.split("\n"); }, (e) => { framesErr = String(e); });
    return framesLoad;
  }
  function frame(n) {
    let l = frameLines[n + 1];
    if (l === undefined) return null;
    if (l.endsWith(",")) l = l.slice(0, -1);
    return JSON.parse(l);
  }
  function rowElement(i) {
    const c = calls[i];
    const tr = el("tr", "call");
    if (c[C_PARENT] >= 0) tr.classList.add("nested");
    tr.dataset.call = String(i);
    tr.id = "call-" + i;
    tr.tabIndex = 0;
    const st = rowStatus(i);
    let rounds = "", roundsTitle = "";
    if (isOpRoot(i)) {
      const op = ops[c[C_OP]];
      rounds = op[O_ROUNDS].length + " · wait " + fmtMS(op[O_WAIT]);
      roundsTitle = op[O_ROUNDS].length + " rounds: human wait " + fmtMS(op[O_WAIT]) + ", tool time " + fmtMS(op[O_TOOL]);
      if (op[O_TASK]) {
        const polls = op[O_TASK][2] + (op[O_TASK][2] === 1 ? " poll" : " polls");
        rounds += " · task " + op[O_TASK][1] + " · " + polls;
        roundsTitle += "; task " + op[O_TASK][0] + ", last seen " + op[O_TASK][1] + ", " + polls;
      }
    }
    const cells = [String(i), "+" + fmtMS(c[C_START]), c[C_DIR], c[C_ID], c[C_METHOD], c[C_TARGET], st, fmtMS(rowDur(i)),
      rounds, (elicitOf.get(i) || []).join(" "), (rulesOf.get(i) || []).join(" ")];
    cells.forEach((v, k) => {
      // Names never break inside a word: they are cut with an ellipsis
      // and shown whole in their title.
      const td = el("td", k === 7 ? "num" : "");
      if (k === 3 || k === 4 || k === 5) {
        const sp = el("span", "name", v);
        if (v) sp.title = vis(v);
        td.appendChild(sp);
      } else if ((k === 9 || k === 10) && v) {
        // Outcomes and rule names wrap between them, never inside one.
        v.split(" ").forEach((w, n) => {
          if (n > 0) td.appendChild(document.createTextNode(" "));
          td.appendChild(el("span", "tag", w));
        });
      } else {
        td.textContent = vis(v);
      }
      if (k === 6) td.classList.add("st-" + String(st).replace(/[^a-z-]/g, ""));
      if (k === 10 && c[C_ERR]) td.title = vis(c[C_ERR]);
      if (k === 8 && roundsTitle) td.title = roundsTitle;
      tr.appendChild(td);
    });
    return tr;
  }
  function renderMore() {
    const frag = document.createDocumentFragment();
    const end = Math.min(matching.length, rendered + PAGE);
    const reopen = [];
    for (; rendered < end; rendered++) {
      const tr = rowElement(matching[rendered]);
      frag.appendChild(tr);
      if (open.has(matching[rendered])) reopen.push(tr);
    }
    tbody.appendChild(frag);
    for (const tr of reopen) expand(tr);
    updateMore();
  }
  function updateMore() {
    const counting = scan.at < ordered.length;
    more.textContent = rendered < matching.length || counting ?
      "Showing " + rendered + " of " + (counting ? "…" : matching.length) + " rows; scroll for more." : "";
  }
  function render() {
    tbody.textContent = "";
    rendered = 0;
    renderMore();
  }
  function detailRow(i) {
    const tr = el("tr", "detail");
    tr.dataset.call = String(i);
    const td = el("td");
    td.colSpan = 11;
    if (framesErr) {
      td.appendChild(el("div", "note", "The frames could not be read: " + framesErr));
      tr.appendChild(td);
      return tr;
    }
    if (!frameLines) {
      td.appendChild(el("div", "note", "Loading the frames…"));
      tr.appendChild(td);
      loadFrames().then(() => {
        if (tr.isConnected) tr.replaceWith(detailRow(i));
      });
      return tr;
    }
    const ids = isOpRoot(i) ? ops[calls[i][C_OP]][O_ROUNDS] : [i];
    ids.forEach((ci, r) => {
      const c = calls[ci];
      for (const [what, n] of [["request", c[C_REQ]], [c[C_ERR] ? "error" : "response", c[C_RESP]]]) {
        const label = (ids.length > 1 ? "round " + (r + 1) + " " : "") + what;
        if (n < 0) {
          td.appendChild(el("div", "frame-head", label + ": none" + (what === "request" ? "" : " (no answer)")));
          continue;
        }
        const f = frame(n);
        td.appendChild(el("div", "frame-head", label + " · " + f[1] + " · seq " + f[0] + (f[3] === 1 ? " · base64" : "")));
        // An HTTP error status ended the call: say which, with its challenge.
        if (what === "error" && c[C_STATUS] === "http-error") td.appendChild(el("div", "frame-head", vis(c[C_ERR])));
        const pre = el("pre", "json");
        if (f[3] || f[2].length > PRETTY_MAX) pre.textContent = vis(f[2]);
        else pretty(f[2], pre);
        td.appendChild(pre);
      }
    });
    tr.appendChild(td);
    return tr;
  }
  function expand(tr) {
    const i = Number(tr.dataset.call);
    tr.after(detailRow(i));
    tr.classList.add("open");
    tr.setAttribute("aria-expanded", "true");
    open.add(i);
  }
  function toggle(tr) {
    const next = tr.nextElementSibling;
    if (next && next.classList.contains("detail")) {
      next.remove();
      tr.classList.remove("open");
      tr.setAttribute("aria-expanded", "false");
      open.delete(Number(tr.dataset.call));
      return;
    }
    expand(tr);
  }
  // pretty writes JSON text into pre as indented, coloured spans; it walks
  // the text's tokens, so every number and string shows as it was sent.
  function pretty(text, pre) {
    const frag = document.createDocumentFragment();
    let buf = "", depth = 0, i = 0;
    const n = text.length;
    const flush = () => { if (buf) { frag.appendChild(document.createTextNode(buf)); buf = ""; } };
    const span = (cls, s) => { flush(); frag.appendChild(el("span", cls, s)); };
    const nl = () => { buf += "\n" + "  ".repeat(depth); };
    const skipWS = (k) => { while (k < n && isSpace(text[k])) k++; return k; };
    while (i < n) {
      const ch = text[i];
      if (isSpace(ch)) { i++; continue; }
      if (ch === '"') {
        let j = i + 1;
        while (j < n && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
        j = Math.min(j + 1, n);
        span(text[skipWS(j)] === ":" ? "j-k" : "j-s", text.slice(i, j));
        i = j;
      } else if (ch === "{" || ch === "[") {
        const k = skipWS(i + 1);
        if (text[k] === (ch === "{" ? "}" : "]")) { span("j-p", ch + text[k]); i = k + 1; continue; }
        span("j-p", ch); depth++; nl(); i++;
      } else if (ch === "}" || ch === "]") {
        depth = Math.max(0, depth - 1); nl(); span("j-p", ch); i++;
      } else if (ch === ",") {
        span("j-p", ","); nl(); i++;
      } else if (ch === ":") {
        span("j-p", ":"); buf += " "; i++;
      } else {
        let j = i;
        while (j < n && !',:{}[]"'.includes(text[j]) && !isSpace(text[j])) j++;
        if (j === i) j = i + 1;
        const w = text.slice(i, j);
        span(/^-?[0-9]/.test(w) ? "j-n" : "j-b", w);
        i = j;
      }
    }
    flush();
    pre.appendChild(frag);
  }

  // ---- filtering and sorting ----
  const ledgerRows = Array.from(document.querySelectorAll("tr.ledger-row"));
  function apply() {
    let terms;
    try {
      terms = parseFilter(input.value);
      errBox.textContent = "";
      input.removeAttribute("aria-invalid");
    } catch (e) {
      if (!(e instanceof SyntaxErr)) throw e;
      errBox.textContent = vis(e.message);
      input.setAttribute("aria-invalid", "true");
      return;
    }
    for (const tr of ledgerRows) tr.hidden = !ledgerMatches(terms, D.elicit[Number(tr.dataset.row)]);
    // A big session is filtered in slices: the first page of matches is
    // drawn at once, and the rest are counted while the page is idle
    // (data-counting is set until then), so that a keystroke costs a
    // page, not a pass over every call.
    const g = ++scanGen;
    scan = { terms: terms, at: 0 };
    matching = [];
    if (ordered.length <= SLICE) {
      scanStep(ordered.length);
    } else {
      // A page of matches, or what a few milliseconds find (a rare match
      // is drawn as the idle slices reach it).
      const t0 = performance.now();
      while (scan.at < ordered.length && matching.length < PAGE && performance.now() - t0 < SYNC_MS) scanStep(1000);
    }
    if (scan.at < ordered.length) {
      table.dataset.counting = "";
      countBox.textContent = "counting…";
      setTimeout(function next() {
        if (scanGen !== g) return; // a newer filter, or finishScan, took over
        scanStep(SLICE);
        if ((wantMore || rendered < PAGE) && rendered < matching.length) { wantMore = false; renderMore(); }
        if (scan.at < ordered.length) setTimeout(next, 0);
        else { scanDone(); updateMore(); }
      }, 0);
    } else {
      scanDone();
    }
    render();
  }
  // scanStep filters up to n more rows of the pending scan.
  function scanStep(n) {
    const end = Math.min(ordered.length, scan.at + n);
    for (let k = scan.at; k < end; k++) if (rowMatches(scan.terms, ordered[k])) matching.push(ordered[k]);
    scan.at = end;
  }
  // finishScan filters what is left of the pending scan at once (before
  // reading matching whole, e.g. to reveal a call).
  function finishScan() {
    if (scan.at < ordered.length) {
      scanStep(ordered.length);
      scanDone();
      updateMore();
    }
  }
  function scanDone() {
    scanGen++;
    delete table.dataset.counting;
    table.dataset.shown = String(matching.length);
    table.dataset.total = String(rows.length);
    // Counted as a person reads "calls": the client's (an MRTR operation
    // once), the server's requests apart.
    let srv = 0;
    for (const i of matching) if (calls[i][C_DIR] === "s2c") srv++;
    const nCalls = rows.length - serverRows, plural = (n, w) => n + " " + w + (n === 1 ? "" : "s");
    countBox.textContent = (matching.length - srv) + " of " + plural(nCalls, "call") +
      (serverRows ? ", " + srv + " of " + plural(serverRows, "server request") : "");
  }
  // sortOrder sets ordered, the rows in the order of the duration sort.
  function sortOrder() {
    ordered = rows.slice();
    if (sortDir === "") return;
    const s = sortDir === "desc" ? -1 : 1;
    ordered.sort((a, b) => (rowDur(a) - rowDur(b)) * s || a - b);
  }
  const sortTh = table.querySelector("th[data-sort]");
  function toggleSort() {
    sortDir = sortDir === "desc" ? "asc" : "desc";
    sortTh.dataset.dir = sortDir;
    sortOrder();
    apply();
  }
  sortTh.addEventListener("click", toggleSort);
  sortTh.addEventListener("keydown", (e) => { if (e.key === "Enter") toggleSort(); });
  input.addEventListener("input", apply);
  tbody.addEventListener("click", (e) => {
    const tr = e.target.closest("tr.call");
    if (tr) toggle(tr);
  });

  // ---- links to a call, keyboard ----
  function reveal(i) {
    finishScan();
    let at = matching.indexOf(i);
    if (at < 0) {
      input.value = "";
      apply();
      finishScan();
      at = matching.indexOf(i);
    }
    if (at < 0) return;
    while (rendered <= at) renderMore();
    const tr = document.getElementById("call-" + i);
    if (tr) { tr.scrollIntoView({ block: "center" }); tr.focus(); }
  }
  document.addEventListener("click", (e) => {
    const a = e.target.closest && e.target.closest('a[href^="#call-"]');
    if (!a) return;
    e.preventDefault();
    reveal(Number(a.getAttribute("href").slice(6)));
  });
  function moveFocus(step) {
    const list = Array.from(tbody.querySelectorAll("tr.call"));
    if (list.length === 0) return;
    let k = list.indexOf(document.activeElement);
    k = k < 0 ? 0 : Math.max(0, Math.min(list.length - 1, k + step));
    if (k === list.length - 1 && rendered < matching.length) renderMore();
    list[k].focus();
    list[k].scrollIntoView({ block: "nearest" });
  }
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const inInput = document.activeElement === input;
    if (e.key === "Escape" && (inInput || input.value)) {
      input.value = "";
      apply();
      input.blur();
      return;
    }
    if (inInput) return;
    if (e.key === "/") { e.preventDefault(); input.focus(); return; }
    if (e.key === "j" || e.key === "ArrowDown") { e.preventDefault(); moveFocus(1); return; }
    if (e.key === "k" || e.key === "ArrowUp") { e.preventDefault(); moveFocus(-1); return; }
    if (e.key === "Enter" && document.activeElement && document.activeElement.matches("tr.call")) {
      e.preventDefault();
      toggle(document.activeElement);
    }
  });
  window.addEventListener("beforeprint", () => {
    document.querySelectorAll("details").forEach((d) => { d.open = true; });
  });

  // ---- the timeline ----
  function timeline() {
    const box = document.getElementById("waterfall");
    box.textContent = "";
    const top = rows.filter((i) => calls[i][C_PARENT] < 0);
    const shown = top.slice(0, TIMELINE_MAX);
    if (shown.length === 0) { box.appendChild(el("p", "note", "No calls.")); return; }
    let scale = 0;
    const end = (i) => calls[i][C_START] + Math.max(0, calls[i][C_DUR]);
    for (const i of shown) {
      scale = Math.max(scale, end(i));
      if (isOpRoot(i)) for (const r of ops[calls[i][C_OP]][O_ROUNDS]) scale = Math.max(scale, end(r));
      for (const k of kids.get(i) || []) scale = Math.max(scale, end(k));
    }
    scale = scale || 1;
    const frag = document.createDocumentFragment();
    const bar = (track, cls, from, to, title) => {
      const s = el("span", cls);
      s.style.left = (from / scale * 100).toFixed(3) + "%";
      s.style.width = (Math.max(0, to - from) / scale * 100).toFixed(3) + "%";
      s.title = vis(title);
      track.appendChild(s);
    };
    const line = (i, nested) => {
      const c = calls[i];
      const row = el("div", "wf-row" + (nested ? " nested" : ""));
      const label = el("div", "wf-label", (nested ? "↳ " : "") + c[C_METHOD] + (c[C_TARGET] ? " " + c[C_TARGET] : ""));
      label.title = label.textContent;
      row.appendChild(label);
      const track = el("div", "wf-track");
      row.appendChild(track);
      row.appendChild(el("div", "wf-dur", fmtMS(nested ? c[C_DUR] : rowDur(i))));
      frag.appendChild(row);
      return track;
    };
    for (const i of shown) {
      const track = line(i, false);
      if (isOpRoot(i)) {
        const op = ops[calls[i][C_OP]];
        const rs = op[O_ROUNDS];
        const updates = rs.filter((r) => calls[r][C_METHOD] === "tasks/update");
        // Between a task's polls the task runs on the server; the human's
        // wait (the store's) ends at the tasks/update that answers it and
        // may span several polls that repeated the question.
        const taskWait = op[O_TASK] && updates.length === 1;
        rs.forEach((r, k) => {
          const c = calls[r];
          const stop = c[C_DUR] < 0 ? scale : end(r);
          if (k + 1 < rs.length) {
            const next = calls[rs[k + 1]][C_START];
            if (op[O_TASK]) {
              bar(track, "work", stop, next, "task running " + fmtMS(next - stop));
            } else {
              bar(track, "wait", stop, next, "human wait " + fmtMS(next - stop));
            }
          }
        });
        if (taskWait) {
          const to = calls[updates[0]][C_START];
          bar(track, "wait", to - op[O_WAIT], to, "human wait " + fmtMS(op[O_WAIT]));
        }
        rs.forEach((r, k) => {
          const c = calls[r];
          bar(track, "work", c[C_START], c[C_DUR] < 0 ? scale : end(r), "round " + (k + 1) + ": tool " + fmtMS(c[C_DUR]));
        });
      } else {
        const c = calls[i];
        bar(track, "work", c[C_START], c[C_DUR] < 0 ? scale : end(i), c[C_METHOD] + " " + fmtMS(c[C_DUR]));
      }
      for (const k of kids.get(i) || []) {
        const c = calls[k];
        bar(line(k, true), "nested-bar", c[C_START], c[C_DUR] < 0 ? scale : end(k), c[C_METHOD] + " " + fmtMS(c[C_DUR]));
      }
    }
    box.appendChild(frag);
    if (top.length > shown.length) {
      box.appendChild(el("p", "note", "The first " + shown.length + " of " + top.length +
        " operations are drawn; the calls table holds them all."));
    }
  }

  // The page's own cut names (the overview's failed calls) show whole in
  // their title.
  for (const e of document.querySelectorAll("main .name")) e.title = e.textContent;
  timeline();
  apply();
  setTimeout(() => prepareItems(0), 0);
  if ("IntersectionObserver" in window) {
    new IntersectionObserver((es) => {
      if (!es.some((x) => x.isIntersecting)) return;
      if (rendered < matching.length) renderMore();
      else if (scan.at < ordered.length) wantMore = true; // drawn when counted
    }).observe(more);
  }
  const m = /^#call-(\d+)$/.exec(location.hash);
  if (m) reveal(Number(m[1]));
})();
