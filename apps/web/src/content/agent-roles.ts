import { AGENT_ROLE_NAMES, AGENT_ROLES, type TAgentRole } from "@cohort/contracts";

export interface RoleCopy {
  role: TAgentRole;
  name: string;
  summary: string;
  /** Tailwind classes for the role's accent dot and soft background. */
  accent: { dot: string; soft: string; text: string };
}

const copy: Record<TAgentRole, Omit<RoleCopy, "role" | "name">> = {
  strategist: {
    summary:
      "Turns your goal into a plan: scope, options, risks and the order the work should happen in.",
    accent: { dot: "bg-amber-500", soft: "bg-amber-50", text: "text-amber-900" },
  },
  coder: {
    summary:
      "Writes and explains code, queries, data transformations and technical specifications.",
    accent: { dot: "bg-sky-500", soft: "bg-sky-50", text: "text-sky-900" },
  },
  designer: {
    summary:
      "Shapes interfaces, flows, structure and wording so the result works for the people using it.",
    accent: { dot: "bg-pink-500", soft: "bg-pink-50", text: "text-pink-900" },
  },
  critic: {
    summary:
      "Scores every draft against your brief and sends weak work back for one bounded revision.",
    accent: { dot: "bg-emerald-500", soft: "bg-emerald-50", text: "text-emerald-900" },
  },
};

/** The four roles of the product overview, in contract order, with the copy the marketing pages use. */
export const ROLE_COPY: readonly RoleCopy[] = AGENT_ROLES.map((role) => ({
  role,
  name: AGENT_ROLE_NAMES[role],
  ...copy[role],
}));

export function roleCopy(role: TAgentRole): RoleCopy {
  return { role, name: AGENT_ROLE_NAMES[role], ...copy[role] };
}

/** The external model families Cohort orchestrates next to its native Co* models. */
export const EXTERNAL_MODEL_FAMILIES = ["GPT", "Claude", "Gemini"] as const;
