import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ToolDefinition, ToolProvider } from "../../src/modules/tools/tool-definition";

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
    source: { kind: "builtin" },
    price: 0,
    untrustedOutput: false,
    timeoutMs: 5_000,
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
    source: { kind: "builtin" },
    price: 0,
    untrustedOutput: false,
    timeoutMs: 5_000,
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
