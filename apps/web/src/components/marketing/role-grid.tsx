import type { TAgentRole } from "@cohort/contracts";
import { ROLE_COPY } from "../../content/agent-roles";
import { cn } from "../cn";

/**
 * The four roles, each in its colour with what it does: the roles' own summaries, or what
 * each does for a particular audience (`roles`).
 */
export function RoleGrid({
  roles,
  className = "grid gap-4 sm:grid-cols-2",
}: {
  roles?: Readonly<Record<TAgentRole, string>>;
  /** How the list is laid out (and spaced from what comes before it). */
  className?: string;
}) {
  return (
    <ul className={className}>
      {ROLE_COPY.map((role) => (
        <li key={role.role} className={cn("rounded-2xl p-5", role.accent.soft)}>
          <h3 className={cn("flex items-center gap-2 font-semibold", role.accent.text)}>
            <span aria-hidden="true" className={cn("size-2.5 rounded-full", role.accent.dot)} />
            {role.name}
          </h3>
          <p className="mt-1.5 text-sm leading-6 text-ink-700">
            {roles ? roles[role.role] : role.summary}
          </p>
        </li>
      ))}
    </ul>
  );
}
