// offline.js: the Game Search Notebooks site says so when Python cannot be loaded.
//
// lite/build.py copies this file into the JupyterLite site and loads it from every page
// that runs a kernel. The Pyodide kernel fetches Python (Pyodide) and its packages when a
// notebook opens; without a network that fails, and JupyterLite only leaves the cells at
// [*] with the reason in its Log console. This script fetches the same addresses the
// kernel needs (read from the site's jupyter-lite.json) and, if one cannot be reached,
// shows a banner that says what happened and what to do, and writes the reason at the top of
// every notebook (where a cell stays at [*]), which stays once the banner is closed. It
// changes nothing else.
(function () {
  "use strict";

  var KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel";
  var PROBE_TIMEOUT_MS = 15000;
  var script = document.currentScript;
  var root = new URL(".", script ? script.src : window.location.href);

  // Resolves to true when `url` answers (from the network or the browser's cache).
  function reachable(url) {
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, PROBE_TIMEOUT_MS);
    return fetch(url, { mode: "no-cors", signal: controller.signal })
      .then(function () { return true; }, function () { return false; })
      .finally(function () { clearTimeout(timer); });
  }

  function readJson(url) {
    return fetch(url).then(function (response) {
      if (!response.ok) { throw new Error(url + ": HTTP " + response.status); }
      return response.json();
    });
  }

  // The addresses without which the kernel cannot start: Pyodide's module and lockfile,
  // and the first package the kernel loads (micropip).
  function kernelNeeds(config) {
    var data = config["jupyter-config-data"] || {};
    var settings = (data.litePluginSettings || {})[KERNEL_PLUGIN] || {};
    var options = settings.loadPyodideOptions || {};
    var pyodide = new URL(settings.pyodideUrl, root);
    var lockUrl = new URL(options.lockFileURL || "pyodide-lock.json", pyodide);
    var needs = [{ what: "Python (Pyodide)", url: pyodide.href }];
    if (lockUrl.origin !== window.location.origin) {
      needs.push({ what: "Python's package list", url: lockUrl.href });
      return Promise.resolve(needs);
    }
    return readJson(lockUrl.href).then(function (lock) {
      var micropip = (lock.packages || {}).micropip;
      if (micropip) {
        var base = new URL(options.packageBaseUrl || ".", lockUrl);
        needs.push({ what: "Python's packages", url: new URL(micropip.file_name, base).href });
      }
      return needs;
    }, function () {
      needs.push({ what: "Python's package list", url: lockUrl.href });
      return needs;
    });
  }

  var IN_NOTEBOOK =
    "Python could not be loaded (no network), so the code cells do not run: a cell stays " +
    "at [*]. Go online and reload this page, or use the local install (make lab).";

  // The reason, in every notebook of the page, above its first cell.
  function sayInNotebooks() {
    var style = document.createElement("style");
    style.id = "gamelib-offline-style";
    style.textContent =
      ".jp-Notebook::before { content: " + JSON.stringify(IN_NOTEBOOK) + "; display: block; " +
      "margin: 8px 16px; padding: 8px 12px; border-radius: 4px; background: #fff4e5; " +
      "color: #3b2300; border: 1px solid #b45309; font: 15px/1.4 system-ui, sans-serif; }";
    document.head.appendChild(style);
  }

  function show(missing) {
    if (document.getElementById("gamelib-offline")) { return; }
    sayInNotebooks();
    var hosts = [];
    missing.forEach(function (need) {
      var host = new URL(need.url).host;
      if (hosts.indexOf(host) < 0) { hosts.push(host); }
    });
    var box = document.createElement("div");
    box.id = "gamelib-offline";
    box.setAttribute("role", "alert");
    box.style.cssText = [
      "position: fixed", "top: 12px", "left: 50%", "transform: translateX(-50%)",
      "z-index: 100000", "max-width: 44rem", "padding: 16px 20px", "border-radius: 6px",
      "background: #fff4e5", "color: #3b2300", "border: 2px solid #b45309",
      "box-shadow: 0 4px 16px rgba(0, 0, 0, 0.25)", "font: 16px/1.45 system-ui, sans-serif"
    ].join("; ");
    var title = document.createElement("strong");
    title.textContent = "Python could not be loaded, so the code cells will not run.";
    var why = document.createElement("p");
    why.textContent =
      "This site runs Python inside your browser, and the browser must download Python and " +
      "its packages from the internet when a notebook opens. It could not reach " +
      hosts.join(", ") + ". The notebooks and their saved outputs can still be read.";
    var todo = document.createElement("ul");
    [
      ["Go online, then reload this page."],
      ["Or use the local install instead: JupyterLab on your computer (", "make lab",
        " in the project's folder, see its README), which needs no network after the install."]
    ].forEach(function (parts) {
      var item = document.createElement("li");
      parts.forEach(function (part, i) {
        var piece = document.createElement(i % 2 ? "code" : "span");
        piece.textContent = part;
        if (i % 2) { piece.style.cssText = "font-size: 0.95em; white-space: nowrap"; }
        item.appendChild(piece);
      });
      todo.appendChild(item);
    });
    var close = document.createElement("button");
    close.type = "button";
    close.textContent = "Close";
    close.style.cssText = "font: inherit; padding: 2px 12px; cursor: pointer";
    close.addEventListener("click", function () { box.remove(); });
    [why, todo].forEach(function (el) { el.style.margin = "8px 0"; });
    box.append(title, why, todo, close);
    document.body.appendChild(box);
    console.warn("gamelib: Python cannot be loaded; unreachable: " +
      missing.map(function (need) { return need.url; }).join(", "));
  }

  function check() {
    return readJson(new URL("jupyter-lite.json", root).href)
      .then(kernelNeeds)
      .then(function (needs) {
        return Promise.all(needs.map(function (need) { return reachable(need.url); }))
          .then(function (answers) {
            var missing = needs.filter(function (need, i) { return !answers[i]; });
            // For tests and the curious: the outcome of the check.
            window.gamelibPython = missing.length ? "unreachable" : "reachable";
            if (missing.length) { show(missing); }
          });
      })
      .catch(function (error) {
        console.warn("gamelib: could not check whether Python can be loaded: " + error);
      });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", check);
  } else {
    check();
  }
})();
