import {
  SHARE_EXPIRY_CHOICES,
  type TChatMessage,
  type TRun,
  type TShareLink,
} from "@cohort/contracts";
import { type FormEvent, useCallback, useEffect, useId, useState } from "react";
import { Button } from "../../components/button";
import { CheckboxField } from "../../components/checkbox-field";
import { cn } from "../../components/cn";
import { DialogForm, DialogFrame } from "../../components/dialog-frame";
import { FormMessage, inputClasses, SelectField } from "../../components/form";
import { toast } from "../../components/toast/toast-store";
import { isApiError } from "../../lib/api/api-error";
import { formatShortDate, formatWhen } from "../../lib/format/dates";
import { RevokeShareButton } from "../share/revoke-share-button";
import { createShare, listShares } from "../share/share-api";
import { getSessionDetail } from "./session-detail-api";

const WHOLE_SESSION = "session";

function expiryLabel(days: number | null): string {
  if (days === null) return "Never";
  return days === 1 ? "After 1 day" : `After ${days} days`;
}

/** "Run 2 · Plan the launch…": what a run answered, to pick it in the list. */
function runLabel(run: TRun, index: number, messages: readonly TChatMessage[]): string {
  const asked = messages.find((m) => m.id === run.message_id)?.content.replace(/\s+/g, " ") ?? "";
  const short = asked.length > 60 ? `${asked.slice(0, 59).trimEnd()}…` : asked;
  return `Run ${index + 1}${short ? ` · ${short}` : ""}`;
}

async function copyLink(url: string) {
  try {
    await navigator.clipboard.writeText(url);
    toast({ title: "Link copied", variant: "success" });
  } catch {
    toast({
      title: "Copy the link from the box: the clipboard is not available.",
      variant: "info",
    });
  }
}

function describeLink(link: TShareLink, runs: readonly TRun[]): string {
  const what =
    link.run_id === null
      ? "Whole session"
      : `Run ${runs.findIndex((r) => r.id === link.run_id) + 1 || "?"}`;
  const extras = [
    link.show_costs ? "costs" : null,
    link.show_names ? "names" : null,
    link.live ? "live" : null,
  ].filter(Boolean);
  const views = `${link.view_count} ${link.view_count === 1 ? "view" : "views"}`;
  const ends =
    link.status === "revoked"
      ? "revoked"
      : link.status === "creator_left"
        ? "off: its creator left the workspace"
        : link.status === "expired"
          ? "expired"
          : link.expires_at
            ? `expires ${formatShortDate(link.expires_at)}`
            : "never expires";
  return [what, extras.length > 0 ? `shows ${extras.join(", ")}` : null, views, ends]
    .filter(Boolean)
    .join(" · ");
}

function LinkRow({
  link,
  runs,
  onRevoked,
}: {
  link: TShareLink;
  runs: readonly TRun[];
  onRevoked(link: TShareLink): void;
}) {
  const active = link.status === "active";
  return (
    <li
      className={cn(
        "flex flex-wrap items-center justify-between gap-2 rounded-xl border border-ink-200 px-3 py-2",
        !active && "bg-ink-50 text-ink-500",
      )}
      data-testid="share-link"
      data-status={link.status}
    >
      <div className="min-w-0">
        <p className="truncate font-mono text-xs text-ink-700">{link.url}</p>
        <p className="text-xs text-ink-500">
          {describeLink(link, runs)} · made {formatWhen(link.created_at)}
          {link.created_by ? ` by ${link.created_by}` : ""}
        </p>
      </div>
      {active ? (
        <div className="flex gap-1.5">
          <Button variant="outline" size="sm" onClick={() => void copyLink(link.url)}>
            Copy
          </Button>
          <RevokeShareButton shareId={link.id} onRevoked={onRevoked} />
        </div>
      ) : null}
    </li>
  );
}

/**
 * Share…: a read-only link to the whole session or one run, with an expiry and what it may
 * show (costs, names, the run live); then the link to copy, and every link made so far
 * with its views and a way to revoke it.
 */
export function ShareDialog({
  sessionId,
  open,
  onOpenChange,
}: {
  sessionId: string;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const ids = useId();
  const [runs, setRuns] = useState<TRun[]>([]);
  const [messages, setMessages] = useState<TChatMessage[]>([]);
  const [links, setLinks] = useState<TShareLink[] | null>(null);
  const [what, setWhat] = useState(WHOLE_SESSION);
  const [expiry, setExpiry] = useState("never");
  const [showCosts, setShowCosts] = useState(false);
  const [showNames, setShowNames] = useState(false);
  const [live, setLive] = useState(false);
  const [made, setMade] = useState<TShareLink | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const [detail, list] = await Promise.all([
          getSessionDetail(sessionId, signal),
          listShares(sessionId, signal),
        ]);
        setRuns(detail.runs);
        setMessages(detail.messages);
        setLinks(list.shares);
      } catch (cause) {
        if (signal?.aborted) return;
        setError(isApiError(cause) ? cause.message : "The links could not be loaded.");
        setLinks([]);
      }
    },
    [sessionId],
  );

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { share } = await createShare(sessionId, {
        run_id: what === WHOLE_SESSION ? null : what,
        expires_in_days: expiry === "never" ? null : Number(expiry),
        show_costs: showCosts,
        show_names: showNames,
        live,
      });
      setMade(share);
      setLinks((current) => [share, ...(current ?? [])]);
    } catch (cause) {
      setError(isApiError(cause) ? cause.message : "The link could not be made.");
    } finally {
      setBusy(false);
    }
  };

  const revoked = (link: TShareLink) => {
    setLinks((current) => (current ?? []).map((l) => (l.id === link.id ? link : l)));
    if (made?.id === link.id) setMade(null);
  };

  return (
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      title="Share read-only"
      description="Anyone with the link can read what you share, without signing in. Search engines are asked not to index it."
      wide
      testId="share-dialog"
    >
      <DialogForm onSubmit={submit}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <SelectField
            id={`${ids}-what`}
            label="What to share"
            value={what}
            onChange={(event) => setWhat(event.target.value)}
          >
            <option value={WHOLE_SESSION}>The whole session</option>
            {runs.map((run, index) => (
              <option key={run.id} value={run.id}>
                {runLabel(run, index, messages)}
              </option>
            ))}
          </SelectField>
          <SelectField
            id={`${ids}-expiry`}
            label="Link expires"
            value={expiry}
            onChange={(event) => setExpiry(event.target.value)}
          >
            {SHARE_EXPIRY_CHOICES.map((days) => (
              <option key={days ?? "never"} value={days ?? "never"}>
                {expiryLabel(days)}
              </option>
            ))}
          </SelectField>
        </div>
        <fieldset className="grid grid-cols-1 gap-3">
          <legend className="mb-2 text-sm font-medium text-ink-800">The link also shows</legend>
          <CheckboxField
            label="Show costs"
            hint="Credits spent per step, per run and for the session."
            checked={showCosts}
            onChange={setShowCosts}
          />
          <CheckboxField
            label="Show names"
            hint="Who asked, by display name. Email addresses are never shown."
            checked={showNames}
            onChange={setShowNames}
          />
          <CheckboxField
            label="Live"
            hint="Viewers watch new runs stream in while they happen."
            checked={live}
            onChange={setLive}
          />
        </fieldset>
        <FormMessage>{error}</FormMessage>
        <div className="flex justify-end">
          <Button type="submit" disabled={busy}>
            {busy ? "Creating…" : "Create link"}
          </Button>
        </div>
        {made ? (
          <div
            className="grid grid-cols-1 gap-2 rounded-2xl border border-emerald-200 bg-emerald-50 p-3"
            data-testid="share-created"
          >
            <label htmlFor={`${ids}-link`} className="text-sm font-semibold text-emerald-900">
              Your link is ready
            </label>
            <div className="flex gap-2">
              <input
                id={`${ids}-link`}
                readOnly
                value={made.url}
                onFocus={(event) => event.target.select()}
                className={cn(inputClasses, "font-mono text-xs")}
              />
              <Button onClick={() => void copyLink(made.url)}>Copy link</Button>
            </div>
          </div>
        ) : null}
      </DialogForm>
      <section
        aria-labelledby={`${ids}-links`}
        className="border-t border-ink-100 px-5 py-4 sm:px-6"
      >
        <h3 id={`${ids}-links`} className="text-sm font-semibold text-ink-900">
          Links to this session
        </h3>
        {links === null ? (
          <p className="mt-2 text-sm text-ink-500">Loading…</p>
        ) : links.length === 0 ? (
          <p className="mt-2 text-sm text-ink-500">No links yet.</p>
        ) : (
          <ul className="mt-2 grid grid-cols-1 gap-2">
            {links.map((link) => (
              <LinkRow key={link.id} link={link} runs={runs} onRevoked={revoked} />
            ))}
          </ul>
        )}
      </section>
    </DialogFrame>
  );
}
