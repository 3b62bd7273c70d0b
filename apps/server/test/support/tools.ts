import type { FastifyInstance } from "fastify";
import type {
  ToolContext,
  ToolDefinition,
  ToolOutput,
} from "../../src/modules/tools/tool-definition";

/**
 * The app's tool registry as the engine asks it (modules/tools): the tools a run of this
 * scope is offered, and a call of one with a context like the engine's.
 */
export async function toolsOf(app: FastifyInstance): Promise<ToolDefinition[]> {
  return app.tools.toolsFor({ userId: "user-1", workspaceId: null, sessionId: "session-1" });
}

export async function toolOf(app: FastifyInstance, name: string): Promise<ToolDefinition> {
  const tool = (await toolsOf(app)).find((t) => t.name === name);
  if (!tool) throw new Error(`the app offers no tool ${name}`);
  return tool;
}

export interface ToolCallRecord {
  output: ToolOutput;
  warnings: { o: object; m: string }[];
}

/** Calls a tool as the engine does: its input parsed by its schema, a signal, a log. */
export async function callTool(
  tool: ToolDefinition,
  args: unknown,
  options: { signal?: AbortSignal } = {},
): Promise<ToolCallRecord> {
  if (tool.input.kind !== "zod") throw new Error("only zod-described tools are called here");
  const input = tool.input.schema.parse(args);
  const warnings: ToolCallRecord["warnings"] = [];
  const ctx: ToolContext = {
    runId: "run-1",
    sessionId: "session-1",
    workspaceId: null,
    userId: "user-1",
    stepId: "step-1",
    role: "researcher",
    callId: "call-1",
    signal: options.signal ?? AbortSignal.timeout(tool.timeoutMs),
    log: {
      warn: (o, m) => warnings.push({ o, m }),
      error: (o, m) => warnings.push({ o, m }),
    },
    scratchDir: () => Promise.reject(new Error("no scratch space in this test")),
  };
  return { output: await tool.execute(input, ctx), warnings };
}
