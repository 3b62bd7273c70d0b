import { FakeProviderServer } from "../test/support/fake-provider/fake-provider-server.ts";
import { loadConfig } from "../src/config.ts";
import { createModelGateway } from "../src/modules/models/gateway.ts";
import { ZRunPlan } from "@cohort/contracts";

const fake = await FakeProviderServer.start();
for (const [label, env, modelId] of [
  ["responses", { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: fake.baseUrls.openai }, "gpt-4.1"],
  ["chat", { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: fake.baseUrls.openai, OPENAI_API: "chat" }, "gpt-4.1"],
  ["anthropic", { ANTHROPIC_API_KEY: "sk-ant", ANTHROPIC_BASE_URL: fake.baseUrls.anthropic }, "claude-sonnet-4"],
  ["google", { GOOGLE_GENERATIVE_AI_API_KEY: "g-key", GOOGLE_BASE_URL: fake.baseUrls.google }, "gemini-2.5-pro"],
  ["compat", { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrls.openaiCompatible, OPENAI_COMPATIBLE_MODELS: "llama3.1" }, "local:llama3.1"],
] as const) {
  const config = loadConfig({ NODE_ENV: "test", COOKIE_SECRET: "x".repeat(40), ENCRYPTION_KEY: Buffer.alloc(32).toString("base64"), DATA_DIR: "/tmp/cohort-smoke", ...env });
  const gw = createModelGateway({ config: config.models, log: { warn: (o, m) => console.log("WARN", m, JSON.stringify(o)) } });
  const deltas: string[] = [];
  try {
    const r = await gw.streamModel({ modelId, messages: [{ role: "user", content: "hi" }], onDelta: (d) => deltas.push(d) });
    console.log(label, r.text, r.usage, r.credits, r.provider, r.simulated, deltas.length);
    fake.next({ json: { rationale: "r", steps: [{ id: "a", role: "coder", task: "t", dependsOn: [] }] } });
    const p = await gw.generatePlan({ modelId, request: "make app" });
    console.log(label, "plan", JSON.stringify(p.plan));
  } catch (e) { console.log(label, "ERR", e); }
  const last = fake.requests.at(-1)!;
  console.log(last.path, JSON.stringify(last.body).slice(0, 400));
}
await fake.close();
