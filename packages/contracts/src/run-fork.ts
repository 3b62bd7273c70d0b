import { z } from "zod";

/** A fork's origin, on the run it made. */
export const ZRunFork = z.object({
  from_run_id: z.string(),
  step_id: z.string(),
  model: z.string(),
  instructions: z.string().nullable(),
  rest: z.boolean(),
  /** The tools given to the forked step (and with `rest` the later ones); absent: unchanged. */
  tools: z.array(z.string()).nullable().optional(),
  /** The plan steps it ran again (the others were copied, not charged). */
  rerun_steps: z.array(z.string()),
});
export type TRunFork = z.infer<typeof ZRunFork>;
