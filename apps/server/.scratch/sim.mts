import { streamText, Output } from "ai";
import { ZRunPlan } from "@cohort/contracts";
import { createSimulatedModel } from "../src/modules/models/simulator/simulated-model.ts";

const model = createSimulatedModel("coreason", { tokensPerSecond: 0 });
for (const persona of ["strategist", "coder", "designer", "critic", "chat", "coordinator"]) {
  const r = streamText({ model, prompt: "Build a landing page for a bakery app with online orders.", providerOptions: { simulator: { persona } }, onError: () => {} });
  let text = ""; let n = 0;
  for await (const p of r.fullStream) { if (p.type === "text-delta") { text += p.text; n++; } if (p.type === "finish") console.log(persona, n, JSON.stringify(p.totalUsage)); }
  console.log(text.slice(0, 3000)); console.log("-----");
}
const r2 = streamText({ model, prompt: "Write a python script to parse CSV. Use only these roles: coder, critic", output: Output.object({ schema: ZRunPlan }), onError: () => {} });
for await (const p of r2.fullStream) {}
console.log(JSON.stringify(await r2.output, null, 1));
// abort
const slow = createSimulatedModel("coreason", { tokensPerSecond: 60 });
const ac = new AbortController();
const r3 = streamText({ model: slow, prompt: "hello", abortSignal: ac.signal, onError: () => {} });
setTimeout(() => ac.abort(), 500);
const t0 = Date.now();
try { for await (const p of r3.fullStream) { if (p.type !== "text-delta") console.log("part", p.type, p.type === "error" ? String(p.error) : ""); } console.log("ended without throw", Date.now() - t0); } catch (e) { console.log("threw", String(e), Date.now() - t0); }
