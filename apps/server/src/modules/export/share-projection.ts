import {
  hideCosts,
  type TChatMessage,
  type TRun,
  type TRunEvent,
  type TRunToolCall,
  type TSharedRun,
  type TSharedRunEvent,
  withSharedImagePaths,
} from "@cohort/contracts";

/**
 * What a share link shows of runs, in one place for every way a link shows them: the static
 * view, the live stream (its backlog and its live events) and run-scoped links (decision
 * 051). A viewer gets a run or an event through these two functions only, so a field the
 * engine adds later is stripped or shown the same way everywhere.
 */

/**
 * Keys never shown, at any depth: the approved memories a run used are the owner's private
 * notes (they sit on the run and, again, in its plan and in the `run.plan` event).
 */
const NEVER_SHARED = ["memories"] as const;
type NeverShared = (typeof NEVER_SHARED)[number];
const NEVER_SET: ReadonlySet<string> = new Set(NEVER_SHARED);

/** `T` without the never-shared keys, at any depth. */
export type WithoutPrivate<T> = T extends readonly (infer E)[]
  ? WithoutPrivate<E>[]
  : T extends object
    ? { [K in keyof T as K extends NeverShared ? never : K]: WithoutPrivate<T[K]> }
    : T;

/** The link's choices that decide what a viewer sees. */
export interface ShareScope {
  /** A run link: only this run's events; null for a whole session. */
  run_id: string | null;
  show_costs: boolean;
  /** The link's token: images a model made are shown through it (decision 064). */
  token: string;
}

function withoutPrivate<T>(value: T): WithoutPrivate<T> {
  if (Array.isArray(value)) return value.map((v) => withoutPrivate(v)) as WithoutPrivate<T>;
  if (value === null || typeof value !== "object") return value as WithoutPrivate<T>;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (!NEVER_SET.has(key)) out[key] = withoutPrivate(v);
  }
  return out as WithoutPrivate<T>;
}

/**
 * Every path of an image a model made, in any text at any depth, as the link's own path:
 * the viewer has no sign-in, the link's token is what lets them see it (decision 064).
 */
function withSharedImages<T>(value: T, token: string): T {
  if (typeof value === "string") return withSharedImagePaths(value, token) as T;
  if (Array.isArray(value)) return value.map((v) => withSharedImages(v, token)) as T;
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = withSharedImages(v, token);
  return out as T;
}

/** Private fields out, image paths the link's, then costs null unless the link shares them. */
function project<T>(value: T, scope: ShareScope) {
  const open = withSharedImages(withoutPrivate(value), scope.token);
  return scope.show_costs ? open : hideCosts(open);
}

/** The conversation's messages as a link shows them: image paths the link's own. */
export function shareMessages(messages: readonly TChatMessage[], scope: ShareScope) {
  return messages.map((m) => withSharedImages(m, scope.token));
}

/**
 * A stored run as a link shows it, with its tool calls redacted as the live stream's tool
 * events are (decision 076); `askedBy` only when the link shares names.
 */
export function shareRun(
  run: TRun,
  scope: ShareScope,
  askedBy: string | null,
  toolCalls: readonly TRunToolCall[],
): TSharedRun {
  const shared = { ...run, tool_calls: toolCalls.map(redactToolCall), asked_by: askedBy };
  return project(shared, scope) as TSharedRun;
}

/**
 * A run event as a link shows it; null for what a viewer never gets: another run's events
 * on a run link, and `credits.changed` (the paying account's balance, costs shared or not).
 */
export function shareEvent(event: TRunEvent, scope: ShareScope): TSharedRunEvent | null {
  if (scope.run_id !== null && event.run_id !== scope.run_id) return null;
  if (event.type === "credits.changed") return null;
  return project(redactTool(event), scope) as TSharedRunEvent;
}

/**
 * Tool calls in a share link (decision 058): the tool, its status, duration and size show;
 * what went in and came out does not (arguments, output, sources, files, error details and
 * who approved): those may hold the owner's data or an outside system's.
 */
function redactTool(event: TRunEvent): TRunEvent {
  switch (event.type) {
    case "tool.call":
    case "tool.approval":
      return { ...event, args: null };
    case "tool.approval.decided":
      return { ...event, args: null, by_user_id: null, by_name: null, note: null };
    case "tool.result":
      return {
        ...event,
        text_preview: "",
        sources: [],
        files: [],
        error: event.error ? { code: event.error.code, message: "" } : null,
      };
    default:
      return event;
  }
}

/**
 * A finished run's tool call (rebuilt from those same events) under the same rule: what the
 * tool was and how it went, never what went in or came out, nor who answered its approval.
 */
function redactToolCall(call: TRunToolCall): TRunToolCall {
  return {
    ...call,
    args: null,
    text_preview: "",
    sources: [],
    files: [],
    error: call.error ? { code: call.error.code, message: "" } : null,
    approval: call.approval ? { ...call.approval, by_name: null, note: null } : null,
  };
}
