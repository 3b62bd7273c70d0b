import { z } from "zod";

/** An ended run's step as the routes name it: `/api/sessions/:id/runs/:runId/steps/:stepId…`. */
export const ZStepParams = z.object({ id: z.string(), runId: z.string(), stepId: z.string() });

/** The step a re-run, a fork or a synthesis works from. */
export interface StepTarget {
  sessionId: string;
  runId: string;
  stepId: string;
}

export function stepTarget({ id, runId, stepId }: z.infer<typeof ZStepParams>): StepTarget {
  return { sessionId: id, runId, stepId };
}
