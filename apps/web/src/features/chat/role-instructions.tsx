import {
  AGENT_INSTRUCTIONS_MAX,
  AGENT_ROLE_NAMES,
  AGENT_ROLES,
  type TAgentPreferences,
  type TAgentRole,
  type TSession,
} from "@cohort/contracts";
import { useId } from "react";
import { cn } from "../../components/cn";
import { inputClasses } from "../../components/form";

/** Each role's standing instructions as the edit form holds them ("" for none). */
export type RoleInstructions = Record<TAgentRole, string>;

export function instructionsOf(preferences: TAgentPreferences | null): RoleInstructions {
  return Object.fromEntries(
    AGENT_ROLES.map((role) => [role, preferences?.[role]?.instructions ?? ""]),
  ) as RoleInstructions;
}

/** The roles that work in the session: the chosen ones in manual selection, else all. */
function workingRoles(session: Pick<TSession, "manual_agent_selection" | "agent_preferences">) {
  return session.manual_agent_selection
    ? AGENT_ROLES.filter((role) => session.agent_preferences?.[role]?.enabled)
    : AGENT_ROLES;
}

/**
 * The session's team with these instructions, each role's choice otherwise kept. A role the
 * preferences leave out stays as it was: off in manual selection, on its default model.
 */
export function withInstructions(
  session: Pick<TSession, "manual_agent_selection" | "agent_preferences">,
  instructions: RoleInstructions,
): TAgentPreferences | null {
  const given = AGENT_ROLES.some((role) => instructions[role].trim());
  if (!session.agent_preferences && !given) return null;
  return Object.fromEntries(
    AGENT_ROLES.map((role) => {
      const current = session.agent_preferences?.[role];
      return [
        role,
        {
          enabled: current?.enabled ?? !session.manual_agent_selection,
          model: current?.model ?? null,
          instructions: instructions[role].trim(),
        },
      ];
    }),
  );
}

/** "Instructions" per working role, in the session's edit dialog. */
export function RoleInstructionsFields({
  session,
  value,
  onChange,
}: {
  session: Pick<TSession, "manual_agent_selection" | "agent_preferences">;
  value: RoleInstructions;
  onChange(value: RoleInstructions): void;
}) {
  const id = useId();
  return (
    <fieldset>
      <legend className="text-sm font-medium text-ink-800">
        Instructions <span className="font-normal text-ink-500">(optional)</span>
      </legend>
      <p className="mt-0.5 text-xs text-ink-500">
        What each role should always keep in mind; it gets them with every task.
      </p>
      <div className="mt-1.5 grid gap-2">
        {workingRoles(session).map((role) => (
          <div key={role}>
            <label htmlFor={`${id}-${role}`} className="block text-xs font-medium text-ink-700">
              {AGENT_ROLE_NAMES[role]} instructions
            </label>
            <textarea
              id={`${id}-${role}`}
              value={value[role]}
              maxLength={AGENT_INSTRUCTIONS_MAX}
              rows={1}
              onChange={(e) => onChange({ ...value, [role]: e.target.value })}
              className={cn(inputClasses, "mt-1 resize-y py-2 text-xs")}
            />
          </div>
        ))}
      </div>
    </fieldset>
  );
}
