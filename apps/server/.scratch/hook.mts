import { createHook } from "node:async_hooks";
const stacks = new WeakMap<object, string>();
createHook({ init(_id, type, _t, resource) { if (type === "PROMISE") stacks.set(resource as object, new Error().stack ?? ""); } }).enable();
process.on("unhandledRejection", (reason, promise) => { console.log("UNHANDLED", String(reason)); console.log(stacks.get(promise)?.split("\n").filter(l => !l.includes("node:internal/async_hooks")).slice(0, 25).join("\n")); process.exit(4); });
await import("./cut.mts");
