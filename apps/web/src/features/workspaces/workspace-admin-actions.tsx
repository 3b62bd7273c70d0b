import { type TWorkspace, WORKSPACE_NAME_MAX } from "@cohort/contracts";
import { type FormEvent, useState } from "react";
import { Button } from "../../components/button";
import { Field } from "../../components/form";
import { useCurrentWorkspace } from "./current-workspace";
import { useWorkspaceAction } from "./use-workspace-action";
import { markLeavingWorkspace } from "./use-workspace-changed";
import { deleteWorkspace, removeMember, renameWorkspace } from "./workspaces-api";

function RenameForm({ workspace }: { workspace: TWorkspace }) {
  const { run, busy } = useWorkspaceAction();
  const [name, setName] = useState(workspace.name);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(
      "rename",
      () => renameWorkspace(workspace.id, name.trim()),
      "Workspace renamed.",
      "The workspace could not be renamed.",
    );
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <Field
        label="Workspace name"
        className="min-w-56 flex-1"
        value={name}
        maxLength={WORKSPACE_NAME_MAX}
        onChange={(event) => setName(event.target.value)}
      />
      <Button
        type="submit"
        variant="outline"
        disabled={busy !== null || name.trim() === "" || name.trim() === workspace.name}
      >
        {busy ? "Saving…" : "Rename"}
      </Button>
    </form>
  );
}

function DeleteForm({ workspace, onGone }: { workspace: TWorkspace; onGone(): void }) {
  const { run, busy } = useWorkspaceAction();
  const [confirm, setConfirm] = useState("");
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    markLeavingWorkspace(workspace.id);
    const done = await run(
      "delete",
      () => deleteWorkspace(workspace.id, confirm),
      `${workspace.name} was deleted.`,
      "The workspace could not be deleted.",
    );
    if (done) onGone();
  };
  return (
    <form
      onSubmit={submit}
      className="grid gap-2 rounded-xl border border-red-200 bg-red-50/50 p-4"
    >
      <p className="text-sm text-red-900">
        Deleting the workspace deletes its sessions, documents, templates and memories for every
        member. Unspent pool credits are lost.
      </p>
      <div className="flex flex-wrap items-end gap-2">
        <Field
          label={`Type “${workspace.name}” to confirm`}
          className="min-w-56 flex-1"
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
          autoComplete="off"
        />
        <Button
          type="submit"
          className="bg-red-600 hover:bg-red-700"
          disabled={busy !== null || confirm !== workspace.name}
        >
          {busy ? "Deleting…" : "Delete workspace"}
        </Button>
      </div>
    </form>
  );
}

/** Rename and delete (owners), and "Leave workspace" (anyone but the last owner). */
export function WorkspaceAdminActions({
  workspace,
  myId,
}: {
  workspace: TWorkspace;
  myId: string;
}) {
  const { switchTo } = useCurrentWorkspace();
  const { run, busy } = useWorkspaceAction();
  const toPersonal = () => switchTo(myId);
  const leave = async () => {
    markLeavingWorkspace(workspace.id);
    const left = await run(
      "leave",
      () => removeMember(workspace.id, myId),
      `You left ${workspace.name}.`,
      "You could not leave the workspace.",
    );
    if (left) toPersonal();
  };
  const owner = workspace.role === "owner";
  return (
    <section aria-labelledby="workspace-manage-title" className="grid gap-3">
      <h2 id="workspace-manage-title" className="text-base font-semibold text-ink-950">
        {owner ? "Manage workspace" : "Your membership"}
      </h2>
      {owner ? <RenameForm workspace={workspace} /> : null}
      <div>
        <Button variant="outline" onClick={() => void leave()} disabled={busy !== null}>
          {busy ? "Leaving…" : "Leave workspace"}
        </Button>
      </div>
      {owner ? <DeleteForm workspace={workspace} onGone={toPersonal} /> : null}
    </section>
  );
}
