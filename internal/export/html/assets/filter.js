// The filter language of the live TUI's filter bar (internal/filter,
// whose keys and values the page is given as data): parse(text, spec)
// returns the terms or throws a SyntaxErr naming the term and its column;
// matchAll(terms, item) reports whether an item satisfies every term.
const mcptrailFilter = (function () {
  "use strict";
  let KEYS = [], ENUMS = {};
  class SyntaxErr extends Error {}
  function synErr(term, col, msg) {
    return new SyntaxErr(term + " at column " + col + ": " + msg);
  }
  const isSpace = (ch) => /\s/.test(ch);
  function parseFilter(s) {
    const terms = [];
    let off = 0;
    const n = s.length;
    const col = (o) => Array.from(s.slice(0, o)).length + 1;
    const atEnd = () => off >= n || isSpace(s[off]);
    function quoted(c) {
      const st = off;
      let b = "";
      off++;
      while (off < n) {
        const ch = s[off];
        if (ch === '"') {
          off++;
          if (!atEnd()) throw synErr(s.slice(st, off), col(off), "want a space after the closing quote");
          return b;
        }
        if (ch === "\\" && off + 1 < n) off++;
        b += s[off];
        off++;
      }
      throw synErr(s.slice(st), c, "unterminated quote");
    }
    for (;;) {
      while (off < n && isSpace(s[off])) off++;
      if (off >= n) break;
      const tok = { neg: false, key: "", value: "", col: col(off) };
      const start = off;
      if (s[off] === "!") { tok.neg = true; off++; }
      tok.valueCol = col(off);
      if (off < n && s[off] === '"') {
        tok.value = quoted(tok.valueCol);
      } else {
        const st = off;
        while (off < n && !atEnd() && s[off] !== '"') off++;
        const word = s.slice(st, off);
        const ci = word.indexOf(":");
        if (ci < 0) {
          if (!atEnd()) throw synErr(s.slice(start, off + 1), col(off), "unexpected quote");
          tok.value = word;
        } else {
          const key = word.slice(0, ci), value = word.slice(ci + 1);
          if (key === "") throw synErr(word, tok.col, "missing key before the colon");
          tok.key = key.toLowerCase();
          tok.valueCol = col(off - value.length);
          if (value === "" && !atEnd()) tok.value = quoted(tok.valueCol);
          else if (!atEnd()) throw synErr(s.slice(start, off + 1), col(off), "unexpected quote");
          else tok.value = value;
        }
      }
      terms.push(build(tok));
    }
    return terms;
  }
  function build(tok) {
    const shown = tok.key + ":" + JSON.stringify(tok.value);
    if (tok.key === "" && tok.value === "") throw synErr(JSON.stringify(tok.value), tok.col, "empty term");
    if (tok.key === "") return { neg: tok.neg, key: "", value: tok.value.toLowerCase() };
    if (!KEYS.includes(tok.key)) {
      throw synErr(shown, tok.col, "unknown key " + JSON.stringify(tok.key) + "; want one of " + KEYS.join(", "));
    }
    if (tok.value === "") throw synErr(shown, tok.valueCol, "empty value");
    const t = { neg: tok.neg, key: tok.key, value: tok.value };
    if (tok.key === "slow") {
      const r = parseSlow(tok.value);
      if (typeof r === "string") throw synErr(shown, tok.valueCol, r);
      t.cmp = r[0];
      t.ns = r[1];
      return t;
    }
    const vs = ENUMS[tok.key];
    if (vs) {
      t.value = tok.value.toLowerCase();
      if (!vs.includes(t.value)) throw synErr(shown, tok.valueCol, "want one of " + vs.join(", "));
    }
    return t;
  }
  const SLOW_WANT = "want >DUR, >=DUR, <DUR or <=DUR, DUR a Go duration or milliseconds";
  const UNITS = { ns: 1, us: 1e3, "µs": 1e3, "μs": 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
  function parseSlow(v) {
    let op = "";
    for (const o of [">=", "<=", ">", "<"]) {
      if (v.startsWith(o)) { op = o; v = v.slice(o.length); break; }
    }
    if (op === "" || v === "") return SLOW_WANT;
    if (/^(\d+\.?\d*|\.\d+)$/.test(v)) return [op, parseFloat(v) * 1e6];
    if (v === "0") return [op, 0];
    const re = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
    let ns = 0, m, at = 0;
    while (at < v.length) {
      re.lastIndex = at;
      if (!(m = re.exec(v))) return SLOW_WANT;
      ns += parseFloat(m[1]) * UNITS[m[2]];
      at = re.lastIndex;
    }
    return [op, ns];
  }
  function glob(p, s) {
    const parts = p.split("*");
    if (parts.length === 1) return s === p;
    if (!s.startsWith(parts[0])) return false;
    s = s.slice(parts[0].length);
    for (const q of parts.slice(1, -1)) {
      const i = s.indexOf(q);
      if (i < 0) return false;
      s = s.slice(i + q.length);
    }
    return s.endsWith(parts[parts.length - 1]);
  }
  function sameID(raw, want) {
    if (raw === want) return true;
    if (raw.startsWith('"')) {
      try { return JSON.parse(raw) === want; } catch (e) { return false; }
    }
    return false;
  }
  function termMatch(t, it) {
    switch (t.key) {
      case "": return it.method.toLowerCase().includes(t.value) || it.target.toLowerCase().includes(t.value) ||
        it.message.toLowerCase().includes(t.value);
      case "tool": return glob(t.value, it.target);
      case "method": return glob(t.value, it.method);
      case "id": return it.ids.some((id) => sameID(id, t.value));
      case "dir": return it.dir === t.value;
      case "status": return it.status === t.value || (t.value === "late" && it.late);
      case "era": return it.era === t.value;
      case "elicit": return it.elicit.includes(t.value);
      case "rule": return it.rules.some((r) => glob(t.value, r));
      case "slow": {
        if (it.dur < 0) return false;
        const d = it.dur * 1e6;
        return t.cmp === ">" ? d > t.ns : t.cmp === ">=" ? d >= t.ns : t.cmp === "<" ? d < t.ns : d <= t.ns;
      }
    }
    return false;
  }
  function matchAll(terms, it) {
    for (const t of terms) if (termMatch(t, it) === t.neg) return false;
    return true;
  }

  function parse(text, spec) {
    KEYS = spec.keys;
    ENUMS = spec.enums;
    return parseFilter(text);
  }
  return { parse: parse, matchAll: matchAll, SyntaxErr: SyntaxErr, isSpace: isSpace };
})();
