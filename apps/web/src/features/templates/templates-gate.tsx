import { hasTemplateAccess } from "@cohort/contracts";
import { useAuth } from "../../auth/use-auth";
import { PlanNote, UpgradeLink } from "../../components/plan-note";

/** Whether the signed-in user's plan includes templates (Pro+ and Enterprise). */
export function useTemplatesUnlocked(): boolean {
  const { user } = useAuth();
  return user !== null && hasTemplateAccess(user.subscription_tier);
}

/**
 * What lower plans see where a template action would be: what templates are and where to
 * upgrade, instead of a button the server would refuse (403 `templates_locked`).
 */
export function TemplatesUpgradeHint({ compact = false }: { compact?: boolean }) {
  return (
    <PlanNote testId="templates-gate">
      <p>
        <strong className="font-semibold">
          Templates are part of the Pro+ and Enterprise plans.
        </strong>
        {compact
          ? " "
          : " Save a session's team, models, instructions, budget and documents, share them with your workspace, and start new sessions from them in one step. "}
        <UpgradeLink />.
      </p>
    </PlanNote>
  );
}
