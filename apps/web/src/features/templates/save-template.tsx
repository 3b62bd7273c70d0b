import { TEMPLATE_DESCRIPTION_MAX, TEMPLATE_NAME_MAX, type TSession } from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useAuth } from "../../auth/use-auth";
import { DialogForm, DialogFrame } from "../../components/dialog-frame";
import { Field, FormButtons, FormMessage, TextAreaField } from "../../components/form";
import { toast } from "../../components/toast/toast-store";
import { apiMessage, usePendingAction } from "../../lib/ui/use-pending-action";
import { createTemplate, templateKeys } from "./templates-api";
import { TemplatesUpgradeHint, useTemplatesUnlocked } from "./templates-gate";

/** "Save as template…": the dialog the session header opens from its actions menu. */
export function SaveAsTemplateDialog({
  session,
  open,
  onOpenChange,
}: {
  session: TSession;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  if (!open) return null;
  return <SaveTemplateForm session={session} onClose={() => onOpenChange(false)} />;
}

function SaveTemplateForm({ session, onClose }: { session: TSession; onClose(): void }) {
  const unlocked = useTemplatesUnlocked();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [name, setName] = useState(session.title);
  const [description, setDescription] = useState("");
  const [shared, setShared] = useState(false);
  const {
    pending: busy,
    error,
    setError,
    run,
  } = usePendingAction(apiMessage("The template could not be saved."));
  // A personal workspace has one member: sharing there would change nothing.
  const team = user !== null && session.workspace_id !== user.id;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError("Give the template a name.");
      return;
    }
    void run(async () => {
      const { template } = await createTemplate({
        name: name.trim(),
        description: description.trim(),
        shared: team && shared,
        from_session_id: session.id,
      });
      await queryClient.invalidateQueries({ queryKey: templateKeys.all });
      toast({
        title: `Template “${template.name}” saved`,
        description: "Start a session from it in the New session dialog.",
        variant: "success",
      });
      onClose();
    });
  };

  return (
    <DialogFrame
      open
      onOpenChange={(next) => (next ? undefined : onClose())}
      title="Save as template"
      description="Keeps this session's coordinator, team, models, instructions, budget and documents, to start new sessions from."
      testId="save-template-dialog"
    >
      {unlocked ? (
        <DialogForm onSubmit={submit}>
          <Field
            label="Name"
            value={name}
            maxLength={TEMPLATE_NAME_MAX}
            onChange={(e) => setName(e.target.value)}
            autoFocus
            required
          />
          <TextAreaField
            label={
              <>
                Description <span className="font-normal text-ink-500">(optional)</span>
              </>
            }
            text="prose"
            value={description}
            maxLength={TEMPLATE_DESCRIPTION_MAX}
            rows={2}
            onChange={(e) => setDescription(e.target.value)}
            placeholder="What this setup is good for"
          />
          {team ? (
            <label className="flex items-center gap-2 text-sm text-ink-800">
              <input
                type="checkbox"
                checked={shared}
                onChange={(e) => setShared(e.target.checked)}
                className="size-4 rounded border-ink-300 accent-brand-600"
              />
              Share with the workspace
            </label>
          ) : null}
          <FormMessage>{error}</FormMessage>
          <FormButtons onCancel={onClose} disabled={busy}>
            {busy ? "Saving…" : "Save template"}
          </FormButtons>
        </DialogForm>
      ) : (
        <div className="px-5 py-5 sm:px-6">
          <TemplatesUpgradeHint />
        </div>
      )}
    </DialogFrame>
  );
}
