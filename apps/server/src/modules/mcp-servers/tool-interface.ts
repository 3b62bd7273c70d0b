// The tool layer's interface as /work/coord/tools-interface.md fixes it, until branch
// tools-core's modules/tools/tool-definition.ts is merged and replaces this file.
export type ToolRisk = "read" | "write" | "external" | "costly";
export type ToolSource =
  | { kind: "builtin" }
  | { kind: "mcp"; serverId: string; serverName: string };
export interface ToolContext {
  runId: string;
  sessionId: string;
  workspaceId: string | null;
  userId: string;
  stepId: string | null;
  role: string | null;
  callId: string;
  signal: AbortSignal;
  log: { warn(o: object, m: string): void; error(o: object, m: string): void };
  scratchDir(): Promise<string>;
}
export interface ToolOutput {
  text: string;
  sources?: { title: string; url: string | null }[];
  data?: unknown;
  files?: { name: string; mediaType: string; bytes: number; url: string }[];
  creditsUsed?: number;
  isError?: boolean;
}
export interface ToolDefinition<I = unknown> {
  name: string;
  title: string;
  description: string;
  input: { kind: "json"; schema: Record<string, unknown> };
  risk: ToolRisk;
  source: ToolSource;
  price: number;
  untrustedOutput: boolean;
  timeoutMs: number;
  execute(input: I, ctx: ToolContext): Promise<ToolOutput>;
}
export interface ToolProvider {
  id: string;
  tools(scope: {
    userId: string;
    workspaceId: string | null;
    sessionId: string;
  }): Promise<ToolDefinition[]>;
  unavailable?(): { name: string; reason: string }[];
}
