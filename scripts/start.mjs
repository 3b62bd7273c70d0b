#!/usr/bin/env node
// `npm start`: build what is stale, then run the server in this same process.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildIfStale } from "./build.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
await buildIfStale();
await import(pathToFileURL(path.join(root, "apps/server/dist/main.js")).href);
