#!/usr/bin/env node
// `npm run dev`: the API with reload on change (tsx watch) and the web app with hot module
// replacement (Vite on :5173, proxying /api and /socket.io to the API on :3000).
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules/.bin", name);
const children = [
  spawn(bin("tsx"), ["watch", "--clear-screen=false", "apps/server/src/main.ts"], {
    cwd: root,
    stdio: "inherit",
  }),
  spawn(bin("vite"), [], { cwd: path.join(root, "apps/web"), stdio: "inherit" }),
];
console.log("Cohort dev: open http://localhost:5173 (API on http://localhost:3000)");
const stop = () => {
  for (const child of children) child.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const child of children)
  child.on("exit", (code) => {
    if (code) {
      stop();
      process.exitCode = code;
    }
  });
