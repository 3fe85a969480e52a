// The library itself in the reader's browser: Pyodide's runtime and the wheels of bottleimp and
// attrs, all served with this site (scripts/build_play.py puts them under assets/), loaded once
// per page and only when a page first asks for them. Used by the page "Play a game"
// (play/play.js) and by the runnable examples (live/live.js).
(function () {
  "use strict";
  if (window.bottleimpPython) { return; }
  var root = new URL("../", document.currentScript.src).href;  // this file is live/python.js
  var assets = root + "assets/";
  var loading = null;

  function script(src) {
    return new Promise(function (done, fail) {
      var tag = document.createElement("script");
      tag.src = src;
      tag.onload = done;
      tag.onerror = function () { fail(new Error("could not load " + src)); };
      document.head.appendChild(tag);
    });
  }

  async function fetched(url, kind) {
    var answer = await fetch(url);
    if (!answer.ok) { throw new Error(url + ": " + answer.status); }
    return answer[kind]();
  }

  async function load() {
    if (typeof loadPyodide !== "function") { await script(assets + "pyodide/pyodide.js"); }
    var pyodide = await loadPyodide({ indexURL: assets + "pyodide/" });
    var wheels = await fetched(assets + "play/wheels.json", "json");
    var paths = [];
    for (var i = 0; i < wheels.length; i += 1) {
      var bytes = await fetched(assets + "play/wheels/" + wheels[i], "arrayBuffer");
      var path = "/tmp/" + wheels[i];
      pyodide.FS.writeFile(path, new Uint8Array(bytes));
      paths.push(path);
    }
    pyodide.globals.set("wheel_paths", pyodide.toPy(paths));
    pyodide.runPython(
      "import site, sys, zipfile, importlib\n" +
      "for path in wheel_paths:\n" +
      "    zipfile.ZipFile(path).extractall(site.getsitepackages()[0])\n" +
      "sys.path.insert(0, '/home/pyodide')\n" +
      "importlib.invalidate_caches()\n");
    return pyodide;
  }

  // Pyodide with bottleimp installed (the same promise for every caller of the page).
  function python() {
    if (!loading) {
      loading = load();
      loading.catch(function () { loading = null; });  // a later click tries again
    }
    return loading;
  }

  // The Python module `name`, from the file at `url` (a page's own helper, such as
  // play/session.py), imported into the page's Pyodide.
  python.module = async function (name, url) {
    var pyodide = await python();
    var source = await fetched(url, "text");
    pyodide.FS.writeFile("/home/pyodide/" + name + ".py", source);
    pyodide.runPython("import importlib; importlib.invalidate_caches()");
    return pyodide.pyimport(name);
  };
  python.root = root;
  window.bottleimpPython = python;
})();
