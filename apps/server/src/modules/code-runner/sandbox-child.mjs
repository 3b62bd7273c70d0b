// The sandbox's child process (decision 062). Plain JavaScript on purpose: it runs under
// Node's permission model with read access to nothing but this file and the engines'
// packages, so it cannot load a TypeScript loader. It is started by run-in-sandbox.ts with
// an empty environment, no network, no child processes, no workers and no file system
// beyond the engines; the parent kills it at the time limit. Files travel over the IPC
// channel: the engine's own in-memory file system holds them during a run.
//
// argv: <language: python|javascript> <engine entry file URL> <memory limit in bytes>
//       <output limit in bytes> <the Python test discovery (python-checks.ts)>
import childProcess from "node:child_process";
import dgram from "node:dgram";
import dns from "node:dns";
import { constants as fsConstants } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import https from "node:https";
import inspector from "node:inspector";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";
import tls from "node:tls";
import wasi from "node:wasi";

const [language, engineUrl, memoryArg, outputArg, pythonChecks = ""] = process.argv.slice(2);
const memoryLimit = Number(memoryArg);
const outputLimit = Number(outputArg);
const WASM_PAGE = 65536;
let memoryRefused = false;

function denyNetwork() {
  const deny = () => {
    throw new Error("Network access is disabled in the code sandbox.");
  };
  net.connect = deny;
  net.createConnection = deny;
  net.createServer = deny;
  net.Socket.prototype.connect = deny;
  net.Server.prototype.listen = deny;
  tls.connect = deny;
  tls.createServer = deny;
  dgram.createSocket = deny;
  dgram.Socket.prototype.bind = deny;
  dgram.Socket.prototype.send = deny;
  for (const mod of [http, https]) {
    mod.request = deny;
    mod.get = deny;
    mod.createServer = deny;
  }
  http2.connect = deny;
  http2.createServer = deny;
  http2.createSecureServer = deny;
  // DNS queries leave the machine too: every function of node:dns and its resolvers.
  for (const target of [
    dns,
    dns.promises,
    dns.Resolver.prototype,
    dns.promises.Resolver.prototype,
  ]) {
    for (const key of Object.getOwnPropertyNames(target)) {
      if (key === "constructor" || key === "Resolver") continue;
      if (typeof target[key] === "function") target[key] = deny;
    }
  }
  inspector.open = deny;
  wasi.WASI = function WASI() {
    throw new Error("WASI is not available in the code sandbox.");
  };
  // The permission model refuses processes too; this answers Pyodide's os.system with
  // "command not found" (127) and a sentence instead of a fatal error.
  childProcess.spawnSync = (command) => {
    err.write(
      `Processes cannot be started in the code sandbox (${String(command).slice(0, 200)}).\n`,
    );
    return { status: 127, signal: null };
  };
  for (const name of ["spawn", "exec", "execFile", "fork", "execSync", "execFileSync"]) {
    childProcess[name] = () => {
      throw new Error("Processes cannot be started in the code sandbox.");
    };
  }
  syncBuiltinESMExports();
  for (const name of ["fetch", "WebSocket", "EventSource", "XMLHttpRequest"]) {
    delete globalThis[name];
  }
}

/** The engines' wasm memories grow through Memory.prototype.grow (Emscripten's sbrk asks
 * JavaScript); past the run's limit the growth fails and the engine reports out of memory. */
function capWasmMemory() {
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function cappedGrow(delta) {
    if (this.buffer.byteLength + delta * WASM_PAGE > memoryLimit) {
      memoryRefused = true;
      throw new RangeError("The code sandbox's memory limit was reached.");
    }
    return grow.call(this, delta);
  };
}

/** What a loaded engine leaves on the global object that reaches the host goes. */
function sealHost() {
  delete globalThis.require;
  for (const name of ["binding", "_linkedBinding", "dlopen", "getBuiltinModule", "kill"]) {
    try {
      process[name] = undefined;
    } catch {}
  }
}

let sent = 0;
let limited = false;
function emit(stream, text) {
  if (limited || text.length === 0) return;
  const bytes = Buffer.byteLength(text);
  if (sent + bytes > outputLimit) {
    const room = Math.max(0, outputLimit - sent);
    process.send({ type: "output", stream, text: Buffer.from(text).subarray(0, room).toString() });
    limited = true;
    process.send({ type: "limit", limit: "output" });
    // The code's print fails from here on; the parent stops the run on the message above.
    throw new Error("The code sandbox's output limit was reached.");
  }
  sent += bytes;
  process.send({ type: "output", stream, text });
}

function makeBuffered(stream) {
  let pending = "";
  return {
    write(text) {
      pending += text;
      if (pending.length >= 8192) this.flush();
    },
    flush() {
      const text = pending;
      pending = "";
      emit(stream, text);
    },
  };
}

const out = makeBuffered("stdout");
const err = makeBuffered("stderr");

denyNetwork();
capWasmMemory();
// Pyodide's NODEFS reads the file flags through process.binding, which the permission model
// refuses; it gets them from here (NODEFS itself reaches nothing: no read permission).
process.binding = (name) => {
  if (name === "constants") return { fs: fsConstants };
  throw new Error(`process.binding(${name}) is not available in the code sandbox.`);
};

const PY_DRIVER = `
import sys, os, traceback, json
def _cohort_run(code, filename, run_tests):
    os.chdir('/work')
    if '/work' not in sys.path:
        sys.path.insert(0, '/work')
    env = {'__name__': '__main__', '__file__': filename}
    status = 0
    checks = None
    try:
        exec(compile(code, filename, 'exec'), env)
    except SystemExit as e:
        if isinstance(e.code, int):
            status = e.code
        elif e.code is not None:
            print(e.code, file=sys.stderr)
            status = 1
    except BaseException:
        traceback.print_exc()
        status = 1
    if run_tests and status == 0:
        checks = _cohort_checks(env)
        if checks['failed'] > 0:
            status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    return json.dumps({'status': status, 'checks': checks})
`;

async function loadPython() {
  const { loadPyodide } = await import(engineUrl);
  const py = await loadPyodide({
    jsglobals: Object.create(null),
    stdout: () => {},
    stderr: () => {},
    checkAPIVersion: true,
  });
  const decoder = new TextDecoder();
  py.setStdout({
    write: (buf) => {
      out.write(decoder.decode(buf.subarray(0, outputLimit + 1)));
      return buf.length;
    },
  });
  py.setStderr({
    write: (buf) => {
      err.write(decoder.decode(buf.subarray(0, outputLimit + 1)));
      return buf.length;
    },
  });
  // The test discovery, shared with the Jupyter runner (python-checks.ts), comes from the
  // parent: this process reads no file but its own.
  py.runPython(pythonChecks);
  py.runPython(PY_DRIVER);
  // Python code reaches JavaScript through these modules; the sandbox offers none of it.
  py.runPython(`
import sys
class _CohortBlock:
    blocked = {'js', 'pyodide_js', 'pyodide', '_pyodide', '_pyodide_core', 'pyodide.code', 'pyodide.ffi', 'pyodide.http', 'micropip'}
    def find_spec(self, name, path=None, target=None):
        if name in self.blocked or name.split('.')[0] in self.blocked:
            raise ImportError('module ' + repr(name) + ' is not available in the code sandbox')
        return None
sys.meta_path.insert(0, _CohortBlock())
for _name in list(sys.modules):
    if _name.split('.')[0] in _CohortBlock.blocked:
        del sys.modules[_name]
del _name
`);
  const run = py.globals.get("_cohort_run");
  return {
    run(job) {
      py.FS.mkdirTree("/work");
      writeFiles(py.FS, job.files);
      const raw = run(job.code, job.filename, job.runTests);
      out.flush();
      err.flush();
      const result = JSON.parse(raw);
      return { ...result, files: readFiles(py.FS, job.files) };
    },
  };
}

function writeFiles(FS, files) {
  for (const file of files) {
    const full = `/work/${file.name}`;
    const dir = full.slice(0, full.lastIndexOf("/"));
    FS.mkdirTree(dir);
    FS.writeFile(full, file.content);
  }
}

function readFiles(FS, before) {
  const previous = new Map(before.map((f) => [f.name, f.content]));
  const changed = [];
  const walk = (dir, prefix) => {
    for (const entry of FS.readdir(dir)) {
      if (entry === "." || entry === "..") continue;
      const full = `${dir}/${entry}`;
      const name = prefix ? `${prefix}/${entry}` : entry;
      const stat = FS.stat(full);
      if (FS.isDir(stat.mode)) walk(full, name);
      else if (FS.isFile(stat.mode)) {
        const content = FS.readFile(full);
        const old = previous.get(name);
        if (!old || Buffer.compare(Buffer.from(old), Buffer.from(content)) !== 0) {
          changed.push({ name, content });
        }
      }
    }
  };
  walk("/work", "");
  return changed;
}

async function loadJavaScript() {
  const { getQuickJS, shouldInterruptAfterDeadline } = await import(engineUrl);
  const quickjs = await getQuickJS();
  return {
    run(job) {
      const runtime = quickjs.newRuntime();
      runtime.setMemoryLimit(memoryLimit);
      runtime.setMaxStackSize(1024 * 1024);
      runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + job.timeoutMs));
      const vm = runtime.newContext();
      const files = new Map(job.files.map((f) => [f.name, Buffer.from(f.content)]));
      const written = new Set();
      const format = (args) =>
        args
          .map((h) => {
            const v = vm.dump(h);
            return typeof v === "string" ? v : JSON.stringify(v);
          })
          .join(" ");
      const consoleObj = vm.newObject();
      for (const [name, target] of [
        ["log", out],
        ["info", out],
        ["warn", err],
        ["error", err],
      ]) {
        const fn = vm.newFunction(name, (...args) => {
          target.write(`${format(args)}\n`);
        });
        vm.setProp(consoleObj, name, fn);
        fn.dispose();
      }
      vm.setProp(vm.global, "console", consoleObj);
      consoleObj.dispose();
      const readFile = vm.newFunction("readFile", (nameHandle) => {
        const name = vm.getString(nameHandle);
        const content = files.get(name);
        if (!content) return { error: vm.newError(`No such file: ${name}`) };
        return { value: vm.newString(content.toString("utf8")) };
      });
      const writeFile = vm.newFunction("writeFile", (nameHandle, textHandle) => {
        const name = vm.getString(nameHandle);
        if (!/^[\w.-]+(\/[\w.-]+)*$/.test(name) || name.split("/").includes("..")) {
          return { error: vm.newError(`Invalid file name: ${name}`) };
        }
        files.set(name, Buffer.from(vm.getString(textHandle)));
        written.add(name);
        return { value: vm.undefined };
      });
      vm.setProp(vm.global, "readFile", readFile);
      vm.setProp(vm.global, "writeFile", writeFile);
      readFile.dispose();
      writeFile.dispose();
      let status = 0;
      let checks = null;
      const result = vm.evalCode(job.code, job.filename);
      const report = (error) => {
        const e = vm.dump(error);
        error.dispose();
        const text =
          e && typeof e === "object"
            ? `${e.name ?? "Error"}: ${e.message ?? ""}${e.stack ? `\n${e.stack}` : ""}`
            : `Uncaught ${String(e)}`;
        if (e && typeof e === "object" && e.message === "out of memory") memoryRefused = true;
        err.write(`${text.trimEnd()}\n`);
      };
      if (result.error) {
        report(result.error);
        status = 1;
      } else {
        result.value.dispose();
        // Promises settle as the job queue drains (top-level async code).
        runtime.executePendingJobs();
        if (job.runTests) {
          checks = { ran: 0, passed: 0, failed: 0, failures: [] };
          const namesHandle = vm.unwrapResult(
            vm.evalCode(
              "Object.keys(globalThis).filter((k) => /^test/.test(k) && typeof globalThis[k] === 'function')",
            ),
          );
          const names = vm.dump(namesHandle);
          namesHandle.dispose();
          for (const name of names) {
            checks.ran += 1;
            const r = vm.evalCode(`globalThis[${JSON.stringify(name)}]()`);
            if (r.error) {
              checks.failed += 1;
              checks.failures.push(name);
              const e = vm.dump(r.error);
              r.error.dispose();
              err.write(`FAILED ${name}: ${e?.name ?? "Error"}: ${e?.message ?? String(e)}\n`);
            } else {
              r.value.dispose();
              checks.passed += 1;
            }
          }
          if (checks.failed > 0) status = 1;
        }
      }
      out.flush();
      err.flush();
      vm.dispose();
      runtime.dispose();
      return {
        status,
        checks,
        files: [...written].map((name) => ({ name, content: files.get(name) })),
      };
    },
  };
}

try {
  const engine = language === "python" ? await loadPython() : await loadJavaScript();
  sealHost();
  process.on("message", (job) => {
    let result;
    try {
      result = engine.run(job);
    } catch (e) {
      out.flush();
      err.flush();
      const message = e instanceof Error ? e.message : String(e);
      const memory = /memory|Out of bounds|RangeError: WebAssembly/i.test(message);
      process.send({ type: "limit", limit: memory ? "memory" : "crash", message }, () =>
        process.exit(0),
      );
      return;
    }
    process.send({ type: "done", ...result, memoryRefused }, () => process.exit(0));
  });
  process.send({ type: "ready" });
} catch (e) {
  process.send({ type: "failed", message: e instanceof Error ? e.stack : String(e) }, () =>
    process.exit(1),
  );
}
