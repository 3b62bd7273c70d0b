import {
  AGENT_ROLES,
  SESSION_DESCRIPTION_MAX,
  SESSION_STATUS_TRANSITIONS,
  SESSION_TITLE_MAX,
  type TModel,
  type TSession,
  type TSessionStatus,
} from "@cohort/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { AlertDialog, DropdownMenu } from "radix-ui";
import { type FormEvent, memo, type ReactNode, useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "../../components/button";
import { DialogForm, DialogFrame } from "../../components/dialog-frame";
import { Field, FormButtons, FormMessage, TextAreaField } from "../../components/form";
import { MenuContent, MenuSeparator, menuItemClass } from "../../components/menu";
import { toast } from "../../components/toast/toast-store";
import { isApiError } from "../../lib/api/api-error";
import { formatRunCredits, formatSpentOfBudget } from "../../lib/format/runs";
import { apiMessage, usePendingAction } from "../../lib/ui/use-pending-action";
import { ExportMenuItems } from "../export/export-menu-items";
import { ImportedSessionMark } from "../export/imported-badge";
import { SaveAsTemplateDialog } from "../templates/save-template";
import { SessionWorkspace } from "../workspaces/session-workspace";
import { ApprovalPolicyField } from "./approval-policy-field";
import { chatKeys, deleteSession, listSessions, setSessionStatus, updateSession } from "./chat-api";
import { ModelBadge } from "./model-badge";
import { ReviewPlanField } from "./review-plan-field";
import { instructionsOf, RoleInstructionsFields, withInstructions } from "./role-instructions";
import { type RoleToolChoices, RoleToolsField } from "./role-tools-field";
import { parseSessionBudget } from "./session-budget";
import { SessionBudgetField } from "./session-budget-field";
import { SessionDocumentsButton } from "./session-documents";
import { SessionStatusBadge, shownStatusAt, useMinuteClock } from "./session-list";
import { ShareDialog } from "./share-dialog";

/** The verb for each change, from where the session is now (docs/decisions: session statuses). */
function transitionLabel(from: TSessionStatus, to: TSessionStatus): string {
  if (to === "paused") return "Pause";
  if (to === "completed") return "Mark complete";
  if (to === "archived") return "Archive";
  return from === "paused" ? "Resume" : from === "archived" ? "Restore" : "Reopen";
}

function BudgetMeter({ session }: { session: TSession }) {
  const budget = session.budget_credits;
  if (budget === null) {
    return (
      <span className="text-xs text-ink-500 tabular-nums" data-testid="session-spent">
        Spent {formatRunCredits(session.spent_credits)}
      </span>
    );
  }
  const ratio = Math.min(1, session.spent_credits / budget);
  return (
    <span
      className="inline-flex items-center gap-2 text-xs text-ink-600 tabular-nums"
      data-testid="session-spent"
    >
      <span aria-hidden="true" className="h-1.5 w-16 overflow-hidden rounded-full bg-ink-200">
        <span
          className={
            ratio >= 0.9
              ? "block h-full bg-red-500"
              : ratio >= 0.7
                ? "block h-full bg-amber-500"
                : "block h-full bg-emerald-500"
          }
          style={{ width: `${ratio * 100}%` }}
        />
      </span>
      {formatSpentOfBudget(session.spent_credits, budget)}
    </span>
  );
}

function EditSessionDialog({
  session,
  open,
  onOpenChange,
  onSaved,
}: {
  session: TSession;
  open: boolean;
  onOpenChange(open: boolean): void;
  onSaved(session: TSession): void;
}) {
  const [title, setTitle] = useState(session.title);
  const [description, setDescription] = useState(session.description);
  const [budget, setBudget] = useState(
    session.budget_credits === null ? "" : String(session.budget_credits),
  );
  const [instructions, setInstructions] = useState(() => instructionsOf(session.agent_preferences));
  const [policy, setPolicy] = useState(session.tools.policy);
  const [roleTools, setRoleTools] = useState<RoleToolChoices>(session.tools.roles);
  const [reviewPlan, setReviewPlan] = useState(session.review_plan);
  const {
    pending: busy,
    error,
    setError,
    run,
  } = usePendingAction(apiMessage("The session could not be saved."));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim()) {
      setError("Give the session a title.");
      return;
    }
    const budgetCredits = parseSessionBudget(budget);
    if (budgetCredits === "invalid") {
      setError("The budget must be a positive number of credits, or empty for no cap.");
      return;
    }
    void run(async () => {
      const { session: saved } = await updateSession(session.id, {
        title: title.trim(),
        description: description.trim(),
        budget_credits: budgetCredits,
        agent_preferences: withInstructions(session, instructions),
        ...(reviewPlan !== session.review_plan ? { review_plan: reviewPlan } : {}),
        ...(policy !== session.tools.policy ||
        JSON.stringify(roleTools) !== JSON.stringify(session.tools.roles)
          ? { tools: { policy, roles: roleTools } }
          : {}),
      });
      onSaved(saved);
      onOpenChange(false);
    });
  };
  return (
    <DialogFrame open={open} onOpenChange={onOpenChange} title="Edit session">
      <DialogForm onSubmit={submit}>
        <Field
          label="Title"
          value={title}
          maxLength={SESSION_TITLE_MAX}
          onChange={(e) => setTitle(e.target.value)}
          autoFocus
          required
        />
        <TextAreaField
          label="Description"
          text="prose"
          value={description}
          maxLength={SESSION_DESCRIPTION_MAX}
          rows={3}
          onChange={(e) => setDescription(e.target.value)}
        />
        <RoleInstructionsFields session={session} value={instructions} onChange={setInstructions} />
        <SessionBudgetField
          label="Credit budget"
          value={budget}
          onChange={setBudget}
          hint={`Spent so far: ${formatRunCredits(session.spent_credits)}. Leave empty for no cap.`}
        />
        <ReviewPlanField checked={reviewPlan} onChange={setReviewPlan} />
        <ApprovalPolicyField value={policy} onChange={setPolicy} current={session.tools.policy} />
        <RoleToolsField
          value={roleTools}
          onChange={setRoleTools}
          workspaceId={session.workspace_id}
          roles={
            session.manual_agent_selection
              ? AGENT_ROLES.filter((role) => session.agent_preferences?.[role]?.enabled)
              : AGENT_ROLES
          }
        />
        <FormMessage>{error}</FormMessage>
        <FormButtons onCancel={() => onOpenChange(false)} disabled={busy}>
          {busy ? "Saving…" : "Save"}
        </FormButtons>
      </DialogForm>
    </DialogFrame>
  );
}

function DeleteDialog({
  session,
  open,
  onOpenChange,
}: {
  session: TSession;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    setBusy(true);
    try {
      await deleteSession(session.id);
      await queryClient.invalidateQueries({ queryKey: chatKeys.sessions });
      toast({ title: "Session deleted", variant: "success" });
      navigate("/chat", { replace: true });
    } catch (cause) {
      toast({
        title: isApiError(cause) ? cause.message : "The session could not be deleted.",
        variant: "error",
      });
      setBusy(false);
    }
  };
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-ink-950/40" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-3xl bg-white p-6 shadow-2xl outline-none">
          <AlertDialog.Title className="text-lg font-bold text-ink-950">
            Delete “{session.title}”?
          </AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-ink-600">
            Its messages, runs and the agents' work are removed for good. Credits already spent are
            not refunded.
          </AlertDialog.Description>
          <div className="mt-6 flex justify-end gap-2">
            <AlertDialog.Cancel asChild>
              <Button variant="outline">Cancel</Button>
            </AlertDialog.Cancel>
            <Button
              onClick={remove}
              disabled={busy}
              className="bg-red-600 hover:bg-red-700 focus-visible:outline-red-600"
            >
              {busy ? "Deleting…" : "Delete session"}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/**
 * The header's badge, kept current while the page is open: the session list's query (shared
 * with the sidebar, refetched when a run ends) brings the server's fresh activity; the user's
 * own status is the one on this page; a run seen working is active at once.
 */
function useShownStatus(session: TSession, runActive: boolean) {
  const now = useMinuteClock();
  const listed = useQuery({
    queryKey: chatKeys.sessionList(""),
    queryFn: ({ signal }) => listSessions("", signal),
    staleTime: 10_000,
    select: (page) => page.sessions.find((s) => s.id === session.id),
  }).data;
  const fresher =
    listed && Date.parse(listed.last_activity_at) >= Date.parse(session.last_activity_at)
      ? listed
      : session;
  return shownStatusAt(
    {
      status: session.status,
      activity: fresher.activity,
      last_activity_at: fresher.last_activity_at,
    },
    now,
    runActive,
  );
}

/**
 * Drawn again only when its props change, not on every frame of a streaming run (decision 080).
 */
export const SessionHeader = memo(function SessionHeader({
  session,
  coordinator,
  runActive,
  onSessionChange,
  leading,
}: {
  session: TSession;
  coordinator: TModel | undefined;
  runActive: boolean;
  onSessionChange(session: TSession): void;
  leading?: ReactNode;
}) {
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [savingTemplate, setSavingTemplate] = useState(false);
  const [changing, setChanging] = useState<TSessionStatus | null>(null);
  const shown = useShownStatus(session, runActive);
  // A session whose badge already reads Completed (its last run is) is offered what fits a
  // completed session: archiving it. Not "Mark complete" as if it were not, nor "Pause", which
  // only means something while work goes on (decisions 057, 065).
  const targets = SESSION_STATUS_TRANSITIONS[session.status].filter(
    (status) => !(shown === "completed" && (status === "completed" || status === "paused")),
  );

  const changeStatus = async (status: TSessionStatus) => {
    setChanging(status);
    try {
      const { session: saved } = await setSessionStatus(session.id, status);
      onSessionChange(saved);
      void queryClient.invalidateQueries({ queryKey: chatKeys.sessions });
    } catch (cause) {
      toast({
        title: isApiError(cause) ? cause.message : "The status could not be changed.",
        variant: "error",
      });
    } finally {
      setChanging(null);
    }
  };

  const saved = (next: TSession) => {
    onSessionChange(next);
    void queryClient.invalidateQueries({ queryKey: chatKeys.sessions });
  };

  return (
    <header
      className="border-b border-ink-200 bg-white/95 px-4 py-3 backdrop-blur sm:px-6"
      data-testid="session-header"
    >
      <div className="flex items-start gap-3">
        {leading}
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="min-w-0 truncate text-lg font-bold tracking-tight text-ink-950 sm:text-xl">
              {session.title}
            </h1>
            <SessionStatusBadge status={shown} />
            {session.imported_from_export_at ? (
              <ImportedSessionMark exportedAt={session.imported_from_export_at} />
            ) : null}
          </div>
          <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-ink-500">
            {coordinator ? (
              <span className="inline-flex items-center gap-1.5">
                Coordinator
                <ModelBadge
                  name={coordinator.name}
                  simulated={coordinator.simulated}
                  source={coordinator.source}
                  compact
                />
              </span>
            ) : null}
            <span>{session.manual_agent_selection ? "Manual team" : "Automatic team"}</span>
            {session.review_plan ? (
              <span data-testid="session-review-plan">Plan reviewed first</span>
            ) : null}
            <BudgetMeter session={session} />
            <SessionWorkspace session={session} />
          </div>
          {session.description ? (
            <p className="mt-1 line-clamp-2 text-sm text-ink-600">{session.description}</p>
          ) : null}
        </div>
        <div className="flex shrink-0 items-center gap-1.5">
          <SessionDocumentsButton sessionId={session.id} />
          <div className="hidden items-center gap-1.5 md:flex">
            {targets.map((status) => (
              <Button
                key={status}
                variant="outline"
                size="sm"
                onClick={() => changeStatus(status)}
                disabled={changing !== null}
              >
                {changing === status ? "Saving…" : transitionLabel(session.status, status)}
              </Button>
            ))}
          </div>
          <DropdownMenu.Root>
            <DropdownMenu.Trigger asChild>
              <Button variant="ghost" size="sm" aria-label="Session actions">
                <svg viewBox="0 0 16 16" aria-hidden="true" className="size-4" fill="currentColor">
                  <circle cx="3" cy="8" r="1.5" />
                  <circle cx="8" cy="8" r="1.5" />
                  <circle cx="13" cy="8" r="1.5" />
                </svg>
              </Button>
            </DropdownMenu.Trigger>
            <MenuContent align="end" className="z-50 min-w-48">
              {targets.map((status) => (
                <DropdownMenu.Item
                  key={status}
                  className={menuItemClass}
                  disabled={changing !== null}
                  onSelect={() => void changeStatus(status)}
                >
                  {transitionLabel(session.status, status)}
                </DropdownMenu.Item>
              ))}
              <MenuSeparator />
              <DropdownMenu.Item className={menuItemClass} onSelect={() => setRenaming(true)}>
                Edit details…
              </DropdownMenu.Item>
              <DropdownMenu.Item className={menuItemClass} onSelect={() => setSharing(true)}>
                Share…
              </DropdownMenu.Item>
              <ExportMenuItems sessionId={session.id} className={menuItemClass} />
              <DropdownMenu.Item className={menuItemClass} onSelect={() => setSavingTemplate(true)}>
                Save as template…
              </DropdownMenu.Item>
              <DropdownMenu.Item
                className={`${menuItemClass} text-red-700 data-[highlighted]:bg-red-50`}
                disabled={runActive}
                onSelect={() => setDeleting(true)}
              >
                Delete…
              </DropdownMenu.Item>
            </MenuContent>
          </DropdownMenu.Root>
        </div>
      </div>
      {renaming ? (
        <EditSessionDialog session={session} open onOpenChange={setRenaming} onSaved={saved} />
      ) : null}
      <DeleteDialog session={session} open={deleting} onOpenChange={setDeleting} />
      {sharing ? <ShareDialog sessionId={session.id} open onOpenChange={setSharing} /> : null}
      <SaveAsTemplateDialog
        session={session}
        open={savingTemplate}
        onOpenChange={setSavingTemplate}
      />
    </header>
  );
});
