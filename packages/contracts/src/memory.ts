import { z } from "zod";
import type { TSubscriptionTier } from "./plans";
import { ZWorkspaceScope } from "./workspaces";

/**
 * Memory (decision 038): facts and preferences the coordinator proposes after a run, kept only
 * once the user approves them (or with auto-save on), and given to later runs' plans.
 */

/** One line each: longer proposals are cut at a word boundary, edits are refused. */
export const MEMORY_TEXT_MAX = 300;
/** At most this many proposals per run. */
export const MEMORY_PROPOSALS_MAX = 5;
/** At most this many memories go into one plan. */
export const MEMORY_CONTEXT_LIMIT = 5;

export const MEMORY_KINDS = ["fact", "preference"] as const;
export type TMemoryKind = (typeof MEMORY_KINDS)[number];
export const MEMORY_STATUSES = ["proposed", "approved", "rejected"] as const;
export type TMemoryStatus = (typeof MEMORY_STATUSES)[number];

/** The pricing page's Pro+ "Memory across sessions"; Enterprise has everything in Pro+. */
export const MEMORY_TIERS: readonly TSubscriptionTier[] = ["pro+", "enterprise"];
export function hasMemoryAccess(tier: TSubscriptionTier): boolean {
  return MEMORY_TIERS.includes(tier);
}

export const MEMORY_ERROR_CODES = {
  locked: "memory_locked",
  duplicate: "memory_duplicate",
} as const;

export const MEMORY_MESSAGES = {
  locked:
    "Memory is part of the Pro+ and Enterprise plans. Upgrade your plan to let the team remember facts and preferences across sessions.",
  duplicate: "You already have a memory with this text.",
  notFound: "This memory does not exist.",
} as const;

/** Collapses whitespace (newlines included) into single spaces: a memory is one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export const ZMemoryText = z
  .string()
  .transform(oneLine)
  .pipe(
    z
      .string()
      .min(1, "A memory cannot be empty.")
      .max(MEMORY_TEXT_MAX, `A memory is at most ${MEMORY_TEXT_MAX} characters.`),
  );

export const ZMemory = z.object({
  id: z.uuid(),
  text: z.string(),
  kind: z.enum(MEMORY_KINDS),
  status: z.enum(MEMORY_STATUSES),
  source_session_id: z.uuid().nullable(),
  source_run_id: z.uuid().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TMemory = z.infer<typeof ZMemory>;

export const ZMemoryParams = z.object({ id: z.uuid() });
export const ZMemoryRunParams = z.object({ runId: z.uuid() });

export const ZMemoryListQuery = z.object({
  /** Full-text search; absent lists them all, newest first. */
  q: z.string().trim().max(200).optional(),
  /** Approved memories (the default), or proposals still waiting for the user. */
  status: z.enum(["approved", "proposed"]).default("approved"),
  workspace_id: ZWorkspaceScope.shape.workspace_id,
});
export const ZMemoryList = z.object({ memories: z.array(ZMemory) });
export type TMemoryList = z.infer<typeof ZMemoryList>;

/** Every memory a run proposed, whatever the user decided since. */
export const ZRunMemoryProposals = z.object({ run_id: z.uuid(), memories: z.array(ZMemory) });
export type TRunMemoryProposals = z.infer<typeof ZRunMemoryProposals>;

/** Approve a proposal, optionally with the user's edit of its text. */
export const ZApproveMemory = z.object({ text: ZMemoryText.optional() });
export type TApproveMemory = z.input<typeof ZApproveMemory>;

export const ZUpdateMemory = z.object({ text: ZMemoryText, kind: z.enum(MEMORY_KINDS).optional() });
export type TUpdateMemory = z.input<typeof ZUpdateMemory>;

export const ZMemoryOne = z.object({ memory: ZMemory });
export const ZMemoryDeleted = z.object({ deleted: z.number().int().nonnegative() });

export const ZMemorySettings = z.object({
  /** Nothing is proposed after runs and nothing is given to plans. */
  paused: z.boolean(),
  /** Proposals are stored as approved, without asking. */
  auto_save: z.boolean(),
});
export type TMemorySettings = z.infer<typeof ZMemorySettings>;
export const ZUpdateMemorySettings = ZMemorySettings.partial();
export type TUpdateMemorySettings = z.infer<typeof ZUpdateMemorySettings>;

/** GET /api/memory/export: a download of every memory the user has. */
export const ZMemoryExport = z.object({
  exported_at: z.string(),
  settings: ZMemorySettings,
  memories: z.array(ZMemory),
});
export type TMemoryExport = z.infer<typeof ZMemoryExport>;

/** socket.io event to the user's own sockets when a run's proposals are stored. */
export const MEMORY_EVENTS = { proposed: "memory.proposed" } as const;
export const ZMemoryProposedEvent = z.object({
  run_id: z.uuid(),
  session_id: z.uuid(),
  memories: z.array(ZMemory),
});
export type TMemoryProposedEvent = z.infer<typeof ZMemoryProposedEvent>;

export const MEMORY_ROUTES = {
  list: "/api/memory",
  settings: "/api/memory/settings",
  export: "/api/memory/export",
  one: (id: string) => `/api/memory/${id}`,
  approve: (id: string) => `/api/memory/${id}/approve`,
  reject: (id: string) => `/api/memory/${id}/reject`,
  runProposals: (runId: string) => `/api/memory/runs/${runId}/proposals`,
} as const;
