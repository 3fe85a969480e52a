// Runnable examples: every example of a page that the test suite runs (a code block of class
// live-example, marked by docs/hooks.py) gets a Run and an Edit button. Run executes it with
// the library itself in the browser (Pyodide, loaded on the first click by live/python.js),
// after the page's examples above it, in one namespace, as the tests run a page
// (live/examples.py does the running); the output appears under the block, compared with the
// output the page shows. Edit turns the block into a text box; Reset brings the page's back.
(function () {
  "use strict";
  var python = window.bottleimpPython;
  var blocks = [].slice.call(document.querySelectorAll("article .live-example"));
  if (!python || !blocks.length) { return; }
  var catalogue = python.root + "reference/rules/";
  var runner = null;
  var busy = false;

  // What the reader edits: a doctest's statements without prompts or outputs (plain Python),
  // a console block's commands without their outputs, a script as it is.
  function commands(text) {
    return text.split("\n").filter(function (line) { return /^\$ /.test(line); }).join("\n") + "\n";
  }

  function statements(text) {
    var kept = [], inside = false;
    text.split("\n").forEach(function (line) {
      if (/^>>>( |$)/.test(line)) { kept.push(line.slice(4)); inside = true; }
      else if (inside && /^\.\.\.( |$)/.test(line)) { kept.push(line.slice(4)); }
      else { inside = false; }
    });
    return kept.join("\n").replace(/\s+$/, "") + "\n";
  }

  function element(tag, className, text) {
    var made = document.createElement(tag);
    if (className) { made.className = className; }
    if (text !== undefined) { made.textContent = text; }
    return made;
  }

  var examples = blocks.map(function (block, index) {
    var original = block.querySelector("code").textContent;
    var example = {
      block: block, index: index, original: original, editor: null,
      kind: block.classList.contains("language-console") ? "shell"
        : /^\s*>>>/.test(original) ? "doctest" : "script",
    };
    var bar = element("div", "live-bar");
    example.run = element("button", "md-button live-run", "Run");
    example.edit = element("button", "md-button live-edit", "Edit");
    example.status = element("span", "live-status");
    example.status.setAttribute("role", "status");
    [example.run, example.edit].forEach(function (button) { button.type = "button"; });
    bar.append(example.run, example.edit, example.status);
    example.output = element("div", "live-output");
    example.output.hidden = true;
    example.output.setAttribute("aria-live", "polite");
    block.after(bar, example.output);
    [block, bar, example.output].forEach(function (each) { each.dataset.liveIndex = String(index); });
    example.run.addEventListener("click", function () { run(example); });
    example.edit.addEventListener("click", function () { toggleEditor(example); });
    return example;
  });

  // What runs, and how (a mode of live/examples.py): the page's block, or the reader's text.
  var EDITED = { doctest: "statements", script: "script", shell: "commands" };
  function source(example) {
    if (example.editor) { return { text: example.editor.value, mode: EDITED[example.kind] }; }
    return { text: example.original, mode: example.kind };
  }

  function toggleEditor(example) {
    if (example.editor) {
      example.editor.remove();
      example.editor = null;
      example.block.hidden = false;
      example.edit.textContent = "Edit";
      example.status.textContent = "";
      example.output.hidden = true;
      return;
    }
    var text = example.kind === "doctest" ? statements(example.original)
      : example.kind === "shell" ? commands(example.original) : example.original;
    var editor = element("textarea", "live-editor");
    editor.value = text;
    editor.rows = Math.min(30, text.split("\n").length + 1);
    editor.spellcheck = false;
    editor.setAttribute("autocapitalize", "off");
    editor.setAttribute("aria-label", "Example " + (example.index + 1) + ", editable");
    editor.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        run(example);
      } else if (event.key === "Tab" && !event.shiftKey) {
        event.preventDefault();
        editor.setRangeText("    ", editor.selectionStart, editor.selectionEnd, "end");
      }
    });
    example.block.hidden = true;
    example.block.after(editor);
    example.editor = editor;
    example.edit.textContent = "Reset";
    example.status.textContent = {
      doctest: "Plain Python: each line's value is shown, as in a Python console.",
      shell: "bottleimp commands, one a line, run by the library in this page.",
      script: "Python: the value of the last line is shown.",
    }[example.kind] + " Ctrl+Enter runs it.";
    editor.focus();
  }

  function prompted(code) {
    return code.replace(/\n$/, "").split("\n").map(function (line, number) {
      return (number ? "... " : ">>> ") + line;
    }).join("\n") + "\n";
  }

  function ruleNote(rule) {
    var note = element("p", "live-rule");
    var link = element("a");
    link.href = catalogue + "#" + rule.toLowerCase();
    link.appendChild(element("code", "rule", rule));
    note.append("Refused by rule ", link, " (its entry in the rules catalogue).");
    return note;
  }

  // One block's result: its statements (with prompts for a console), outputs, errors, pictures.
  function show(example, result, before) {
    var out = example.output;
    out.textContent = "";
    out.hidden = false;
    if (before.length) {
      var failed = before.filter(function (earlier) { return !earlier.ok; });
      var note = element("p", "live-note", "Ran the " + before.length + " example" +
        (before.length > 1 ? "s" : "") + " above it first: a page's examples share their names.");
      failed.forEach(function (earlier) {
        var error = earlier.items.map(function (item) { return item.error; }).filter(Boolean)[0];
        note.append(" Example " + (earlier.index + 1) + " failed" +
          (error ? ": " + error.line : ": its output differs from the page") + ".");
      });
      out.appendChild(note);
    }
    var pre = null;
    function text(content, className) {
      if (!pre) { pre = out.appendChild(element("pre", "live-transcript")); }
      pre.appendChild(element("span", className, content));
    }
    var rules = [], python = result.mode === "doctest" || result.mode === "statements";
    result.items.forEach(function (item) {
      if (item.source) { text(python ? prompted(item.source) : item.source, "live-source"); }
      if (item.output) { text(item.output, item.matches === false ? "live-got live-differs" : "live-got"); }
      if (item.error) {
        text((python ? "Traceback (most recent call last):\n  ...\n" : "") +
             item.error.line + "\n", "live-error");
        if (item.error.rule) { rules.push(item.error.rule); }
      }
      if (item.matches === false) { text("The page shows:\n" + item.want, "live-want"); }
      if (item.svg) {
        var figure = element("figure", "bottleimp-figure live-picture");
        figure.innerHTML = item.svg;
        out.appendChild(figure);
        pre = null;
      }
    });
    rules.forEach(function (rule) { out.appendChild(ruleNote(rule)); });
    var checked = result.items.some(function (item) { return item.matches !== null; });
    // A command that exits with an error says so, even when the page shows that error.
    var failing = result.items.filter(function (item) { return item.status; });
    var exited = failing.length ? " The command exited with status " + failing[0].status +
      " (" + (failing[0].status === 1 ? "a broken rule or a failed check" : "an error") + ")." : "";
    example.status.textContent = !result.ok ? "Ran: " + (rules.length || result.items.some(
      function (item) { return item.error; }) ? "it raised an error." : "the output differs from the page.")
      : (checked ? "Ran: the output is the page's." : "Ran.") + exited;
    out.dataset.state = result.ok ? "ok" : "failed";
  }

  async function run(example) {
    if (busy) { return; }
    busy = true;
    examples.forEach(function (each) { each.run.disabled = true; });
    example.output.dataset.state = "running";
    try {
      if (!runner) {
        example.status.textContent = "Loading Python and the library (about 12 MB, once)…";
        runner = await python.module("bottleimp_live_examples", python.root + "live/examples.py");
      }
      example.status.textContent = "Running…";
      // Let the page show it before Python holds the page (a run blocks it while it lasts).
      await new Promise(function (done) { requestAnimationFrame(function () { setTimeout(done, 0); }); });
      var sources = examples.slice(0, example.index + 1).map(source);
      var results = JSON.parse(runner.run_up_to(JSON.stringify(sources)));
      show(example, results[results.length - 1], results.slice(0, -1));
    } catch (error) {
      example.status.textContent = "Python could not run here: " + error;
      example.output.dataset.state = "broken";
      console.error(error);
    } finally {
      busy = false;
      examples.forEach(function (each) { each.run.disabled = false; });
    }
  }
})();
