import { randomUUID } from "node:crypto";
import { advance } from "./advance-run";
import { gatherMaterial } from "./gather-material";
import { type LateBooking, releaseReserved } from "./hold-credits";
import { afterPlanning, waitForPlanStart } from "./plan-review";
import { planRun } from "./plan-run";
import type { ResumePoint } from "./resume-point";
import { retrievePassages } from "./retrieve-passages";
import { applyStoredReview, reviewDrafts } from "./review-drafts";
import { runAgents } from "./run-agents";
import { drain, haltForError, type RunContext } from "./run-context";
import { watchInterventions } from "./steer-lane";
import { synthesizeAnswer } from "./synthesize-answer";

/**
 * One run from start to end: plan → agents (in parallel where independent) → review with
 * at most one revision round → synthesis → the final answer stored as an assistant
 * message. Whatever happens, the run ends in exactly one of completed, failed or cancelled,
 * with its event, and no hold is left open. Returns the final answer's text when the run
 * completed (what the run's follow-up work, e.g. memory proposals, starts from), else null.
 */
export async function executeRun(ctx: RunContext, resume?: ResumePoint): Promise<string | null> {
  const { deps } = ctx;
  // Steer, Skip and queued messages reach the run while it executes here (decision 069).
  const watching = watchInterventions(ctx);
  // The synthesis's charge, booked by the run's end (decision 091): whatever ends the run
  // books it, once (`book` returns the first outcome to later calls).
  let late: LateBooking | null = null;
  try {
    // A resumed run (decision 047) goes on from the phase it had reached: what its stored
    // calls completed is kept, not called or paid again.
    if (!resume || ctx.status === "queued") await advance(ctx, { to: "planning" });
    await gatherMaterial(ctx);
    let plan = resume?.plan ?? null;
    if (!plan) {
      // With "Review the plan first", the run waits in `planned` here (decision 069).
      plan = await afterPlanning(ctx, await planRun(ctx));
    } else if (ctx.status === "planned") {
      plan = await waitForPlanStart(ctx, plan);
    }
    await retrievePassages(ctx, plan);
    const drafts = await runAgents(ctx, plan, resume?.drafts);
    let review = null;
    if (plan.steps.some((s) => s.phase === "review") && ctx.status !== "synthesizing") {
      if (ctx.status !== "reviewing") await advance(ctx, { to: "reviewing" });
      review = await reviewDrafts(ctx, plan, drafts, resume?.review);
    } else if (resume?.review) {
      review = applyStoredReview(ctx, drafts, resume.review);
    }
    if (ctx.status !== "synthesizing") await advance(ctx, { to: "synthesizing" });
    const final = resume?.answer ?? (await synthesizeAnswer(ctx, plan, drafts, review));
    late = final.late ?? null;
    // Once the other calls' charges are booked (the run's totals), the synthesis's charge,
    // the answer and the run's end are one statement (decisions 086 and 091).
    await drain(ctx);
    const stored = await advance(ctx, {
      to: "completed",
      answer: { id: randomUUID(), content: final.result.text },
      synthesis: final,
    });
    return stored ? final.result.text : null;
  } catch (error) {
    const { end } = haltForError(ctx, error);
    // Booked on its own when the end did not book it (a no-op when it did).
    await late?.book().catch(() => null);
    if (ctx.handedOff) {
      // Handed on (a drain's end, or another instance took the run over): the run is not
      // over, only this instance's part of it; its interrupted calls are stopped and released.
      await drain(ctx);
      return null;
    }
    await drain(ctx);
    await advance(ctx, { to: "halted", end }).catch((e: unknown) => {
      deps.log.error({ err: e, runId: ctx.runId }, "run end not saved");
    });
    return null;
  } finally {
    watching.stop();
    if (ctx.planHold) await releaseReserved(ctx, ctx.planHold);
    ctx.planHold = null;
    await ctx.events.flush().catch(() => {});
    ctx.events.close();
  }
}
