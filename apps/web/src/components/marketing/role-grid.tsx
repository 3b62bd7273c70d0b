import type { TAgentRole } from "@cohort/contracts";
import { ROLE_COPY } from "../../content/agent-roles";
import { cn } from "../cn";

/** What each of the four roles does for a particular audience. */
export function RoleGrid({ roles }: { roles: Readonly<Record<TAgentRole, string>> }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2">
      {ROLE_COPY.map((role) => (
        <li key={role.role} className={cn("rounded-2xl p-5", role.accent.soft)}>
          <h3 className={cn("flex items-center gap-2 font-semibold", role.accent.text)}>
            <span aria-hidden="true" className={cn("size-2.5 rounded-full", role.accent.dot)} />
            {role.name}
          </h3>
          <p className="mt-1.5 text-sm leading-6 text-ink-700">{roles[role.role]}</p>
        </li>
      ))}
    </ul>
  );
}
