import { randomUUID } from "node:crypto";
import {
  creditsOf,
  type Hundredths,
  hundredths,
  NO_CREDITS,
  type TAgentRole,
  type TCreditLimitKind,
  TOOL_ARGS_MAX_CHARS,
  TOOL_ERROR_CODES,
  type TRunError,
  type TRunPassage,
  type TRunStepKind,
} from "@cohort/contracts";
import { raceAbort } from "../../platform/race-abort";
import type {
  GatewayMessage,
  GatewayTool,
  GatewayToolCall,
  GatewayToolExchange,
  ModelCallInput,
  ModelCallResult,
} from "../models/gateway";
import { parseToolArgs, runTool, type ToolRunResult } from "../tools/run-tool";
import type { ToolDefinition } from "../tools/tool-definition";
import { toolsForRole } from "../tools/tool-registry";
import { isInsufficient, releaseReserved, reserveCall, withHold } from "./hold-credits";
import { insertRunPassages } from "./material-store";
import { numberToolSource } from "./retrieve-passages";
import { type RunContext, track } from "./run-context";
import { searchDocumentsTool } from "./search-documents-tool";

// The multi-step loop of a lane's call (decision 058): model turn → the tools it
// asks for → their results → the next turn, up to TOOL_STEPS_MAX turns. It runs inside the
// lane's one model call (callModel): one step row, one lane, one hold that grows for each
// next turn's prompt, settled on the sum of the turns' usage. Every tool call and result is
// a run event; a tool with a price is held and settled like a model call.

/** What callModel gives the loop: the lane's opening and its hold's growth. */
export interface TurnHooks {
  /** Resolves once the lane is open (its agent.started is out): tool events follow it. */
  laneOpen: Promise<void>;
  /** Grows the call's hold for the next turn's prompt; the limit that refused, or null. */
  growForInput(inputTokens: number): Promise<TCreditLimitKind | null>;
}

export interface LaneToolSpec {
  kind: TRunStepKind;
  stepId: string | null;
  role: TAgentRole | null;
  /** The lane's model call (step row id). */
  callId: string;
  tools: readonly ToolDefinition[];
  /**
   * The sources the lane was given (its documents' passages): the ones its tools find are
   * added, numbered by the run, so its `[n]` count as citations (decision 067).
   */
  sources: TRunPassage[];
}

/** The run's tools (loaded once), as a role may use them under the session's settings. */
export async function laneTools(ctx: RunContext, role: TAgentRole): Promise<ToolDefinition[]> {
  const engine = ctx.deps.tools;
  if (!engine) return [];
  ctx.tools.list ??= loadRunTools(ctx);
  return toolsForRole(await ctx.tools.list, ctx.toolSettings, role);
}

/** The registry's offer, asked for as the run is stored (`prefetchRunTools`). */
const offers = new WeakMap<RunContext, Promise<ToolDefinition[]>>();

function offerOf(ctx: RunContext): Promise<ToolDefinition[]> {
  const engine = ctx.deps.tools;
  if (!engine) return Promise.resolve([]);
  // Never rejects: the registry logs a provider that fails and leaves its tools out.
  return engine.registry.toolsFor({
    userId: ctx.userId,
    workspaceId: ctx.workspaceId,
    sessionId: ctx.sessionId,
  });
}

/**
 * Starts reading the tools the providers offer (an MCP server's are rows) while the run is
 * stored and dispatched, not after, before its planning call (decision 072: the head's round
 * trips). The run's own `search_documents` is added when the list is taken: it needs the
 * documents the run gathered.
 */
export function prefetchRunTools(ctx: RunContext): void {
  if (ctx.deps.tools && !offers.has(ctx)) offers.set(ctx, offerOf(ctx));
}

async function loadRunTools(ctx: RunContext): Promise<ToolDefinition[]> {
  const engine = ctx.deps.tools;
  if (!engine) return [];
  const offered = await (offers.get(ctx) ?? offerOf(ctx));
  offers.delete(ctx);
  const own = searchDocumentsTool(ctx);
  return own ? [own, ...offered.filter((t) => t.name !== own.name)] : offered;
}

/**
 * Each zod input schema's JSON Schema, made once: the tools' schemas are the same objects for
 * every call, and converting them at every call was a visible part of a run's CPU (decision
 * 086).
 */
const jsonSchemas = new WeakMap<object, GatewayTool["inputSchema"] | undefined>();

/** A tool as the model is offered it. */
export function gatewayToolOf(tool: ToolDefinition): GatewayTool {
  let inputSchema: GatewayTool["inputSchema"] | undefined;
  if (tool.input.kind === "json") inputSchema = tool.input.schema;
  else if (jsonSchemas.has(tool.input.schema)) inputSchema = jsonSchemas.get(tool.input.schema);
  else {
    inputSchema = tool.input.schema.toJSONSchema?.() as GatewayTool["inputSchema"] | undefined;
    jsonSchemas.set(tool.input.schema, inputSchema);
  }
  return {
    name: tool.name,
    description: tool.description.slice(0, 2000),
    inputSchema: inputSchema ?? { type: "object" },
  };
}

/**
 * The lane's turns. Returns one result for the whole call: its text is every turn's text (as
 * the lane showed it), its usage and price the sum of the turns'. A run's stop rejects.
 */
export async function runToolTurns(
  ctx: RunContext,
  lane: LaneToolSpec,
  input: ModelCallInput,
  abortSignal: AbortSignal,
  onDelta: (delta: string) => void,
  hooks: TurnHooks,
): Promise<ModelCallResult> {
  const stepsMax = ctx.deps.tools?.config.stepsMax ?? 1;
  const offered = lane.tools.map(gatewayToolOf);
  const byName = new Map(lane.tools.map((t) => [t.name, t]));
  const started = performance.now();
  const results: ModelCallResult[] = [];
  let messages: GatewayMessage[] = [...input.messages];
  let text = "";
  let stoppedAt: TCreditLimitKind | null = null;
  for (let turn = 1; ; turn++) {
    const offer = turn < stepsMax && offered.length > 0;
    const separator = text.length > 0 ? "\n\n" : "";
    let opened = false;
    let turnText = "";
    const result = await ctx.deps.models.streamModel({
      ...input,
      messages,
      abortSignal,
      ...(offer ? { tools: offered } : {}),
      onDelta: (delta) => {
        if (!opened && separator) onDelta(separator);
        opened = true;
        turnText += delta;
        onDelta(delta);
      },
    });
    results.push(result);
    if (opened) text += separator + turnText;
    const calls = offer ? (result.toolCalls ?? []) : [];
    if (calls.length === 0) break;
    await raceAbort(hooks.laneOpen, abortSignal);
    const exchanges: GatewayToolExchange[] = [];
    for (const call of calls) {
      exchanges.push(await runToolCall(ctx, lane, call, byName.get(call.toolName), abortSignal));
    }
    messages = [...messages, { role: "assistant", content: turnText, tools: exchanges }];
    const next = ctx.deps.models.estimateCall({ ...input, messages });
    stoppedAt = await hooks.growForInput(next.inputTokensEstimate);
    if (stoppedAt) break;
  }
  return combined(results, text, started, stoppedAt);
}

function combined(
  results: readonly ModelCallResult[],
  text: string,
  started: number,
  stoppedAt: TCreditLimitKind | null,
): ModelCallResult {
  const first = results[0] as ModelCallResult;
  const last = results.at(-1) as ModelCallResult;
  const sum = (pick: (r: ModelCallResult) => number) => results.reduce((n, r) => n + pick(r), 0);
  const wouldBe = results.some((r) => r.wouldBeCredits !== undefined)
    ? hundredths(sum((r) => r.wouldBeCredits ?? 0))
    : undefined;
  const { toolCalls: _calls, ...rest } = last;
  return {
    ...rest,
    text,
    usage: {
      inputTokens: sum((r) => r.usage.inputTokens),
      outputTokens: sum((r) => r.usage.outputTokens),
    },
    usageEstimated: results.some((r) => r.usageEstimated),
    latencyMs: Math.round(performance.now() - started),
    ttftMs: first.ttftMs,
    credits: hundredths(sum((r) => r.credits)),
    ...(wouldBe !== undefined ? { wouldBeCredits: wouldBe } : {}),
    failedAttempts: sum((r) => r.failedAttempts),
    ...(stoppedAt ? { stoppedAt, finishReason: "length" } : {}),
  };
}

/** Arguments as an event carries them: as given, or their start when they are long. */
function argsForEvent(args: unknown): unknown {
  const json = JSON.stringify(args) ?? "null";
  if (json.length <= TOOL_ARGS_MAX_CHARS) return args;
  return { truncated: true, json: json.slice(0, TOOL_ARGS_MAX_CHARS) };
}

function rawArgs(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input.slice(0, TOOL_ARGS_MAX_CHARS);
  }
}

/** One tool call: its events, the gate, its hold, the call, its settlement. */
async function runToolCall(
  ctx: RunContext,
  lane: LaneToolSpec,
  call: GatewayToolCall,
  tool: ToolDefinition | undefined,
  runSignal: AbortSignal,
): Promise<GatewayToolExchange> {
  const toolCallId = randomUUID();
  const ids = {
    call_id: lane.callId,
    step_id: lane.stepId ?? lane.callId,
    kind: lane.kind as "agent" | "critic" | "revision",
    tool_call_id: toolCallId,
    tool: call.toolName,
  };
  const emit = (event: Parameters<RunContext["events"]["append"]>[0]) =>
    ctx.events.append(event).then(() => undefined);
  const started = performance.now();
  const answer = (output: string, isError: boolean): GatewayToolExchange => ({
    ...call,
    output,
    isError,
  });
  const ended = (
    status: "completed" | "failed" | "denied",
    error: TRunError | null,
    extra: Partial<ToolRunResult> = {},
    credits: Hundredths = NO_CREDITS,
  ) =>
    emit({
      type: "tool.result",
      ...ids,
      status,
      duration_ms: extra.durationMs ?? Math.round(performance.now() - started),
      output_chars: extra.outputChars ?? 0,
      truncated: extra.truncated ?? false,
      credits: creditsOf(credits),
      text_preview: extra.preview ?? "",
      sources: extra.sources ?? [],
      files: extra.files ?? [],
      error,
    });

  const source =
    tool?.source.kind === "mcp"
      ? {
          kind: "mcp" as const,
          server_id: tool.source.serverId,
          server_name: tool.source.serverName,
        }
      : { kind: "builtin" as const };
  const parsed = tool ? parseToolArgs(tool, call.input) : null;
  const recorded = emit({
    type: "tool.call",
    ...ids,
    title: tool?.title ?? call.toolName,
    source,
    risk: tool?.risk ?? "read",
    args: argsForEvent(parsed?.ok ? parsed.args : rawArgs(call.input)),
    status: "running",
  });
  // The event is sent at once; its write is gathered with others (STORE_AFTER_MS). A known
  // read tool changes nothing, so it runs without waiting for that write (a crash before it
  // re-runs the read on resume): ~40 ms less per call in `npm run bench:tools`. Every other
  // call waits, so nothing with effects runs unrecorded.
  if (tool?.risk === "read") recorded.catch(() => {});
  else await recorded;
  if (!tool || !parsed) {
    const error = {
      code: TOOL_ERROR_CODES.unknownTool,
      message: `There is no tool "${call.toolName}" this lane may use.`,
    };
    await ended("failed", error);
    return answer(`Error: ${error.message}`, true);
  }
  if (!parsed.ok) {
    const error = { code: TOOL_ERROR_CODES.invalidArgs, message: parsed.message };
    await ended("failed", error);
    return answer(`Error: ${error.message}`, true);
  }

  const context = {
    runId: ctx.runId,
    sessionId: ctx.sessionId,
    workspaceId: ctx.workspaceId,
    userId: ctx.userId,
    stepId: lane.stepId,
    role: lane.role,
    callId: toolCallId,
    log: ctx.deps.log,
    scratchDir: () => runScratchDir(ctx.runId),
  };
  const gate = ctx.deps.tools?.registry.gate;
  if (!gate) {
    const error = { code: TOOL_ERROR_CODES.denied, message: "Tools are not available." };
    await ended("denied", error);
    return answer(`Not run: ${error.message}`, true);
  }
  const decision = await raceAbort(
    gate.authorize({
      ctx: { ...context, signal: runSignal },
      tool,
      args: parsed.args,
      laneTainted: ctx.tools.tainted.has(lane.callId),
      policy: ctx.toolSettings.policy,
      ids,
      channel: ctx.channel,
      emit,
    }),
    runSignal,
  );
  if (decision.decision !== "approved") {
    const note = decision.note ?? "approval needed";
    await ended("denied", { code: TOOL_ERROR_CODES.denied, message: note });
    return answer(`Not run: ${note}`, true);
  }
  // An approver may have edited the arguments: they are checked again.
  const approved =
    decision.args === parsed.args ? parsed : parseToolArgs(tool, JSON.stringify(decision.args));
  if (!approved.ok) {
    const error = { code: TOOL_ERROR_CODES.invalidArgs, message: approved.message };
    await ended("failed", error);
    return answer(`Error: ${error.message}`, true);
  }

  // A priced tool is held before the call, like a model call (decision 058).
  let reserved: Awaited<ReturnType<typeof reserveCall>> | null = null;
  if (tool.price > 0) {
    try {
      reserved = await reserveCall(ctx, toolCallId, hundredths(tool.price));
    } catch (error) {
      if (!isInsufficient(error) && !(error instanceof Error && "code" in error)) throw error;
      const refusal = {
        code: TOOL_ERROR_CODES.notAffordable,
        message: `${tool.title} costs ${creditsOf(hundredths(tool.price))} credits a call, more than is left.`,
      };
      await ended("failed", refusal);
      return answer(`Not run: ${refusal.message}`, true);
    }
  }
  const config = ctx.deps.tools?.config ?? { outputMaxChars: 16_000, timeoutMaxMs: 60_000 };
  let run: ToolRunResult;
  try {
    run = await runTool(tool, approved.args, context, {
      runSignal,
      outputMaxChars: config.outputMaxChars,
      timeoutMaxMs: config.timeoutMaxMs,
      numberSources: (found) => runSourceNumbers(ctx, lane, found),
    });
  } catch (error) {
    if (reserved) await releaseReserved(ctx, reserved);
    throw error;
  }
  let charged = NO_CREDITS;
  if (reserved) {
    if (run.status === "completed") {
      const price = hundredths(run.creditsUsed ?? tool.price);
      const held = await withHold(ctx, reserved, async () => toolCallResult(tool, price));
      charged = held.charged;
      const before = ctx.tools.charged.get(lane.callId) ?? NO_CREDITS;
      ctx.tools.charged.set(lane.callId, hundredths(before + charged));
    } else {
      await releaseReserved(ctx, reserved);
    }
  }
  if (run.status === "completed" && tool.untrustedOutput) ctx.tools.tainted.add(lane.callId);
  await ended(run.status, run.error, run, charged);
  return answer(run.modelText, run.status !== "completed");
}

/**
 * The run's numbers for a call's sources (decision 067): each page or result once per run,
 * after the documents' passages, stored with them and added to the lane's sources.
 */
function runSourceNumbers(
  ctx: RunContext,
  lane: LaneToolSpec,
  found: readonly { title: string; url: string | null; snippet?: string }[],
): number[] {
  const added: TRunPassage[] = [];
  const numbers = found.map((source) => {
    const passage = numberToolSource(ctx.material.passages, source, added);
    if (!lane.sources.some((p) => p.n === passage.n)) lane.sources.push(passage);
    return passage.n;
  });
  if (added.length > 0) track(ctx, () => insertRunPassages(ctx.deps.db, ctx.runId, added));
  return numbers;
}

/** A tool call as the hold's settlement books it (no tokens; its price). */
function toolCallResult(tool: ToolDefinition, price: Hundredths): ModelCallResult {
  return {
    text: "",
    usage: { inputTokens: 0, outputTokens: 0 },
    usageEstimated: false,
    latencyMs: 0,
    ttftMs: null,
    modelId: `tool:${tool.name}`,
    modelName: tool.title,
    provider: "tool" as ModelCallResult["provider"],
    providerModel: tool.name,
    simulated: false,
    keySource: "hosted",
    credits: price,
    finishReason: "stop",
    failedAttempts: 0,
  };
}

const scratchDirs = new Map<string, Promise<string>>();

/** A run's scratch directory under the OS temp dir, created at first use. */
async function runScratchDir(runId: string): Promise<string> {
  let dir = scratchDirs.get(runId);
  if (!dir) {
    dir = (async () => {
      const { mkdtemp } = await import("node:fs/promises");
      const { tmpdir } = await import("node:os");
      const path = await import("node:path");
      return mkdtemp(path.join(tmpdir(), `cohort-run-${runId.slice(0, 8)}-`));
    })();
    scratchDirs.set(runId, dir);
  }
  return dir;
}
