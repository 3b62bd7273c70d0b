process.on("uncaughtException", (e) => { console.log("UNCAUGHT", String(e)); process.exit(3); });
import { FakeProviderServer } from "../test/support/fake-provider/fake-provider-server.ts";
import { createOpenAI } from "@ai-sdk/openai";
const fake = await FakeProviderServer.start();
fake.next({ text: Array.from({ length: 40 }, (_, i) => `w${i}`).join(" "), cutAfterChunks: 5 });
const m = createOpenAI({ apiKey: "k", baseURL: fake.baseUrls.openai }).chat("gpt-4.1");
const { stream } = await m.doStream({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] });
const reader = stream.getReader();
try { while (true) { const { done, value } = await reader.read(); if (done) break; console.log(value.type); } console.log("done normally"); } catch (e) { console.log("caught", String(e)); }
await fake.close();
