import { TEMPLATE_NAME_MAX, type TTemplate } from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Button } from "../../components/button";
import { inputClasses } from "../../components/form";
import { SectionCard } from "../../components/section-header";
import { Spinner } from "../../components/spinner";
import { toast } from "../../components/toast/toast-store";
import { isApiError } from "../../lib/api/api-error";
import { useCurrentWorkspace } from "../workspaces/current-workspace";
import { deleteTemplate, templateKeys, updateTemplate, useTemplates } from "./templates-api";
import { TemplatesUpgradeHint, useTemplatesUnlocked } from "./templates-gate";

function failed(cause: unknown, fallback: string): void {
  toast({ title: isApiError(cause) ? cause.message : fallback, variant: "error" });
}

function RenameForm({ template, onDone }: { template: TTemplate; onDone(): void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(template.name);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    setBusy(true);
    try {
      await updateTemplate(template.id, { name: name.trim() });
      await queryClient.invalidateQueries({ queryKey: templateKeys.all });
      onDone();
    } catch (cause) {
      failed(cause, "The template could not be renamed.");
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-center gap-2">
      <label className="sr-only" htmlFor={`rename-${template.id}`}>
        New name for {template.name}
      </label>
      <input
        id={`rename-${template.id}`}
        value={name}
        maxLength={TEMPLATE_NAME_MAX}
        onChange={(e) => setName(e.target.value)}
        className={`${inputClasses} max-w-xs py-1.5`}
        // biome-ignore lint/a11y/noAutofocus: the user just asked to rename this one
        autoFocus
      />
      <Button type="submit" size="sm" disabled={busy || !name.trim()}>
        Save
      </Button>
      <Button variant="ghost" size="sm" onClick={onDone}>
        Cancel
      </Button>
    </form>
  );
}

function TemplateRow({
  template,
  unlocked,
  team,
}: {
  template: TTemplate;
  unlocked: boolean;
  team: boolean;
}) {
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<unknown>, fallback: string) => {
    setBusy(true);
    try {
      await work();
      await queryClient.invalidateQueries({ queryKey: templateKeys.all });
    } catch (cause) {
      failed(cause, fallback);
    } finally {
      setBusy(false);
    }
  };
  const editable = template.can_edit && unlocked;
  return (
    <li className="py-3" data-testid="template-row">
      {renaming ? (
        <RenameForm template={template} onDone={() => setRenaming(false)} />
      ) : (
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <p className="text-sm font-semibold text-ink-950">
              {template.name}
              {template.shared && team ? (
                <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">
                  Shared
                </span>
              ) : null}
            </p>
            <p className="mt-0.5 text-xs text-ink-500">
              {template.description ? `${template.description} · ` : ""}
              {template.is_mine ? "Yours" : `By ${template.created_by_name ?? "a former member"}`}
              {template.setup.document_ids.length > 0
                ? ` · ${template.setup.document_ids.length} document${template.setup.document_ids.length === 1 ? "" : "s"}`
                : ""}
            </p>
          </div>
          {template.can_edit ? (
            <div className="flex flex-wrap items-center gap-1.5">
              {editable ? (
                <Button variant="outline" size="sm" onClick={() => setRenaming(true)}>
                  Rename
                </Button>
              ) : null}
              {editable && team ? (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={busy}
                  onClick={() =>
                    run(
                      () => updateTemplate(template.id, { shared: !template.shared }),
                      "The template could not be changed.",
                    )
                  }
                >
                  {template.shared ? "Stop sharing" : "Share with the workspace"}
                </Button>
              ) : null}
              <Button
                variant="ghost"
                size="sm"
                disabled={busy}
                aria-label={`Delete ${template.name}`}
                className="text-red-700 hover:bg-red-50"
                onClick={() =>
                  run(() => deleteTemplate(template.id), "The template could not be deleted.")
                }
              >
                Delete
              </Button>
            </div>
          ) : null}
        </div>
      )}
    </li>
  );
}

/**
 * Settings → Templates: the saved setups of the workspace in view that the user sees (the
 * shared ones and their own), to rename, share or delete. Lower plans see where to upgrade,
 * and can still delete what they saved before.
 */
export function TemplatesSettings() {
  const unlocked = useTemplatesUnlocked();
  const templates = useTemplates();
  const team = useCurrentWorkspace().workspace?.kind === "team";
  const list = templates.data?.templates ?? [];
  return (
    <SectionCard
      anchor="templates"
      testId="templates-settings"
      id="templates-title"
      title="Templates"
      lead="Saved session setups: coordinator, team, models, instructions, budget and documents. Save one from a session's ⋯ menu; start from one in the New session dialog."
    >
      {unlocked ? null : (
        <div className="mt-3">
          <TemplatesUpgradeHint />
        </div>
      )}
      {templates.isPending ? (
        <div className="mt-4 flex justify-center">
          <Spinner />
        </div>
      ) : templates.isError ? (
        <p className="mt-3 text-sm text-red-700">Could not load the templates.</p>
      ) : list.length === 0 ? (
        unlocked ? (
          <p className="mt-3 rounded-lg border border-dashed border-ink-300 px-4 py-3 text-sm text-ink-600">
            No templates yet.
          </p>
        ) : null
      ) : (
        <ul aria-label="Templates" className="mt-3 divide-y divide-ink-200 border-y border-ink-200">
          {list.map((template) => (
            <TemplateRow key={template.id} template={template} unlocked={unlocked} team={team} />
          ))}
        </ul>
      )}
    </SectionCard>
  );
}
