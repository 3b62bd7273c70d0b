import {
  ACCESS_TOKEN_PREFIX,
  COHORT_TEAM_MODEL,
  DEFAULT_COORDINATOR_MODEL,
  MCP_PATH,
  MCP_SERVER_NAME,
  MCP_TOOLS,
  OPENAI_API_PREFIX,
} from "@cohort/contracts";

/**
 * The copy-paste examples of the /api page, for the origin the page is served from. Tokens
 * stay placeholders (read from an environment variable where the language has one); nothing
 * here is a secret.
 */
export const TOKEN_ENV = "COHORT_TOKEN";
export const TOKEN_PLACEHOLDER = `${ACCESS_TOKEN_PREFIX}…`;
const TASK = "Plan the launch of a neighbourhood bakery's website";

export interface ApiExamples {
  apiBase: string;
  mcpUrl: string;
  openaiJs: string;
  openaiPython: string;
  curl: string;
  mcpConfig: string;
  mcpSdk: string;
}

export function apiExamples(origin: string): ApiExamples {
  const apiBase = `${origin}${OPENAI_API_PREFIX}`;
  const mcpUrl = `${origin}${MCP_PATH}`;
  return {
    apiBase,
    mcpUrl,
    openaiJs: `import OpenAI from "openai";

const client = new OpenAI({
  baseURL: "${apiBase}",
  apiKey: process.env.${TOKEN_ENV}, // ${TOKEN_PLACEHOLDER}
});

// The whole agent team: plan, agents, Critic review, final answer.
const completion = await client.chat.completions.create({
  model: "${COHORT_TEAM_MODEL}",
  messages: [{ role: "user", content: "${TASK}" }],
});
console.log(completion.choices[0].message.content);
// Cohort's extra field: plan, agents, costs, Critic score, session link.
console.log(completion.cohort);

// One catalogue model, streamed.
const stream = await client.chat.completions.create({
  model: "${DEFAULT_COORDINATOR_MODEL}",
  messages: [{ role: "user", content: "Say hello in three languages" }],
  stream: true,
});
for await (const chunk of stream) {
  process.stdout.write(chunk.choices[0]?.delta?.content ?? "");
}`,
    openaiPython: `import os
from openai import OpenAI

client = OpenAI(
    base_url="${apiBase}",
    api_key=os.environ["${TOKEN_ENV}"],  # ${TOKEN_PLACEHOLDER}
)

# The whole agent team: plan, agents, Critic review, final answer.
completion = client.chat.completions.create(
    model="${COHORT_TEAM_MODEL}",
    messages=[{"role": "user", "content": "${TASK}"}],
)
print(completion.choices[0].message.content)
# Cohort's extra field: plan, agents, costs, Critic score, session link.
print(completion.to_dict()["cohort"])

# Streamed: the answer arrives as it is written.
stream = client.chat.completions.create(
    model="${COHORT_TEAM_MODEL}",
    messages=[{"role": "user", "content": "${TASK}"}],
    stream=True,
)
for chunk in stream:
    if chunk.choices:
        print(chunk.choices[0].delta.content or "", end="", flush=True)`,
    curl: `export ${TOKEN_ENV}="${TOKEN_PLACEHOLDER}"

# The models you can call
curl ${apiBase}/models \\
  -H "Authorization: Bearer $${TOKEN_ENV}"

# A team run, streamed as server-sent events
curl -N ${apiBase}/chat/completions \\
  -H "Authorization: Bearer $${TOKEN_ENV}" \\
  -H "Content-Type: application/json" \\
  -d '{"model": "${COHORT_TEAM_MODEL}", "stream": true, "messages": [{"role": "user", "content": "${TASK}"}]}'`,
    mcpConfig: JSON.stringify(
      {
        mcpServers: {
          [MCP_SERVER_NAME]: {
            type: "http",
            url: mcpUrl,
            headers: { Authorization: `Bearer ${TOKEN_PLACEHOLDER}` },
          },
        },
      },
      null,
      2,
    ),
    mcpSdk: `import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const client = new Client({ name: "my-app", version: "1.0.0" });
await client.connect(
  new StreamableHTTPClientTransport(new URL("${mcpUrl}"), {
    requestInit: { headers: { Authorization: \`Bearer \${process.env.${TOKEN_ENV}}\` } },
  }),
);

const result = await client.callTool(
  { name: "${MCP_TOOLS.runTeam}", arguments: { task: "${TASK}" } },
  undefined,
  {
    onprogress: (progress) => console.log(progress.message), // "Plan made: …", "Coder done", …
    timeout: 120_000, // per silence: every progress notification restarts it
    resetTimeoutOnProgress: true,
  },
);
console.log(result.structuredContent); // answer, run_url, credits, critic_score`,
  };
}
