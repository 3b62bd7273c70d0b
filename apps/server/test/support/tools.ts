import { APPROVAL_MESSAGES } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { z } from "zod";
import type {
  ToolContext,
  ToolDefinition,
  ToolOutput,
  ToolProvider,
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

/** A context like the engine's for calling a tool's `execute` directly, as `userId`. */
export function toolContext(userId: string): ToolContext {
  return {
    runId: "r",
    sessionId: "s",
    workspaceId: null,
    userId,
    stepId: null,
    role: "coder",
    callId: "c",
    signal: new AbortController().signal,
    log: { warn() {}, error() {} },
    scratchDir: async () => "/tmp",
  };
}

/**
 * A real tool provider for tests of the tool loop and approvals: a notes store with a read
 * tool (`list_notes`) and a write tool (`create_note`), registered the way modules register
 * theirs (`app.tools.addProvider`). The built-in kind: a session turns them on per role by
 * name (`tools.roles.<role>.builtins`).
 */
export interface TestNotes {
  notes: { title: string; body: string }[];
  /** Every executed call, in order. */
  calls: { tool: string; args: unknown }[];
}

/** What the test notes tools share: built in, free, their output trusted, 5 s to answer. */
const FREE_BUILTIN = {
  source: { kind: "builtin" },
  price: 0,
  untrustedOutput: false,
  timeoutMs: 5_000,
} as const;

export function addTestNotesProvider(app: FastifyInstance, store?: TestNotes): TestNotes {
  const notes: TestNotes = store ?? { notes: [], calls: [] };
  const createNote: ToolDefinition<{ title: string; body: string }> = {
    name: "create_note",
    title: "Create a note",
    description: "Creates a note with a title and a body in the user's notes.",
    input: {
      kind: "zod",
      schema: z.object({ title: z.string().min(1).max(200), body: z.string().max(2000) }),
    },
    risk: "write",
    ...FREE_BUILTIN,
    async execute(input) {
      notes.calls.push({ tool: "create_note", args: input });
      notes.notes.push(input);
      return { text: `Created note n${notes.notes.length}: ${input.title}` };
    },
  };
  const listNotes: ToolDefinition<{ query?: string | undefined }> = {
    name: "list_notes",
    title: "List notes",
    description: "Lists the user's notes.",
    input: { kind: "zod", schema: z.object({ query: z.string().max(200).optional() }) },
    risk: "read",
    ...FREE_BUILTIN,
    async execute(input) {
      notes.calls.push({ tool: "list_notes", args: input });
      return { text: notes.notes.map((n, i) => `- [n${i + 1}] ${n.title}`).join("\n") || "none" };
    },
  };
  const provider: ToolProvider = {
    id: "test-notes",
    async tools() {
      return [createNote as ToolDefinition, listNotes as ToolDefinition];
    },
  };
  app.tools.addProvider(provider);
  return notes;
}

/** Session settings that give only the Coder the notes tools (and run only the Coder). */
export function coderWithNotes(policy: "ask_all" | "ask_risky" | "never_ask" = "ask_risky") {
  return {
    manual_agent_selection: true,
    agent_preferences: { coder: { enabled: true } },
    tools: {
      policy,
      roles: { coder: { builtins: ["create_note", "list_notes"], mcp_servers: [] } },
    },
  };
}

/**
 * At least one tool result, each denied because nobody answered its approval request within
 * the test's 1 s timeout.
 */
export function expectDeniedUnanswered(
  results: readonly { status: string; error: { code: string; message: string } | null }[],
): void {
  expect(results.length).toBeGreaterThanOrEqual(1);
  for (const result of results) {
    expect(result.status).toBe("denied");
    expect(result.error).toEqual({
      code: "tool_denied",
      message: APPROVAL_MESSAGES.expiredNote(1),
    });
  }
}
