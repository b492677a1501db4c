// The filter language of the live TUI's filter bar (internal/filter, whose
// Spec the page is given as data: report-data's "filter" member):
// parse(text, spec) returns the terms or throws a SyntaxErr naming the term
// and its column; matchAll(terms, item) reports whether an item satisfies
// every term. It mirrors internal/filter rune for rune; a test runs this file,
// as the page carries it, against the Go filter (filterjs_test.go).
const mcptrailFilter = (function () {
  "use strict";
  let KEYS = [], ENUMS = {};
  class SyntaxErr extends Error {}
  function synErr(term, col, msg) {
    return new SyntaxErr(term + " at column " + col + ": " + msg);
  }
  // isSpace is Go's unicode.IsSpace (JS's \s differs: U+0085, U+FEFF).
  const SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
  const isSpace = (ch) => SPACE.test(ch);
  // lower is Go's strings.ToLower, each code point's simple mapping:
  // toLowerCase alone makes İ two code points and a final Σ ς.
  const lowerOf = (s) => s.replace(/[\u0130\u03a3]/g, (c) => (c === "\u0130" ? "i" : "\u03c3")).toLowerCase();
  // A session repeats its methods and tools on every call: lowered once
  // each, a filter keystroke over 100k calls stays a lookup per call.
  const lowered = new Map();
  function lower(s) {
    let v = lowered.get(s);
    if (v === undefined) {
      v = lowerOf(s);
      if (lowered.size < 1 << 17) lowered.set(s, v);
    }
    return v;
  }
  // shown quotes a value in an error, as internal/filter's quoteShown.
  const shown = (v) => JSON.stringify(v);
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
          tok.key = lower(key);
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
    const term = tok.key + ":" + shown(tok.value);
    if (tok.key === "" && tok.value === "") throw synErr(shown(tok.value), tok.col, "empty term");
    if (tok.key === "") return { neg: tok.neg, key: "", value: lower(tok.value) };
    if (!KEYS.includes(tok.key)) {
      throw synErr(term, tok.col, "unknown key " + shown(tok.key) + "; want one of " + KEYS.join(", "));
    }
    if (tok.value === "") throw synErr(term, tok.valueCol, "empty value");
    const t = { neg: tok.neg, key: tok.key, value: tok.value };
    if (tok.key === "slow") {
      const r = parseSlow(tok.value);
      if (typeof r === "string") throw synErr(term, tok.valueCol, r);
      t.cmp = r[0];
      t.ns = r[1];
      return t;
    }
    const vs = ENUMS[tok.key];
    if (vs) {
      t.value = lower(tok.value);
      if (!vs.includes(t.value)) throw synErr(term, tok.valueCol, "want one of " + vs.join(", "));
    }
    return t;
  }
  const SLOW_WANT = "want >DUR, >=DUR, <DUR or <=DUR, DUR a Go duration or milliseconds";
  // parseSlow is internal/filter's: [op, bound in ns as a BigInt] or the
  // error's message. Plain numbers are milliseconds, the rest Go durations.
  function parseSlow(v) {
    let op = "";
    for (const o of [">=", "<=", ">", "<"]) {
      if (v.startsWith(o)) { op = o; v = v.slice(o.length); break; }
    }
    if (op === "" || v === "") return SLOW_WANT;
    const ms = parseFloat(v);
    if (/^(\d*\.?\d*)$/.test(v) && v !== "." && isFinite(ms)) {
      if (ms * 1e6 >= 9223372036854775807) return "duration out of range";
      return [op, BigInt(Math.trunc(ms * 1e6))];
    }
    const d = parseDuration(v);
    if (d === null) return SLOW_WANT;
    if (d < 0n) return "negative duration";
    return [op, d];
  }
  const UNITS = { ns: 1n, us: 1000n, "\u00b5s": 1000n, "\u03bcs": 1000n, ms: 1000000n, s: 1000000000n,
    m: 60000000000n, h: 3600000000000n };
  const MAX = 1n << 63n, U64 = (1n << 64n) - 1n;
  const isDigit = (c) => c >= "0" && c <= "9";
  // parseDuration is Go's time.ParseDuration, overflows and all: the
  // duration in ns as a BigInt (an int64), or null for an error.
  function parseDuration(s) {
    let neg = false, d = 0n;
    if (s !== "" && (s[0] === "-" || s[0] === "+")) { neg = s[0] === "-"; s = s.slice(1); }
    if (s === "0") return 0n;
    if (s === "") return null;
    while (s !== "") {
      if (!(s[0] === "." || isDigit(s[0]))) return null;
      let i = 0, v = 0n, f = 0n, scale = 1, over = false;
      for (; i < s.length && isDigit(s[i]); i++) {
        if (v > MAX / 10n) return null;
        v = v * 10n + BigInt(s.charCodeAt(i) - 48);
        if (v > MAX) return null;
      }
      const pre = i > 0;
      s = s.slice(i);
      let post = false;
      if (s !== "" && s[0] === ".") {
        for (i = 1; i < s.length && isDigit(s[i]); i++) {
          if (over) continue;
          const y = f * 10n + BigInt(s.charCodeAt(i) - 48);
          if (f > (MAX - 1n) / 10n || y > MAX) { over = true; continue; }
          f = y;
          scale *= 10;
        }
        post = i > 1;
        s = s.slice(i);
      }
      if (!pre && !post) return null;
      for (i = 0; i < s.length && s[i] !== "." && !isDigit(s[i]); i++);
      const unit = Object.hasOwn(UNITS, s.slice(0, i)) ? UNITS[s.slice(0, i)] : 0n;
      s = s.slice(i);
      if (unit === 0n || v > MAX / unit) return null;
      v *= unit;
      if (f > 0n) {
        v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
        if (v > MAX) return null;
      }
      d = (d + v) & U64;
      if (d > MAX) return null;
    }
    if (neg) return d === MAX ? -MAX : -d;
    return d > MAX - 1n ? null : d;
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
  // sameID reports whether raw, a raw JSON-RPC id, is want, as typed or
  // once a string id is decoded as JSON.
  function sameID(raw, want) {
    if (raw === want) return true;
    if (raw.startsWith('"')) {
      try { return JSON.parse(raw) === want; } catch (e) { return false; }
    }
    return false;
  }
  function termMatch(t, it) {
    switch (t.key) {
      case "": return lower(it.method).includes(t.value) || lower(it.target).includes(t.value) ||
        lower(it.message).includes(t.value);
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
        const d = BigInt(Math.trunc(it.dur * 1e6)); // as the TUI makes a time.Duration of a call's ms
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
  return { parse: parse, matchAll: matchAll, SyntaxErr: SyntaxErr, isSpace: isSpace, lower: lower };
})();
