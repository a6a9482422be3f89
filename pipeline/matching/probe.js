// trigsight browser probe: counts text-directive matches in the rendered page with
// Chromium's semantics, then lets Chromium itself referee the first match (`:target`).
// This file is logic only: the matching rules come from pipeline/matching/rules.py, which
// injects it as `(<this function>)(<rules as JSON>)` (rules.probe_script()); the browser
// gate's cache key hashes that whole script. Defines window.__trigsight.
(RULES) => {
  const BREAK = "\u0001"; // between blocks: never inside a match, skipped like whitespace
  const chars = (s) => new Set([...s]);
  const IGNORED_BREAKING = chars(RULES.ignoredBreaking), IGNORED_JOINING = chars(RULES.ignoredJoining);
  const SPACES = chars(RULES.spaces), COLLAPSIBLE = chars(RULES.collapsible);
  const QUOTES = RULES.quotes, LETTER_FOLDS = RULES.letterFolds, CASEFOLD = RULES.casefold;
  const DISTINCT = chars(RULES.distinctLetters);
  const STRIPPED_MARK = new RegExp(RULES.strippedMarks, "u");
  const [KATA_FROM, KATA_TO] = RULES.katakana;
  // Elements by local name: skipped whole (no text, and no break when laid out inline),
  // atomic boxes (a break, no text of their own), and SVG (only <text> holds text).
  const SKIPPED = new Set(RULES.skippedTags), ATOMIC = new Set(RULES.atomicTags);

  // ---- the rendered text: one stream, a break between blocks ----
  function collect() {
    const raw = [], node = [], off = [], len = [], block = [];
    const blocks = [], forced = []; // forced: raw indexes with a word edge before them
    const hidden = []; // [first, end) raw indexes of each run of hidden content
    let pending = null; // collapsible whitespace waiting for the next visible character
    const push = (ch, n, o, l, b) => { raw.push(ch); node.push(n); off.push(o); len.push(l); block.push(b); };
    const lastIs = (set) => raw.length > 0 && set.includes(raw[raw.length - 1]);
    const brk = () => { pending = null; if (raw.length && !lastIs([BREAK])) push(BREAK, null, 0, 0, -1); };

    function text(t, b, style) {
      const mode = style.whiteSpaceCollapse || style.whiteSpace;
      const keepSpaces = /^(preserve|pre|pre-wrap|break-spaces)/.test(mode) && !/preserve-breaks/.test(mode);
      const keepBreaks = keepSpaces || /pre-line|preserve-breaks/.test(mode);
      const data = t.data;
      let i = 0;
      for (const ch of data) {
        const l = ch.length;
        if (IGNORED_BREAKING.has(ch)) { forced.push(raw.length); i += l; continue; }
        if (IGNORED_JOINING.has(ch)) { i += l; continue; }
        if (!keepSpaces && COLLAPSIBLE.has(ch) && !(keepBreaks && ch === "\n")) {
          if (!pending) pending = [t, i];
        } else {
          if (ch === "\n") pending = null;
          if (pending && raw.length && !lastIs([BREAK, "\n"])) push(" ", pending[0], pending[1], 1, b);
          pending = null;
          push(ch, t, i, l, b);
        }
        i += l;
      }
    }

    function walk(parent, b, parentStyle) {
      const kids = parent instanceof HTMLSlotElement ? (parent.assignedNodes().length ? parent.assignedNodes() : parent.childNodes)
        : (parent.shadowRoot ? parent.shadowRoot.childNodes : parent.childNodes);
      for (const child of kids) visit(child, b, parentStyle);
    }
    function visit(child, b, parentStyle) {
      if (child.nodeType === Node.TEXT_NODE) {
        if (parentStyle.visibility === "visible") text(child, b, parentStyle);
        return;
      }
      if (child.nodeType !== Node.ELEMENT_NODE) return;
      const style = getComputedStyle(child);
      if (style.display === "none") return;
      // laid out, never searched (hidden=until-found is content-visibility: hidden too, but searched)
      if (style.contentVisibility === "hidden" && style.display !== "inline" && !untilFound(child)) {
        brk();
        return;
      }
      if (child.tagName === "BR") { pending = null; push("\n", child.parentNode, [...child.parentNode.childNodes].indexOf(child), 1, b); return; }
      const name = child.localName;
      const isBlock = !["inline", "contents", "ruby", "ruby-text"].includes(style.display);
      if (SKIPPED.has(name)) { if (!style.display.startsWith("inline")) brk(); return; }
      if (ATOMIC.has(name)) { brk(); return; }
      if (name === RULES.svgTag) { brk(); svgText(child); brk(); return; }
      if (isBlock) block_(child, style); else walk(child, b, style);
    }
    function block_(element, style) {
      brk();
      const index = blocks.push(element) - 1;
      if (element.localName === RULES.closedDetailsTag && !element.open) closedDetails(element, index, style);
      else if (untilFound(element)) foundOnly([...element.childNodes], index, style);
      else walk(element, index, style);
      brk();
    }
    const untilFound = (element) => (element.getAttribute("hidden") || "").toLowerCase() === RULES.untilFound;
    // A closed <details>: its summary as usual, then what it hides.
    function closedDetails(element, b, style) {
      const kids = [...element.childNodes];
      const first = kids.findIndex((k) => k.nodeType === Node.ELEMENT_NODE);
      const cut = first >= 0 && kids[first].localName === "summary" ? first + 1 : 0;
      kids.slice(0, cut).forEach((k) => visit(k, b, style));
      foundOnly(kids.slice(cut), b, style);
    }
    // Content the browser finds but does not show: a run of hidden content, which context from
    // outside it skips whole (textmodel.find_matches).
    function foundOnly(kids, b, style) {
      brk();
      const first = raw.length;
      kids.forEach((k) => visit(k, b, style));
      brk();
      const shown = raw.slice(first).findIndex((ch) => ch !== BREAK);
      if (shown >= 0) hidden.push([first + shown, raw.length]);
    }
    // Inside an <svg>, only <text> elements hold text, each a block of its own.
    function svgText(parent) {
      for (const child of parent.children) {
        const style = getComputedStyle(child);
        if (style.display === "none" || SKIPPED.has(child.localName)) continue;
        if (child.localName === RULES.svgTextTag) block_(child, style); else svgText(child);
      }
    }
    blocks.push(document.body);
    walk(document.body, 0, getComputedStyle(document.body));
    return fold({ raw, node, off, len, block, blocks, forced, hidden });
  }

  // One character as the matcher compares it: the same steps as textmodel.fold_char.
  const hiragana = (c) => {
    const code = c.codePointAt(0);
    return code >= KATA_FROM && code <= KATA_TO ? String.fromCodePoint(code + RULES.katakanaToHiragana) : c;
  };
  function foldChar(ch) {
    if (IGNORED_BREAKING.has(ch) || IGNORED_JOINING.has(ch)) return "";
    let out = "";
    for (const c of DISTINCT.has(ch) ? ch : ch.normalize("NFKD")) {
      if (SPACES.has(c)) out += " ";
      else if (QUOTES[c]) out += QUOTES[c];
      else if (!STRIPPED_MARK.test(c)) {
        for (const f of CASEFOLD[c] ?? c.toLowerCase()) out += [...(LETTER_FOLDS[f] ?? f)].map(hiragana).join("");
      }
    }
    return out;
  }

  function fold(model) {
    let folded = "";
    const from = []; // folded index -> raw index
    const to = []; // raw index -> folded index
    model.raw.forEach((ch, i) => {
      const f = ch === BREAK ? BREAK : foldChar(ch);
      to.push(folded.length);
      for (let k = 0; k < f.length; k++) from.push(i);
      folded += f;
    });
    to.push(folded.length);
    // Where each run of hidden content starts (folded), and the farthest end of the runs starting there.
    model.skipTo = new Map();
    for (const [a, b] of model.hidden) model.skipTo.set(to[a], Math.max(to[b], model.skipTo.get(to[a]) ?? 0));
    model.folded = folded;
    model.from = from;
    model.boundary = wordBoundaries(model.raw);
    for (const i of model.forced) model.boundary[i] = 1;
    return model;
  }

  // Word boundaries per block, with ICU's word rules (dictionaries for CJK), as Chromium uses.
  function wordBoundaries(raw) {
    const edge = new Uint8Array(raw.length + 1);
    const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });
    let start = 0;
    for (let i = 0; i <= raw.length; i++) {
      if (i < raw.length && raw[i] !== BREAK) continue;
      const chars = raw.slice(start, i), text = chars.join("");
      const rawAt = []; // UTF-16 offset within text -> raw index
      chars.forEach((ch, k) => { for (let u = 0; u < ch.length; u++) rawAt.push(start + k); });
      for (const s of segmenter.segment(text)) edge[rawAt[s.index]] = 1;
      edge[start] = 1; edge[i] = 1;
      if (i < raw.length) edge[i + 1] = 1;
      start = i + 1;
    }
    return edge;
  }

  // ---- directives ----
  // text=[prefix-,]start[,end][,-suffix], with the syntax rules of rules.py.
  const D = RULES.directive;
  function parse(directive) {
    if (!directive.startsWith(D.start)) return null;
    const parts = directive.slice(D.start.length).split(D.separator);
    let prefix = null, suffix = null;
    if (parts.length && parts[0].endsWith(D.prefixMark)) prefix = parts.shift().slice(0, -D.prefixMark.length);
    if (parts.length && parts[parts.length - 1].startsWith(D.suffixMark)) suffix = parts.pop().slice(D.suffixMark.length);
    const all = [prefix, ...parts, suffix].filter((p) => p !== null);
    if (parts.length < 1 || parts.length > 2 || all.some((p) => !p || [...D.forbidden].some((c) => p.includes(c)))) return null;
    if (new RegExp(D.badPercent).test(directive)) return null;
    try {
      const dec = (s) => (s === null ? "" : decodeURIComponent(s));
      return { prefix: dec(prefix), start: dec(parts[0]), end: parts.length === 2 ? dec(parts[1]) : "", suffix: dec(suffix) };
    } catch (e) { return null; }
  }

  const foldText = (s) => [...s].map(foldChar).join("");

  function matcher(m) {
    const F = m.folded, n = F.length;
    const aligned = (j) => j === 0 || j === n || m.from[j] !== m.from[j - 1];
    const rawAt = (j) => (j === n ? m.raw.length : m.from[j]);
    const bounded = (j) => aligned(j) && m.boundary[rawAt(j)] === 1;
    const skip = (j) => {
      for (;;) {
        while (j < n && (F[j] === " " || F[j] === "\n" || F[j] === "\t" || F[j] === BREAK)) j++;
        if (!m.skipTo.has(j)) return j;
        j = m.skipTo.get(j);
      }
    };
    const at = (s, j) => s.length > 0 && F.startsWith(s, j) && aligned(j) && aligned(j + s.length);
    function* all(s, from) {
      for (let j = F.indexOf(s, from); s && j !== -1; j = F.indexOf(s, j + 1)) if (at(s, j)) yield j;
    }
    return { n, bounded, skip, at, all };
  }

  // Every match of the directive, in document order: [[startFolded, endFolded], ...].
  function matches(m, d) {
    const M = matcher(m);
    const [P, T, E, S] = [d.prefix, d.start, d.end, d.suffix].map(foldText);
    const endBounded = E !== "" || S === "";
    const starts = [];
    if (P) {
      for (const p of M.all(P, 0)) {
        if (!M.bounded(p)) continue;
        const q = M.skip(p + P.length);
        if (M.at(T, q) && (!endBounded || M.bounded(q + T.length)) && !starts.includes(q)) starts.push(q);
      }
      starts.sort((a, b) => a - b);
    } else {
      for (const q of M.all(T, 0)) if (M.bounded(q) && (!endBounded || M.bounded(q + T.length))) starts.push(q);
    }
    const suffixOk = (j) => { const r = M.skip(j); return M.at(S, r) && M.bounded(r + S.length); };
    const found = [];
    for (const q of starts) {
      if (!E) { if (!S || suffixOk(q + T.length)) found.push([q, q + T.length]); continue; }
      for (const e of M.all(E, q + T.length)) {
        if (!M.bounded(e) || (!S && !M.bounded(e + E.length))) continue;
        if (!S || suffixOk(e + E.length)) { found.push([q, e + E.length]); break; }
      }
    }
    return found;
  }

  function toRange(m, [a, b]) {
    const s = m.from[a], e = m.from[b - 1];
    const range = document.createRange();
    range.setStart(m.node[s], m.off[s]);
    range.setEnd(m.node[e], m.off[e] + m.len[e]);
    return range;
  }

  const elementOf = (n) => (n.nodeType === Node.ELEMENT_NODE ? n : n.parentElement);
  function describe(el) {
    if (!el) return null;
    const tag = el.tagName.toLowerCase();
    const ordinal = [...document.body.getElementsByTagName(tag)].indexOf(el);
    return { tag, ordinal, id: el.id || "", text: Array.from((el.textContent || "").replace(/\s+/g, " ").trim()).slice(0, 160).join("") };  // code points: never half an emoji
  }
  function element(spec) {
    if (!spec) return null;
    return spec.tag === "body" ? document.body : document.body.getElementsByTagName(spec.tag)[spec.ordinal] || null;
  }

  // Count every directive; keep each first match for the activation check.
  function count(directives) {
    const model = collect();
    const firsts = [];
    const results = directives.map((directive) => {
      const parsed = parse(directive);
      if (!parsed) { firsts.push(null); return { valid: false, count: 0 }; }
      const found = matches(model, parsed);
      if (!found.length) { firsts.push(null); return { valid: true, count: 0 }; }
      const [a, b] = found[0];
      const range = toRange(model, found[0]);
      const common = elementOf(range.commonAncestorContainer);
      const blockIndex = model.block[model.from[a]];
      const sameBlock = model.block[model.from[b - 1]] === blockIndex;
      const block = sameBlock ? model.blocks[blockIndex] : common;
      firsts.push({ range, common, block });
      const r = range.getBoundingClientRect();
      return { valid: true, count: found.length, text: range.toString().replace(/\s+/g, " ").trim(),
               block: describe(block), common: describe(common),
               top: r.top + scrollY, inMain: !!block.closest("main") };
    });
    window.__trigsight.firsts = firsts;
    return results;
  }

  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  // :target, looking into open shadow roots too (a match there marks the shadow element).
  function currentTarget() {
    const t = document.querySelector(":target");
    if (t) return t;
    for (const host of document.querySelectorAll("*")) {
      const inner = host.shadowRoot && host.shadowRoot.querySelector(":target");
      if (inner) return inner;
    }
    return null;
  }
  async function targetAfter(frames) {
    for (let k = 0; k < frames; k++) {
      await frame();
      const t = currentTarget();
      if (t) return t;
    }
    return null;
  }

  // Judge Chromium's :target for directive i against our first match and the intended block.
  function judge(i, target, intended) {
    return { target: describe(target), ...verdict(i, target, intended) };
  }
  function verdict(i, target, intended) {
    const first = window.__trigsight.firsts[i];
    const want = element(intended);
    return {
      lands: !!(first && target && target.contains(first.common)),
      inBlock: !!(target && (intended ? want && want.contains(target) : first && first.block.contains(target))),
      // CSS may lay the passage's element out inline (run-in): inside it is still the sentence.
      probeInBlock: !!(first && (intended ? want && (first.block === want || want.contains(first.common)) : true)),
    };
  }

  // :target once it differs from `before` (null after `frames` frames without a change).
  async function changedAfter(before, frames) {
    for (let k = 0; k < frames; k++) {
      await frame();
      const t = currentTarget();
      if (t && t !== before) return t;
    }
    return null;
  }
  const proven = (v) => v.lands && v.inBlock && v.probeInBlock;

  // Same-document activation of each directive, one hash navigation each where one is enough.
  // A directive that Chromium does not match leaves :target as it was, so a :target that
  // stays could be a stale one. One navigation is enough when :target is null before it, or
  // when the :target left by the directive before could not pass for this directive's
  // (it does not hold our first match in the intended block): then a :target that changes
  // is this navigation's, and one that does not is a failure, judged again the long way:
  // reset :target (a hash naming no element clears it, synchronously), navigate, poll frames.
  // Directives are taken block by block in turn, so that the one before is rarely in the
  // same block; only the long way's verdict is kept for a directive that is not proven.
  async function activate(directives, intended, frames) {
    // Chromium fetches and decodes the page's icon again after every same-document
    // navigation; the icon plays no part in the rendered text.
    for (const link of document.querySelectorAll('link[rel~="icon" i]')) link.remove();
    const out = new Array(directives.length);
    for (const i of interleaved(directives.length, intended)) {
      const before = currentTarget();
      if (!before || !proven(verdict(i, before, intended[i]))) {
        location.hash = ":~:" + directives[i];
        out[i] = judge(i, await changedAfter(before, frames), intended[i]);
        if (!before || proven(out[i])) continue;
      }
      location.hash = "#__trigsight_reset"; // names no element: :target is null again, synchronously
      location.hash = ":~:" + directives[i];
      out[i] = judge(i, await targetAfter(frames), intended[i]);
    }
    return out;
  }

  // Indexes 0..n-1 in turns over their blocks (first of each block, then second of each, ...).
  function interleaved(n, intended) {
    const groups = new Map();
    for (let i = 0; i < n; i++) {
      const first = window.__trigsight.firsts[i];
      const key = element(intended[i]) || (first && first.block) || i;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(i);
    }
    const order = [], lists = [...groups.values()];
    for (let turn = 0; order.length < n; turn++) {
      for (const list of lists) if (turn < list.length) order.push(list[turn]);
    }
    return order;
  }

  // A fresh navigation already happened: count the one directive and read :target.
  async function arrived(directive, intended, frames) {
    const [counted] = count([directive]);
    const target = await targetAfter(frames);
    const judged = judge(0, target, intended);
    const first = window.__trigsight.firsts[0];
    const rects = first ? [...first.range.getClientRects()].map((r) => [r.left, r.top, r.right, r.bottom]) : [];
    const inView = rects.some(([, top, , bottom]) => bottom > 0 && top < innerHeight);
    return { ...counted, ...judged, rects, inView };
  }

  // A constructed stylesheet, not a <style> element: the site's Content-Security-Policy
  // (style-src 'self') refuses inline style elements, and the gate sees the headers readers get.
  function markHighlight() {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync("::target-text { background: #f0f !important; color: #f0f !important; }");
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }

  // Bounding box [left, top, right, bottom] of pure-magenta pixels in a PNG screenshot.
  async function magentaBox(base64) {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext("2d");
    ctx.drawImage(bitmap, 0, 0);
    const { data, width, height } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
    let box = null;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const k = 4 * (y * width + x);
        if (data[k] > 230 && data[k + 1] < 40 && data[k + 2] > 230) {
          box = box ? [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x + 1), Math.max(box[3], y + 1)]
                    : [x, y, x + 1, y + 1];
        }
      }
    }
    return box;
  }

  window.__trigsight = { count, activate, arrived, markHighlight, magentaBox, currentTarget, describe, firsts: [] };
}
