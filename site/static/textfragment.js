/* Fallback for browsers that do not follow #:~:text= links: find the cited text, mark it
   and scroll to it. site.js downloads this only in such browsers, only for such URLs.
   Matching is the browser's, simplified: case-insensitive, whitespace collapsed, with the
   directive's optional prefix, end and suffix (https://wicg.github.io/scroll-to-text-fragment/). */
(function () {
  var SKIP = /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|TEXTAREA)$/;

  function directive(hash) {
    var at = hash.indexOf(":~:");
    if (at < 0) return null;
    var found = hash.slice(at + 3).split("&").filter(function (d) { return d.indexOf("text=") === 0; })[0];
    if (!found) return null;
    var parts = found.slice(5).split(","), d = {};
    if (/-$/.test(parts[0]) && parts.length > 1) d.prefix = parts.shift().slice(0, -1);
    if (/^-/.test(parts[parts.length - 1]) && parts.length > 1) d.suffix = parts.pop().slice(1);
    d.start = parts[0];
    d.end = parts[1];
    for (var key in d) if (d[key]) d[key] = fold(decodeURIComponent(d[key]));
    return d.start ? d : null;
  }

  function fold(text) { return text.replace(/\s+/g, " ").trim().toLowerCase(); }

  // The page's visible text, folded, with each character's text node and offset.
  function index() {
    var text = "", where = [];
    var walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), node;
    while ((node = walk.nextNode())) {
      if (SKIP.test(node.parentNode.nodeName)) continue;
      for (var i = 0; i < node.data.length; i++) {
        var ch = node.data[i];
        if (/\s/.test(ch)) {
          if (!text || text[text.length - 1] === " ") continue;
          ch = " ";
        }
        ch = ch.toLowerCase();
        for (var k = 0; k < ch.length; k++) { text += ch[k]; where.push([node, i]); }
      }
    }
    return { text: text, where: where };
  }

  function find(page, d) {
    var text = page.text, from = 0;
    for (;;) {
      var start = text.indexOf(d.start, from);
      if (start < 0) return null;
      from = start + 1;
      if (d.prefix && !text.slice(0, start).trim().endsWith(d.prefix)) continue;
      var end = start + d.start.length;
      if (d.end) {
        var at = text.indexOf(d.end, end);
        if (at < 0) return null;
        end = at + d.end.length;
      }
      if (d.suffix && text.slice(end).trim().indexOf(d.suffix) !== 0) continue;
      return [start, end];
    }
  }

  function mark(page, span) {
    var first = page.where[span[0]], last = page.where[span[1] - 1], marks = [];
    var range = document.createRange();
    range.setStart(first[0], first[1]);
    range.setEnd(last[0], last[1] + 1);
    var nodes = [], walk = document.createTreeWalker(range.commonAncestorContainer.parentNode, NodeFilter.SHOW_TEXT), node;
    while ((node = walk.nextNode())) if (range.intersectsNode(node) && !SKIP.test(node.parentNode.nodeName)) nodes.push(node);
    nodes.forEach(function (n) {
      var from = n === first[0] ? first[1] : 0, to = n === last[0] ? last[1] + 1 : n.data.length;
      if (to <= from || !n.data.slice(from, to).trim()) return;
      var piece = from ? n.splitText(from) : n;
      piece.splitText(to - from);
      var m = document.createElement("mark");
      m.className = "fragment-mark";
      piece.parentNode.replaceChild(m, piece);
      m.appendChild(piece);
      marks.push(m);
    });
    return marks;
  }

  function clear() {
    [].forEach.call(document.querySelectorAll("mark.fragment-mark"), function (m) {
      var parent = m.parentNode;
      while (m.firstChild) parent.insertBefore(m.firstChild, m);
      parent.removeChild(m);
      parent.normalize();
    });
  }

  function apply(hash) {
    var d = directive(hash);
    if (!d) return;
    clear();
    var page = index(), span = find(page, d);
    var marks = span ? mark(page, span) : [];
    if (marks[0]) marks[0].scrollIntoView({ block: "center" });
  }

  // Chromium (with the feature off) strips the directive from location.hash; the navigation
  // entry and hashchange's newURL keep the URL as it was requested. When this script arrives
  // after a same-page link, the hash that loaded it is the one to apply.
  var entry = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
  var script = document.currentScript;
  apply(script && script.getAttribute("data-url") || (location.hash.indexOf(":~:") >= 0 ? location.hash
        : (entry ? entry.name : "")));
  addEventListener("hashchange", function (event) { apply(event.newURL || location.hash); });
})();
