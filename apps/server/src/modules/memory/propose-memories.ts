import { ERROR_CODES, MEMORY_EVENTS, type TMemoryProposedEvent } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import { AppError } from "../../platform/errors";
import { userRoom } from "../../platform/realtime-rooms";
import { apiKeyDeps } from "../users/api-key-deps";
import { loadUserKeys } from "../users/load-user-keys";
import { payerFor } from "../workspaces/workspace-access";
import { chargeMemoryCall } from "./charge-memory-call";
import { listKnownTexts } from "./list-memories";
import { memoryActive } from "./memory-access";
import { MEMORY_SYSTEM_PROMPT, memoryPrompt } from "./memory-prompt";
import { parseMemoryLines } from "./parse-memory-lines";
import { storeProposals } from "./store-proposals";

/** A few short JSON lines: the call's worst case (its hold) stays small. */
const MAX_OUTPUT_TOKENS = 600;
/** How many remembered lines the model is shown so it does not repeat them. */
const KNOWN_LIMIT = 30;

export interface ProposeMemoriesInput {
  /** The run's session's workspace, whose memories these become. */
  workspaceId: string;
  /** Who started the run: their plan and memory switches decide, their account pays. */
  userId: string;
  sessionId: string;
  runId: string;
  task: string;
  answer: string;
  coordinatorModelId: string;
}

/**
 * After a completed run: asks the run's coordinator model for memories worth keeping (the
 * simulator answers deterministically), stores them as proposals (or approved when auto-save
 * is on), tells the user's open pages. Never throws; logs failures.
 */
export async function proposeMemories(
  app: FastifyInstance,
  input: ProposeMemoriesInput,
): Promise<void> {
  try {
    await propose(app, input);
  } catch (error) {
    if (error instanceof AppError && error.code === ERROR_CODES.insufficientCredits) {
      app.log.info(
        { runId: input.runId },
        "no memories proposed: the balance cannot cover the call",
      );
      return;
    }
    app.log.warn({ err: error, runId: input.runId }, "memory proposals failed");
  }
}

async function propose(app: FastifyInstance, input: ProposeMemoriesInput): Promise<void> {
  const { active, settings } = await memoryActive(app.db, input.userId);
  if (!active || !input.answer.trim()) return;
  const known = await listKnownTexts(app.db, input.workspaceId, KNOWN_LIMIT);
  const userKeys = await loadUserKeys(apiKeyDeps(app), input.userId);
  const payer = payerFor(input.workspaceId, input.userId);
  const result = await chargeMemoryCall(app, payer, `memory:${input.runId}`, {
    modelId: input.coordinatorModelId,
    system: MEMORY_SYSTEM_PROMPT,
    messages: [{ role: "user", content: memoryPrompt(input.task, input.answer, known) }],
    maxOutputTokens: MAX_OUTPUT_TOKENS,
    temperature: 0.2,
    userKeys,
  });
  const memories = await storeProposals(
    app.db,
    {
      workspaceId: input.workspaceId,
      userId: input.userId,
      sessionId: input.sessionId,
      runId: input.runId,
      approved: settings.auto_save,
    },
    parseMemoryLines(result.text),
  );
  if (memories.length === 0) return;
  const event: TMemoryProposedEvent = {
    run_id: input.runId,
    session_id: input.sessionId,
    memories,
  };
  app.realtime.io.to(userRoom(input.userId)).emit(MEMORY_EVENTS.proposed, event);
}
