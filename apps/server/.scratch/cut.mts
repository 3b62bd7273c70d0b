import { FakeProviderServer } from "../test/support/fake-provider/fake-provider-server.ts";
import { streamText } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
const fake = await FakeProviderServer.start();
fake.next({ text: Array.from({ length: 40 }, (_, i) => `w${i}`).join(" "), cutAfterChunks: 5 });
const m = createOpenAI({ apiKey: "k", baseURL: fake.baseUrls.openai }).chat("gpt-4.1");
const r = streamText({ model: m, prompt: "hi", maxRetries: 0, onError: () => {} });
for await (const p of r.fullStream) console.log(p.type, p.type === "error" ? p.error : p.type === "finish" ? p.finishReason : p.type==="text-delta" ? p.text : "");
await fake.close();
