#!/usr/bin/env node
// Adds the lock entries `npm install` leaves out when the registry it reads lacks a package's
// platform builds (Biome's macOS, Windows, Android and musl binaries on this mirror), so that
// `npm ci` accepts the lock on every machine. Each added entry names its os/cpu, so npm skips
// it everywhere else without fetching it; `npm install` keeps such entries. Run it after any
// `npm install` that changed package-lock.json (decision 039).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const lockFile = path.join(root, "package-lock.json");
const PLATFORM = /-(android|darwin|linux|win32|freebsd)-(x64|arm64|ia32|arm)(-(musl|gnu|msvc))?$/;

const lock = JSON.parse(readFileSync(lockFile, "utf8"));
const added = [];
for (const [key, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const target = `node_modules/${name}`;
    const match = PLATFORM.exec(name);
    if (lock.packages[target] || !match || !/^\d+\.\d+\.\d+/.test(version)) continue;
    const [, os, cpu, , libc] = match;
    const base = name.split("/").pop();
    lock.packages[target] = {
      version,
      resolved: `https://registry.npmjs.org/${name}/-/${base}-${version}.tgz`,
      cpu: [cpu],
      ...(entry.dev ? { dev: true } : {}),
      ...(libc === "musl" ? { libc: ["musl"] } : {}),
      optional: true,
      os: [os],
    };
    added.push(`${name}@${version} (for ${key || "the root"})`);
  }
}
const [rootEntry, ...rest] = Object.entries(lock.packages);
rest.sort(([a], [b]) => a.localeCompare(b, "en"));
lock.packages = Object.fromEntries([rootEntry, ...rest]);
writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `added to the lock:\n  ${added.join("\n  ")}` : "the lock is complete");
