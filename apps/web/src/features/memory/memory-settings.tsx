import {
  hasMemoryAccess,
  MEMORY_ERROR_CODES,
  type TMemory,
  type TMemorySettings,
} from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";
import { Link } from "react-router";
import { failureMessage } from "../../auth/account-api";
import { useAuth } from "../../auth/use-auth";
import { Button, buttonClasses } from "../../components/button";
import { Card } from "../../components/card";
import { CheckboxField } from "../../components/checkbox-field";
import { Field } from "../../components/form";
import { PLAN_NOTE_LINK, PlanNote, UpgradeLink } from "../../components/plan-note";
import { Spinner } from "../../components/spinner";
import { toast } from "../../components/toast/toast-store";
import { useConfirmedAction } from "../../components/use-confirmed-action";
import { isApiError } from "../../lib/api/api-error";
import { formatShortDate } from "../../lib/format/dates";
import { useCurrentWorkspace } from "../workspaces/current-workspace";
import { memoryOwnerLabel } from "../workspaces/workspace-labels";
import {
  deleteAllMemories,
  deleteMemory,
  editMemory,
  MEMORY_EXPORT_URL,
  memoryKeys,
  refreshMemories,
  saveMemorySettings,
  useMemories,
  useMemorySettings,
} from "./memory-api";
import { MemoryActions, MemoryRow } from "./memory-row";
import { MemoryProposal } from "./run-memory-proposals";

function SectionTitle() {
  return (
    <h2 id="memory-title" className="text-base font-semibold text-ink-950">
      Memory
    </h2>
  );
}

/** Lower plans: what memory is, and where to get it. */
function MemoryGate() {
  return (
    <Card id="memory" role="region" aria-labelledby="memory-title" className="p-5 sm:p-6">
      <SectionTitle />
      <PlanNote className="mt-3" testId="memory-gate">
        <p>
          <strong className="font-semibold">
            Memory is part of the Pro+ and Enterprise plans.
          </strong>{" "}
          After each run the coordinator suggests facts and preferences worth keeping (your
          projects, tools, how you like answers); the ones you approve help plan your next tasks, in
          every session.
        </p>
        <p className="mt-2">
          <UpgradeLink /> or{" "}
          <Link to="/pricing" className={PLAN_NOTE_LINK}>
            compare plans
          </Link>
          .
        </p>
      </PlanNote>
    </Card>
  );
}

function MemorySwitches({ settings }: { settings: TMemorySettings | undefined }) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const change = async (next: Partial<TMemorySettings>, done: string) => {
    setPending(true);
    try {
      queryClient.setQueryData(memoryKeys.settings, await saveMemorySettings(next));
      toast({ title: done, variant: "success" });
    } catch (error) {
      toast({ title: failureMessage(error, "Could not save the setting."), variant: "error" });
    } finally {
      setPending(false);
    }
  };
  const disabled = pending || settings === undefined;
  return (
    <div className="mt-4 grid gap-3">
      <CheckboxField
        asSwitch
        label="Pause memory"
        hint="While paused, runs neither propose new memories nor use the ones you keep."
        checked={settings?.paused ?? false}
        disabled={disabled}
        onChange={(paused) => void change({ paused }, paused ? "Memory paused" : "Memory resumed")}
      />
      <CheckboxField
        asSwitch
        label="Save proposals automatically"
        hint="Keep what the coordinator proposes without asking. You can still edit or delete it here."
        checked={settings?.auto_save ?? false}
        disabled={disabled}
        onChange={(autoSave) =>
          void change(
            { auto_save: autoSave },
            autoSave ? "Proposals will be saved automatically" : "Proposals will wait for you",
          )
        }
      />
    </div>
  );
}

function SavedMemory({ memory }: { memory: TMemory }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);

  const save = async (text: string) => {
    setBusy(true);
    try {
      await editMemory(memory.id, { text });
      setEditing(false);
      await refreshMemories(queryClient);
      toast({ title: "Memory updated", variant: "success" });
    } catch (error) {
      toast({ title: failureMessage(error, "Could not update the memory."), variant: "error" });
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setBusy(true);
    try {
      await deleteMemory(memory.id);
      await refreshMemories(queryClient);
      toast({ title: "Memory deleted", variant: "success" });
    } catch (error) {
      toast({ title: failureMessage(error, "Could not delete the memory."), variant: "error" });
      setBusy(false);
    }
  };

  return (
    <MemoryRow
      memory={memory}
      editing={editing}
      busy={busy}
      onSave={save}
      onCancel={() => setEditing(false)}
      className="py-3"
      testId="memory-item"
    >
      <div className="min-w-0">
        <p className="text-sm text-ink-900">{memory.text}</p>
        <p className="mt-0.5 text-xs text-ink-500">
          <span className="capitalize">{memory.kind}</span> · saved{" "}
          {formatShortDate(memory.updated_at)}
          {memory.source_session_id ? (
            <>
              {" · "}
              <Link className="underline" to={`/chat/${memory.source_session_id}`}>
                from this session
              </Link>
            </>
          ) : null}
        </p>
      </div>
      <MemoryActions
        memory={memory}
        busy={busy}
        onEdit={() => setEditing(true)}
        drop={{ label: "Delete", onClick: () => void remove() }}
      />
    </MemoryRow>
  );
}

function DeleteAll({ disabled }: { disabled: boolean }) {
  const queryClient = useQueryClient();
  const deletion = useConfirmedAction((error) =>
    failureMessage(error, "Could not delete your memories."),
  );
  const remove = () =>
    deletion.run(async () => {
      const deleted = await deleteAllMemories();
      await refreshMemories(queryClient);
      toast({
        title: deleted === 1 ? "1 memory deleted" : `${deleted} memories deleted`,
        variant: "success",
      });
    });
  if (!deletion.confirming) {
    return (
      <Button size="sm" variant="outline" disabled={disabled} onClick={deletion.ask}>
        Delete all
      </Button>
    );
  }
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900"
    >
      <span>Delete every memory, proposals included? This cannot be undone.</span>
      <Button
        size="sm"
        variant="outline"
        className="border-red-300 text-red-700 hover:bg-red-100"
        disabled={deletion.pending}
        onClick={() => void remove()}
      >
        {deletion.pending ? "Deleting…" : "Delete all memories"}
      </Button>
      <Button size="sm" variant="ghost" onClick={deletion.cancel}>
        Cancel
      </Button>
    </div>
  );
}

/** Proposals the user has not decided on yet, from any run (the run card may be folded away). */
function PendingProposals() {
  const pending = useMemories("", "proposed");
  const list = pending.data ?? [];
  if (list.length === 0) return null;
  return (
    <section
      aria-labelledby="memory-pending-title"
      className="mt-5 rounded-lg border border-brand-100 bg-brand-50/40 px-4 py-3"
      data-testid="memory-pending"
    >
      <h3 id="memory-pending-title" className="text-sm font-semibold text-ink-950">
        Waiting for your approval ({list.length})
      </h3>
      <ul className="mt-1 divide-y divide-brand-100">
        {list.map((memory) => (
          <MemoryProposal key={`${memory.id}:${memory.updated_at}`} memory={memory} />
        ))}
      </ul>
    </section>
  );
}

function MemoryManager() {
  const [search, setSearch] = useState("");
  const q = useDeferredValue(search.trim());
  const memories = useMemories(q);
  const settings = useMemorySettings();
  const { workspace } = useCurrentWorkspace();
  const locked = isApiError(memories.error) && memories.error.code === MEMORY_ERROR_CODES.locked;
  if (locked) return <MemoryGate />;
  const list = memories.data ?? [];
  return (
    <Card id="memory" role="region" aria-labelledby="memory-title" className="p-5 sm:p-6">
      <SectionTitle />
      <p className="mt-1 text-sm font-medium text-ink-800" data-testid="memory-workspace">
        Memory of {memoryOwnerLabel(workspace)}: runs in this workspace use it, and other workspaces
        do not see it.
      </p>
      <p className="mt-1 text-sm text-ink-600">
        After each run the coordinator proposes facts and preferences worth keeping; you approve,
        edit or reject them on the run or here. Approved memories relevant to a new task go into its
        plan, in every session of this workspace, and the run shows which it used.
      </p>
      {settings.data?.paused ? (
        <p role="status" className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Memory is paused: runs neither propose nor use memories.
        </p>
      ) : null}
      <MemorySwitches settings={settings.data} />
      <PendingProposals />
      <div className="mt-5 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <Field
          label="Search memories"
          type="search"
          className="w-full sm:max-w-xs"
          placeholder="e.g. TypeScript"
          value={search}
          maxLength={200}
          onChange={(event) => setSearch(event.target.value)}
        />
        <div className="flex flex-wrap gap-2">
          <a
            href={MEMORY_EXPORT_URL}
            download="cohort-memories.json"
            className={buttonClasses({ variant: "outline", size: "sm" })}
          >
            Export
          </a>
          <DeleteAll disabled={!q && memories.isSuccess && list.length === 0} />
        </div>
      </div>
      <div className="mt-4" aria-live="polite">
        {memories.isPending ? (
          <div className="py-4">
            <Spinner label="Loading your memories…" />
          </div>
        ) : memories.isError ? (
          <p className="py-2 text-sm text-red-700">Could not load your memories.</p>
        ) : list.length === 0 ? (
          <p className="rounded-lg border border-dashed border-ink-300 px-4 py-3 text-sm text-ink-600">
            {q
              ? `No memory matches “${q}”.`
              : "No memories yet. Approve what the coordinator proposes after a run, and it shows up here."}
          </p>
        ) : (
          <ul
            aria-label="Your memories"
            className="divide-y divide-ink-200 border-y border-ink-200"
          >
            {list.map((memory) => (
              <SavedMemory key={`${memory.id}:${memory.updated_at}`} memory={memory} />
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}

/** Settings → Memory: the user's memories, the switches, and the plan gate for lower tiers. */
export function MemorySettings() {
  const { user } = useAuth();
  if (!user) return null;
  return hasMemoryAccess(user.subscription_tier) ? <MemoryManager /> : <MemoryGate />;
}
