import type { TTemplate, TTemplateSetup } from "@cohort/contracts";
import { useId } from "react";
import { Link } from "react-router";
import { cn } from "../../components/cn";
import { inputClasses } from "../../components/form";
import { useDocuments } from "../documents/documents-api";
import { useTemplates } from "./templates-api";
import { useTemplatesUnlocked } from "./templates-gate";

function optionLabel(template: TTemplate): string {
  const by = template.is_mine
    ? ""
    : template.created_by_name
      ? ` — by ${template.created_by_name}`
      : "";
  return `${template.name}${template.shared && template.is_mine ? " (shared)" : ""}${by}`;
}

/**
 * "Start from a template" in the new-session dialog: choosing one fills the form with its
 * setup (the user can still change anything before creating). Lower plans see where to
 * upgrade; with no templates yet, nothing shows.
 */
export function TemplatePicker({ onApply }: { onApply(setup: TTemplateSetup): void }) {
  const unlocked = useTemplatesUnlocked();
  const templates = useTemplates(unlocked);
  const documents = useDocuments();
  const id = useId();
  if (!unlocked) {
    return (
      <p className="text-xs text-ink-500" data-testid="templates-gate">
        Start from a saved setup with templates, part of the Pro+ and Enterprise plans.{" "}
        <Link to="/billing" className="font-semibold text-brand-700 underline">
          Upgrade
        </Link>
      </p>
    );
  }
  const list = templates.data?.templates ?? [];
  if (list.length === 0) return null;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-ink-800">
        Start from a template <span className="font-normal text-ink-500">(optional)</span>
      </label>
      <select
        id={id}
        defaultValue=""
        onChange={(event) => {
          const chosen = list.find((t) => t.id === event.target.value);
          if (!chosen) return;
          // Documents deleted since the template was saved are left out, as the server does.
          const present = new Set((documents.data?.documents ?? []).map((d) => d.id));
          onApply({
            ...chosen.setup,
            document_ids: chosen.setup.document_ids.filter((d) => present.has(d)),
          });
        }}
        className={cn(inputClasses, "mt-1.5")}
      >
        <option value="">No template</option>
        {list.map((template) => (
          <option key={template.id} value={template.id}>
            {optionLabel(template)}
          </option>
        ))}
      </select>
      <p className="mt-1.5 text-xs text-ink-500">
        Fills in the coordinator, team, models, instructions, budget and documents below.
      </p>
    </div>
  );
}
