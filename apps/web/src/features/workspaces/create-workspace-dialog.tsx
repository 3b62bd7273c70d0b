import { WORKSPACE_NAME_MAX } from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { failureMessage } from "../../auth/account-api";
import { Button } from "../../components/button";
import { DialogFrame } from "../../components/dialog-frame";
import { Field } from "../../components/form";
import { toast } from "../../components/toast/toast-store";
import { usePendingAction } from "../../lib/ui/use-pending-action";
import { useCurrentWorkspace } from "./current-workspace";
import { createWorkspace, workspaceKeys } from "./workspaces-api";

/** "Create team workspace…": a name, then the new team is the workspace in view. */
export function CreateWorkspaceDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const queryClient = useQueryClient();
  const { switchTo } = useCurrentWorkspace();
  const [name, setName] = useState("");
  const {
    pending: busy,
    error,
    setError,
    run,
  } = usePendingAction((cause) =>
    failureMessage(cause, "The workspace could not be created. Please try again."),
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError("Give the workspace a name.");
      return;
    }
    void run(async () => {
      const workspace = await createWorkspace(trimmed);
      await queryClient.invalidateQueries({ queryKey: workspaceKeys.list });
      switchTo(workspace.id);
      toast({ title: `${workspace.name} created`, variant: "success" });
      setName("");
      onOpenChange(false);
    });
  };

  return (
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      title="Create team workspace"
      description="A shared place for sessions, documents and templates, paid from its own credit pool."
      testId="create-workspace-dialog"
    >
      <form onSubmit={submit} className="grid gap-4 p-5 sm:p-6" noValidate>
        <Field
          label="Workspace name"
          value={name}
          maxLength={WORKSPACE_NAME_MAX}
          onChange={(event) => setName(event.target.value)}
          autoFocus
          error={error}
        />
        <p className="text-xs text-ink-500">
          You will be its owner; invite people from Settings → Workspace.
        </p>
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy} aria-busy={busy || undefined}>
            {busy ? "Creating…" : "Create workspace"}
          </Button>
        </div>
      </form>
    </DialogFrame>
  );
}
