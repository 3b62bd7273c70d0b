import {
  AGENT_INSTRUCTIONS_MAX,
  AGENT_ROLES,
  DEFAULT_COORDINATOR_MODEL,
  DEFAULT_TOOL_POLICY,
  MODEL_SOURCE_LABELS,
  SESSION_BUDGET_MAX,
  SESSION_DESCRIPTION_MAX,
  SESSION_TITLE_MAX,
  type TAgentPreferences,
  type TAgentRole,
  type TAgentRoleInfo,
  type TModel,
  type TTemplateSetup,
  type TToolPolicy,
} from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "../../components/button";
import { cn } from "../../components/cn";
import { DialogForm, DialogFrame } from "../../components/dialog-frame";
import { Field, FormMessage, inputClasses, TextAreaField } from "../../components/form";
import { toast } from "../../components/toast/toast-store";
import { roleCopy } from "../../content/agent-roles";
import { isApiError } from "../../lib/api/api-error";
import { formatNumber } from "../../lib/format/numbers";
import { apiMessage, usePendingAction } from "../../lib/ui/use-pending-action";
import { DocumentPicker } from "../documents/document-picker";
import { TemplatePicker } from "../templates/template-picker";
import { useCurrentWorkspace } from "../workspaces/current-workspace";
import { ApprovalPolicyField } from "./approval-policy-field";
import {
  chatKeys,
  createSession,
  modelsById,
  putSessionDocuments,
  useAgentRoles,
  useModels,
} from "./chat-api";
import { ModelBadge } from "./model-badge";
import { ReviewPlanField } from "./review-plan-field";
import { type RoleToolChoices, RoleToolsField } from "./role-tools-field";
import { RoleAvatar } from "./run-parts";
import { parseSessionBudget } from "./session-budget";
import { SessionBudgetField } from "./session-budget-field";

interface RoleChoice {
  enabled: boolean;
  /** "" = the role's default model. */
  model: string;
  /** The user's standing instructions for the role ("" for none). */
  instructions: string;
}

/** The name, its purpose and what will answer it: "(Your key)", "(Hosted key)", "(Simulated)". */
function optionLabel(model: TModel): string {
  return `${model.name} — ${model.purpose} (${MODEL_SOURCE_LABELS[model.source]})`;
}

/** Text models that can write a structured plan: the coordinator's job. */
function coordinatorModels(models: readonly TModel[]): TModel[] {
  return models.filter(
    (m) => m.capabilities.includes("structured") && m.capabilities.includes("text"),
  );
}

function RoleRow({
  role,
  info,
  choice,
  manual,
  models,
  onChange,
}: {
  role: TAgentRole;
  info: TAgentRoleInfo | undefined;
  choice: RoleChoice;
  manual: boolean;
  models: Map<string, TModel>;
  onChange(choice: RoleChoice): void;
}) {
  const id = useId();
  const copy = roleCopy(role);
  const suitable = (info?.suitable_models ?? [])
    .map((m) => models.get(m))
    .filter((m) => m !== undefined);
  const fallback = info ? models.get(info.default_model) : undefined;
  const chosen = choice.model ? models.get(choice.model) : fallback;
  const off = manual && !choice.enabled;
  return (
    <li
      data-testid={`role-${role}`}
      className={cn(
        "grid grid-cols-1 gap-2 rounded-2xl border p-3 transition-colors sm:grid-cols-[minmax(0,1fr)_14rem] sm:items-center",
        off ? "border-ink-200 bg-ink-50" : "border-ink-200 bg-white",
      )}
    >
      <div className="flex min-w-0 items-start gap-3">
        <RoleAvatar role={role} className={off ? "opacity-50" : undefined} />
        <div className="min-w-0">
          {manual ? (
            <label className="flex items-center gap-2 text-sm font-semibold text-ink-950">
              <input
                type="checkbox"
                checked={choice.enabled}
                onChange={(event) => onChange({ ...choice, enabled: event.target.checked })}
                className="size-4 rounded border-ink-300 accent-brand-600"
              />
              {copy.name}
            </label>
          ) : (
            <p className="text-sm font-semibold text-ink-950">{copy.name}</p>
          )}
          <p className={cn("mt-0.5 text-xs leading-5", off ? "text-ink-400" : "text-ink-600")}>
            {info?.description ?? copy.summary}
          </p>
        </div>
      </div>
      <div className="grid grid-cols-1 gap-1">
        <label htmlFor={`${id}-model`} className="sr-only">
          {copy.name} model
        </label>
        <select
          id={`${id}-model`}
          value={choice.model}
          disabled={off}
          onChange={(event) => onChange({ ...choice, model: event.target.value })}
          className={cn(inputClasses, "py-2")}
        >
          <option value="">
            Default
            {fallback ? ` (${fallback.name})` : ""}
          </option>
          {suitable.map((model) => (
            <option key={model.id} value={model.id}>
              {optionLabel(model)}
            </option>
          ))}
        </select>
        {chosen && !off ? (
          <ModelBadge
            name={chosen.name}
            provider={chosen.provider}
            simulated={chosen.simulated}
            source={chosen.source}
          />
        ) : null}
      </div>
      {off ? null : (
        <div className="sm:col-span-2">
          <label htmlFor={`${id}-instructions`} className="sr-only">
            {copy.name} instructions
          </label>
          <textarea
            id={`${id}-instructions`}
            value={choice.instructions}
            onChange={(event) => onChange({ ...choice, instructions: event.target.value })}
            maxLength={AGENT_INSTRUCTIONS_MAX}
            rows={1}
            placeholder={`Instructions for the ${copy.name} (optional)`}
            className={cn(inputClasses, "resize-y py-2 text-xs")}
          />
        </div>
      )}
    </li>
  );
}

/**
 * Attaches the chosen documents to a session just made. A refusal does not undo the session:
 * it opens all the same, and the toast says how to attach them from its header.
 */
async function attachDocuments(
  queryClient: ReturnType<typeof useQueryClient>,
  sessionId: string,
  documentIds: readonly string[],
): Promise<void> {
  if (documentIds.length === 0) return;
  try {
    const attached = await putSessionDocuments(sessionId, documentIds);
    queryClient.setQueryData(chatKeys.documents(sessionId), attached);
  } catch (cause) {
    toast({
      title: "The session was created, but its documents were not attached",
      description: `${isApiError(cause) ? cause.message : "The documents could not be attached."} Attach them with the Documents button in the session's header.`,
      variant: "error",
      durationMs: 10_000,
    });
  }
}

export function NewSessionDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const modelsQuery = useModels();
  const rolesQuery = useAgentRoles();
  const models = useMemo(() => modelsById(modelsQuery.data), [modelsQuery.data]);
  const roles = useMemo(
    () => new Map((rolesQuery.data ?? []).map((role) => [role.id, role])),
    [rolesQuery.data],
  );
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const [coordinator, setCoordinator] = useState(DEFAULT_COORDINATOR_MODEL);
  const [manual, setManual] = useState(false);
  const [choices, setChoices] = useState<Record<TAgentRole, RoleChoice>>(() => ({
    strategist: { enabled: true, model: "", instructions: "" },
    coder: { enabled: true, model: "", instructions: "" },
    designer: { enabled: true, model: "", instructions: "" },
    critic: { enabled: true, model: "", instructions: "" },
  }));
  const [budget, setBudget] = useState("");
  const [policy, setPolicy] = useState<TToolPolicy>(DEFAULT_TOOL_POLICY);
  /** Each role's tools; a role left out keeps the defaults (decision 066). */
  const [roleTools, setRoleTools] = useState<RoleToolChoices>({});
  const [documentIds, setDocumentIds] = useState<string[]>([]);
  const [reviewPlan, setReviewPlan] = useState(false);
  const {
    pending: busy,
    error,
    setError,
    run,
  } = usePendingAction(apiMessage("The session could not be created. Please try again."));
  const ids = useId();
  const { workspace } = useCurrentWorkspace();

  const coordinators = coordinatorModels(modelsQuery.data ?? []);

  /** A template's setup fills the form; the title and description stay the user's. */
  const applyTemplate = (setup: TTemplateSetup) => {
    setCoordinator(setup.coordinator_model);
    setManual(setup.manual_agent_selection);
    setChoices((all) => {
      const next = { ...all };
      for (const role of AGENT_ROLES) {
        const saved = setup.agent_preferences?.[role];
        next[role] = {
          enabled: setup.manual_agent_selection ? (saved?.enabled ?? false) : true,
          model: saved?.model ?? "",
          instructions: saved?.instructions ?? "",
        };
      }
      return next;
    });
    setBudget(setup.budget_credits === null ? "" : String(setup.budget_credits));
    setDocumentIds(setup.document_ids);
    setPolicy(setup.tools?.policy ?? DEFAULT_TOOL_POLICY);
    setRoleTools(setup.tools?.roles ?? {});
    // A template that says so turns plan review on; one saved before it existed leaves it off.
    setReviewPlan(setup.review_plan ?? false);
  };
  const coordinatorModel = models.get(coordinator);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const trimmed = title.trim();
    if (!trimmed) {
      setError("Give the session a title.");
      return;
    }
    if (manual && !AGENT_ROLES.some((role) => role !== "critic" && choices[role].enabled)) {
      setError("Choose the Strategist, the Coder or the Designer (the Critic only reviews).");
      return;
    }
    const budgetCredits = parseSessionBudget(budget);
    if (budgetCredits === "invalid") {
      setError(
        `The budget must be a number of credits between 0.01 and ${formatNumber(SESSION_BUDGET_MAX)}.`,
      );
      return;
    }
    const customised =
      manual ||
      AGENT_ROLES.some((role) => choices[role].model !== "" || choices[role].instructions.trim());
    const preferences: TAgentPreferences | null = customised
      ? Object.fromEntries(
          AGENT_ROLES.map((role) => [
            role,
            {
              enabled: manual ? choices[role].enabled : true,
              model: choices[role].model || null,
              instructions: choices[role].instructions.trim(),
            },
          ]),
        )
      : null;
    void run(async () => {
      const { session } = await createSession({
        title: trimmed,
        description: description.trim(),
        coordinator_model: coordinator,
        manual_agent_selection: manual,
        agent_preferences: preferences,
        budget_credits: budgetCredits,
        review_plan: reviewPlan,
        ...(policy !== DEFAULT_TOOL_POLICY || Object.keys(roleTools).length > 0
          ? { tools: { policy, roles: roleTools } }
          : {}),
      });
      await attachDocuments(queryClient, session.id, documentIds);
      await queryClient.invalidateQueries({ queryKey: chatKeys.sessions });
      onOpenChange(false);
      navigate(`/chat/${session.id}`, { state: { focusComposer: true } });
    });
  };

  return (
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      title="New session"
      description="Give the team a goal. The coordinator plans the work; the agents take it from there."
      wide
      testId="new-session-dialog"
    >
      <DialogForm onSubmit={submit} loose>
        <TemplatePicker onApply={applyTemplate} />
        <Field
          label="Title"
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          maxLength={SESSION_TITLE_MAX}
          required
          autoFocus
          placeholder="e.g. Launch plan for the mobile app"
        />
        <TextAreaField
          id={`${ids}-description`}
          label={
            <>
              Description <span className="font-normal text-ink-500">(optional)</span>
            </>
          }
          text="prose"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          maxLength={SESSION_DESCRIPTION_MAX}
          rows={2}
          placeholder="Context every agent should know: audience, constraints, tone…"
        />

        <div className="rounded-2xl border border-ink-200 bg-ink-50/40 p-3">
          <DocumentPicker
            selected={documentIds}
            onChange={setDocumentIds}
            label="Documents (optional)"
          />
          <p className="mt-1.5 text-xs text-ink-500">
            The coordinator names which of them each sub-task needs; the agents get the matching
            passages and cite them as [1], [2]…
          </p>
        </div>

        <div>
          <label htmlFor={`${ids}-coordinator`} className="block text-sm font-medium text-ink-800">
            Coordinator model
          </label>
          <select
            id={`${ids}-coordinator`}
            value={coordinator}
            onChange={(event) => setCoordinator(event.target.value)}
            className={cn(inputClasses, "mt-1.5")}
            disabled={modelsQuery.isPending}
          >
            {coordinators.length === 0 ? <option value={coordinator}>{coordinator}</option> : null}
            {coordinators.map((model) => (
              <option key={model.id} value={model.id}>
                {optionLabel(model)}
              </option>
            ))}
          </select>
          <div className="mt-1.5 flex flex-wrap items-center gap-2 text-xs text-ink-500">
            {coordinatorModel ? (
              <ModelBadge
                name={coordinatorModel.name}
                provider={coordinatorModel.provider}
                simulated={coordinatorModel.simulated}
                source={coordinatorModel.source}
              />
            ) : null}
            Plans the work and writes the final answer.
          </div>
        </div>

        <fieldset>
          <legend className="text-sm font-medium text-ink-800">Agents</legend>
          <div
            className="mt-1.5 grid gap-2 sm:grid-cols-2"
            role="radiogroup"
            aria-label="How agents are chosen"
          >
            {[
              {
                value: false,
                label: "Automatic",
                text: "The coordinator picks the roles each task needs.",
              },
              { value: true, label: "Manual", text: "You pick which roles work on every task." },
            ].map((option) => (
              <label
                key={option.label}
                className={cn(
                  "flex cursor-pointer items-start gap-3 rounded-2xl border p-3 transition-colors",
                  manual === option.value
                    ? "border-brand-400 bg-brand-50 ring-1 ring-brand-400"
                    : "border-ink-200 bg-white hover:border-ink-300",
                )}
              >
                <input
                  type="radio"
                  name={`${ids}-mode`}
                  checked={manual === option.value}
                  onChange={() => setManual(option.value)}
                  className="mt-0.5 size-4 accent-brand-600"
                />
                <span>
                  <span className="block text-sm font-semibold text-ink-950">{option.label}</span>
                  <span className="block text-xs leading-5 text-ink-600">{option.text}</span>
                </span>
              </label>
            ))}
          </div>
          <p className="mt-3 text-xs text-ink-500">
            {manual
              ? "Switch roles on or off, choose each one's model and give it instructions."
              : "Optionally choose the model each role uses and give it instructions."}
          </p>
          <ul className="mt-2 grid gap-2" aria-label="Agent roles">
            {AGENT_ROLES.map((role) => (
              <RoleRow
                key={role}
                role={role}
                info={roles.get(role)}
                choice={choices[role]}
                manual={manual}
                models={models}
                onChange={(choice) => setChoices((all) => ({ ...all, [role]: choice }))}
              />
            ))}
          </ul>
        </fieldset>

        <ReviewPlanField checked={reviewPlan} onChange={setReviewPlan} />

        <SessionBudgetField
          label="Credit budget (optional)"
          value={budget}
          onChange={setBudget}
          hint="A cap on what this session's runs may spend. A run that would pass it stops cleanly."
        />

        <ApprovalPolicyField value={policy} onChange={setPolicy} />
        <RoleToolsField
          value={roleTools}
          onChange={setRoleTools}
          workspaceId={workspace?.id}
          roles={manual ? AGENT_ROLES.filter((role) => choices[role].enabled) : AGENT_ROLES}
        />

        <FormMessage>{error}</FormMessage>
        <div className="sticky bottom-0 -mx-5 -mb-5 flex flex-col-reverse gap-2 border-t border-ink-100 bg-white px-5 py-4 sm:-mx-6 sm:flex-row sm:justify-end sm:px-6">
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? "Creating…" : "Create session"}
          </Button>
        </div>
      </DialogForm>
    </DialogFrame>
  );
}
