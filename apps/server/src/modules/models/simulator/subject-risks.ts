import type { SubjectKind } from "./subject";

/** Each kind of subject's usual risks: an answer samples them, a revision adds the first two. */
export const RISKS: Record<SubjectKind, readonly string[]> = {
  page: [
    "Too many choices on one screen: keep one primary action.",
    "Copy written last: draft the words before the layout.",
    "Slow on phones: keep images small and check on a real device.",
  ],
  code: [
    "Unclear requirements: confirm the example inputs before building.",
    "Edge cases found in production: test empty and oversized input early.",
    "Hidden dependencies: check what else calls this code before changing it.",
  ],
  data: [
    "A wrong relationship is expensive to change later: review the model before writing code.",
    "Missing indexes show up only with real volumes: test with realistic data.",
  ],
  visual: [
    "Designing by committee: agree who decides before showing directions.",
    "Details lost at small sizes: test at 16 px early.",
  ],
  writing: [
    "Too long: readers skim; put the key message in the first two lines.",
    "No clear next step: end with one call to action.",
  ],
  plan: [
    "Scope creep: hold the line on the must-haves.",
    "Slow decisions: name one person who decides.",
    "Underestimated effort: add a buffer to every date.",
  ],
  question: [
    "Changing too much at once makes it hard to learn what worked.",
    "Advice that fits someone else's situation: adapt it to yours.",
  ],
};
