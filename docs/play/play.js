// The page "Play a game": the library runs in Pyodide (loaded by live/python.js); this script
// only draws what play/session.py answers and sends it the reader's clicks. No rule is decided
// here. It runs once the page has loaded, after the site's scripts (live/python.js among them).
window.addEventListener("DOMContentLoaded", function () {
  "use strict";
  var root = document.getElementById("bottleimp-play");
  if (!root || !window.bottleimpPython) { return; }
  var $ = function (id) { return document.getElementById(id); };
  var form = $("play-options"), start = $("play-start"), status = $("play-status");
  var links = JSON.parse($("play-rule-links").textContent || "{}");
  var session = null, record = null;

  function say(text) { status.textContent = text; }

  function options() {
    var data = new FormData(form), words = ["--players", data.get("players")];
    if (data.get("edition")) { words.push("--edition", data.get("edition")); }
    if (data.get("bottles") === "2") { words.push("--bottles", "2"); }
    if (data.get("teams")) { words.push("--teams"); }
    if (data.get("length")) { words = words.concat(String(data.get("length")).split(" ")); }
    words.push("--bot", data.get("bot"), "--seed", String(data.get("seed") || "7"));
    return words;
  }

  function refusal(refused) {
    var box = $("play-refused");
    box.hidden = !refused;
    box.textContent = "";
    if (!refused) { return; }
    var link = links[refused.rule];
    box.appendChild(document.createTextNode("Refused by rule "));
    var code = document.createElement("code");
    code.className = "rule";
    code.textContent = refused.rule;
    if (link) {
      var a = document.createElement("a");
      a.href = link.href;
      a.title = link.title;
      a.appendChild(code);
      box.appendChild(a);
    } else {
      box.appendChild(code);
    }
    box.appendChild(document.createTextNode(": " + refused.message + "."));
    if (link) {
      box.appendChild(document.createTextNode(" "));
      var more = document.createElement("a");
      more.href = link.href;
      more.className = "rule-page";
      more.textContent = "Read the rule (" + link.title + ")";
      box.appendChild(more);
    }
  }

  // The story, one element a paragraph (the page wraps it, once) or a line of a score table
  // (kept whole: it scrolls on a narrow screen); a paragraph's indent is its depth.
  function story(lines, tables) {
    var box = $("play-story"), table = {};
    tables.forEach(function (index) { table[index] = true; });
    box.textContent = "";
    lines.forEach(function (line, index) {
      var text = line.replace(/^ +/, "");
      var row = document.createElement("div");
      row.className = table[index] ? "play-story-table" : "play-story-line";
      row.style.setProperty("--depth", String((line.length - text.length) / 2));
      row.textContent = table[index] ? line : text;
      box.appendChild(row);
    });
  }

  function draw(answer) {
    var shown = JSON.parse(answer);
    if (shown.error) { say(shown.error); return; }
    refusal(shown.refused);
    $("play-prompt").textContent = "Round " + shown.round + ". " + shown.prompt;
    var hand = $("play-hand");
    hand.textContent = "";
    shown.cards.forEach(function (card) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "play-card" + (card.legal ? " legal" : "");
      button.dataset.rank = card.rank;
      button.dataset.row = card.row;
      button.setAttribute("aria-label", card.label + (card.legal ? " (you may play it)" : ""));
      button.innerHTML = card.svg;
      button.addEventListener("click", function () { draw(session.choose(card.rank)); });
      hand.appendChild(button);
    });
    $("play-table").innerHTML = shown.table;
    story(shown.story, shown.table_lines);
    $("play-story-box").hidden = false;
    var scores = $("play-scores");
    scores.hidden = !shown.scores;
    scores.innerHTML = shown.scores || "";
    var next = $("play-next-round");
    next.hidden = !shown.deal_next;
    next.textContent = shown.dealer === shown.seat ? "Deal the next round"
                       : "Go on: seat " + shown.dealer + " deals round " + (shown.round + 1);
    var download = $("play-download");
    if (record) { URL.revokeObjectURL(record); record = null; }
    download.hidden = !shown.over;
    if (shown.over) {
      record = URL.createObjectURL(new Blob([session.record()], { type: "application/json" }));
      download.href = record;
    }
    root.dataset.phase = shown.over ? "over" : shown.phase;
    say(shown.over ? "The game is over: totals " + shown.totals.join(", ") + "."
                   : "Totals so far: " + shown.totals.join(", ") + ".");
  }

  async function load() {
    var module = await bottleimpPython.module(
      "bottleimp_play_session", new URL("session.py", document.baseURI).href);
    session = module.session;
    var bots = JSON.parse(module.bot_names());
    var select = form.elements.bot;
    bots.forEach(function (name) {
      var option = document.createElement("option");
      option.value = option.textContent = name;
      option.selected = name === "heuristic";
      select.appendChild(option);
    });
    start.disabled = false;
    start.textContent = "Start a game";
    root.dataset.ready = "true";
    say("Ready: choose the variant and start a game.");
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (!session) { return; }
    var words = options();
    $("play-command").textContent = "bottleimp simulate " + words.join(" ");
    draw(session.start(JSON.stringify(words)));
  });
  $("play-next-round").addEventListener("click", function () { draw(session.next_round()); });
  load().catch(function (error) {
    say("Python could not start in this browser: " + error);
    console.error(error);
  });
});
