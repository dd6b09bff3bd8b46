// Run a Python file in Pyodide under node, with the project folder mounted read-only in spirit
// (Python writes no bytecode there) at /project and put first on sys.path.
//
//     node tests/pyodide/run.mjs PROJECT_ROOT SCRIPT.py
//
// Offline: Pyodide's core and its standard library come from node_modules/pyodide; gamelib
// comes from the mounted source, not from micropip. The script's last expression must be a
// string; it is printed on one line after the marker "RESULT ".
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { loadPyodide } from "pyodide";

const [projectRoot, script] = process.argv.slice(2);
if (!projectRoot || !script) {
  console.error("usage: node run.mjs PROJECT_ROOT SCRIPT.py");
  process.exit(2);
}
const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/project");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: resolve(projectRoot) }, "/project");
pyodide.runPython(`
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, "/project")
`);
const result = await pyodide.runPythonAsync(readFileSync(script, "utf8"));
console.log("RESULT " + result);
