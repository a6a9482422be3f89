/* The chat's streaming enhancement. Without it the form posts to /chat and the server
   draws the answer. With it, each sentence appears as soon as the server has resolved its
   chips. Answer text is only ever set with textContent, and a chip is drawn only for a
   same-site path (the server sends nothing else: chip URLs come from the allowlist). */
(function () {
  if (!window.fetch || !window.TextDecoder) return;
  var history = [];

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text != null) node.textContent = text;
    return node;
  }

  function sentence(s) {
    var p = el("p", "sentence " + s.status + (s.item ? " item" : ""), s.text);
    if (s.status === "unverified") p.append(" ", el("span", "badge", "unverified"));
    s.citations.forEach(function (c) {
      if (!/^\/(?!\/)/.test(c.url)) return;
      var a = el("a", "chip");
      a.href = c.url;
      if (c.language) a.lang = c.language;
      a.append(el("span", "chip-page", c.title), " ");
      if (c.section) a.append(el("span", "chip-section", c.section), " ");
      a.append(el("span", "chip-quote", c.quote));
      p.append(" ", a);
    });
    return p;
  }

  function removed(d) {
    var said = [[d.citations, "unverifiable citation", "unverifiable citations"],
                [d.sentences, "unsupported sentence", "unsupported sentences"],
                [d.links + d.markup, "link or tag", "links or tags"]]
      .filter(function (x) { return x[0]; })
      .map(function (x) { return x[0] + " " + (x[0] === 1 ? x[1] : x[2]); });
    return said.length ? "Removed: " + said.join(", ") + "." : "";
  }

  async function ask(form, question, log) {
    var turn = el("div", "turn"), answer = el("div", "answer"), said = [], got = false;
    var asked = el("p", "asked", question);
    asked.dir = "auto";
    turn.append(asked, answer);
    log.append(turn);
    log.setAttribute("aria-busy", "true");

    function handle(block) {
      var kind = "message", data = "";
      block.split("\n").forEach(function (line) {
        if (line.indexOf("event:") === 0) kind = line.slice(6).trim();
        else if (line.indexOf("data:") === 0) data += line.slice(5);
      });
      if (!data) return;
      var d = JSON.parse(data);
      if (kind === "start" && d.language) answer.lang = d.language;
      if (kind === "sentence") { got = true; said.push(d.text); answer.append(sentence(d)); }
      if (kind === "error") answer.append(el("p", "note", d.message));
      if (kind === "done") {
        if (d.languages) answer.append(el("p", "note languages", d.languages));
        if (d.note) answer.append(el("p", "note", d.note));
        if (removed(d.dropped)) answer.append(el("p", "dropped", removed(d.dropped)));
      }
    }

    var response = await fetch("/api/chat", {
      method: "POST",
      headers: {"Content-Type": "application/json", "Accept": "text/event-stream"},
      body: JSON.stringify({question: question, history: history.slice(-12)})
    });
    if (!response.ok || !response.body) throw new Error("HTTP " + response.status);
    var reader = response.body.getReader(), decoder = new TextDecoder(), buffer = "";
    try {
      for (;;) {
        var part = await reader.read();
        if (part.done) break;
        buffer += decoder.decode(part.value, {stream: true});
        var blocks = buffer.split("\n\n");
        buffer = blocks.pop();
        blocks.forEach(handle);
      }
    } catch (error) {
      if (!got) throw error;
      answer.append(el("p", "note", "The answer was cut off."));
    }
    history.push({role: "user", content: question}, {role: "assistant", content: said.join(" ")});
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("chat-form")) return;
    var input = form.elements.question, log = form.parentNode.querySelector(".transcript");
    var question = input.value.trim();
    if (!question || !log) return;
    event.preventDefault();
    var button = form.querySelector("button");
    button.disabled = true;
    ask(form, question, log).then(function () {
      input.value = "";
    }, function () {
      form.submit();   // no stream: the form still works the old way
    }).finally(function () {
      button.disabled = false;
      log.setAttribute("aria-busy", "false");
      input.focus();
    });
  });
})();
