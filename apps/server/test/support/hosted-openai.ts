import type { Env } from "../../src/config";
import { createTestApp, type TestApp } from "./app";
import { FakeProviderServer } from "./fake-provider/fake-provider-server";

export interface HostedOpenAiApp {
  /** The real app; closing it closes the fake provider too. */
  t: TestApp;
  /** The local server that speaks OpenAI's wire format in place of the hosted provider. */
  fake: FakeProviderServer;
}

/**
 * The real app with a hosted OpenAI key whose calls reach a fake provider, and no sign-up
 * credits (a test sets the balance it needs). `env` adds to or overrides that setup.
 */
export async function startHostedOpenAiApp(env: Env = {}): Promise<HostedOpenAiApp> {
  const fake = await FakeProviderServer.start();
  const t = await createTestApp({
    SIGNUP_CREDITS: "0",
    OPENAI_API_KEY: "sk-hosted",
    OPENAI_BASE_URL: fake.baseUrls.openai,
    ...env,
  });
  return {
    fake,
    t: {
      ...t,
      close: async () => {
        await t.close();
        await fake.close();
      },
    },
  };
}
