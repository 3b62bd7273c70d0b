import { hasCoChatAccess, TIER_LABELS, type TSessionsResponse } from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { useAuth } from "../../auth/use-auth";
import { Button, ButtonLink } from "../../components/button";
import { Card } from "../../components/card";
import { Spinner } from "../../components/spinner";
import { api } from "../../lib/api/api";
import { fetchUsageStats, ZERO_USAGE_STATS } from "../../lib/api/usage-stats";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { formatDate, formatDayTime } from "../../lib/format/dates";
import {
  formatCreditAmount,
  formatCredits,
  formatInteger,
  formatUsd,
} from "../../lib/format/numbers";
import { SessionStatusBadge, shownStatusAt, useMinuteClock } from "../chat/session-list";
import { ImportSessionButton } from "../export/import-session-button";
import { displayNameOf } from "../shell/display-name";
import { ReadOnlyNote } from "../workspaces/read-only-note";
import { useReadOnlyReason } from "../workspaces/use-read-only-reason";
import { workspaceScope } from "../workspaces/workspace-store";
import { VerifyEmailBanner } from "./verify-email-banner";

const RECENT_SESSIONS = 5;

const START_LINKS = [
  { to: "/cochat", title: "CoChat", text: "A conversation with a single model." },
  { to: "/billing", title: "Billing", text: "Your plan, credit packages and usage." },
  { to: "/settings", title: "Settings", text: "Your profile and where you are signed in." },
] as const;

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <dt className="text-xs font-medium tracking-wide text-ink-500 uppercase">{label}</dt>
      <dd className="mt-1 text-lg font-semibold text-ink-950" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-xl bg-ink-50 px-3 py-2.5 ring-1 ring-ink-100 ring-inset">
      <dt className="text-xs text-ink-500">{label}</dt>
      <dd className="mt-0.5 text-xl font-bold text-ink-950 tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function RecentSessions() {
  const { data, isPending, isError } = useQuery({
    queryKey: ["sessions", "recent"],
    queryFn: ({ signal }) =>
      api.get<TSessionsResponse>("/sessions", {
        query: { page: 1, pageSize: RECENT_SESSIONS, ...workspaceScope() },
        signal,
      }),
    staleTime: 10_000,
  });
  const sessions = data?.sessions ?? [];
  const now = useMinuteClock();
  return (
    <Card
      role="region"
      className="flex flex-col p-5 sm:p-6 lg:col-span-2"
      aria-labelledby="recent-title"
    >
      <div className="flex items-center justify-between gap-3">
        <h2 id="recent-title" className="text-sm font-semibold text-ink-900">
          Recent sessions
        </h2>
        {sessions.length > 0 ? (
          <Link to="/chat" className="text-sm font-semibold text-brand-700 hover:underline">
            All sessions
          </Link>
        ) : null}
      </div>
      {isPending ? (
        <div className="flex flex-1 items-center justify-center py-8">
          <Spinner label="Loading recent sessions" />
        </div>
      ) : isError ? (
        <p className="mt-4 text-sm text-ink-600">Your sessions could not be loaded just now.</p>
      ) : sessions.length === 0 ? (
        <div className="mt-4 flex flex-1 flex-col items-start justify-center gap-3 rounded-xl border border-dashed border-ink-300 p-5">
          <p className="text-sm text-ink-600">
            No sessions yet. Give the team a task: the coordinator plans it, the Strategist, Coder,
            Designer and Critic work on it live.
          </p>
          <ButtonLink to="/chat?new=1" size="sm">
            Start your first session
          </ButtonLink>
        </div>
      ) : (
        <ul className="mt-3 divide-y divide-ink-100" data-testid="recent-sessions">
          {sessions.map((session) => (
            <li key={session.id}>
              <Link
                to={`/chat/${session.id}`}
                className="-mx-2 flex items-center justify-between gap-3 rounded-lg px-2 py-2.5 hover:bg-ink-50"
              >
                <span className="min-w-0">
                  <span className="block truncate text-sm font-semibold text-ink-900">
                    {session.title}
                  </span>
                  <span className="block truncate text-xs text-ink-500">
                    {formatDayTime(session.last_activity_at)}
                    {session.spent_credits > 0 ? ` · ${formatCredits(session.spent_credits)}` : ""}
                  </span>
                </span>
                <SessionStatusBadge status={shownStatusAt(session, now)} className="shrink-0" />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function UsageAtAGlance() {
  const { data } = useQuery({
    queryKey: ["billing", "usage-stats"],
    queryFn: ({ signal }) => fetchUsageStats(signal),
    staleTime: 30_000,
  });
  const stats = data ?? ZERO_USAGE_STATS;
  return (
    <Card role="region" className="p-5 sm:p-6" aria-labelledby="usage-title">
      <div className="flex items-center justify-between gap-3">
        <h2 id="usage-title" className="text-sm font-semibold text-ink-900">
          Usage at a glance
        </h2>
        <Link to="/billing" className="text-sm font-semibold text-brand-700 hover:underline">
          Details
        </Link>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-3">
        <Stat
          label="Requests"
          value={formatInteger(stats.total_requests)}
          testId="usage-requests"
        />
        <Stat label="Tokens" value={formatInteger(stats.total_tokens)} testId="usage-tokens" />
        <Stat
          label="Credits used"
          value={formatCreditAmount(stats.total_credits_used)}
          testId="usage-credits"
        />
        <Stat label="Provider cost" value={formatUsd(stats.total_cost)} testId="usage-cost" />
      </dl>
    </Card>
  );
}

const plus = (
  <svg viewBox="0 0 16 16" aria-hidden="true" className="size-4" fill="none">
    <path d="M8 3v10M3 8h10" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
  </svg>
);

/** "New session", disabled with its reason for a viewer of the workspace in view. */
function NewSessionAction() {
  const readOnly = useReadOnlyReason();
  if (readOnly === null) {
    return (
      <ButtonLink to="/chat?new=1" size="lg">
        {plus}
        New session
      </ButtonLink>
    );
  }
  return (
    <div className="grid max-w-64 justify-items-end gap-1">
      <Button size="lg" disabled aria-describedby="new-session-read-only">
        {plus}
        New session
      </Button>
      <ReadOnlyNote id="new-session-read-only" reason={readOnly} />
    </div>
  );
}

/** The signed-in home: recent sessions, usage, account facts and a quick start. */
export function DashboardPage() {
  useDocumentMeta({ title: "Dashboard" });
  const { user } = useAuth();
  if (!user) return null;
  const memberSince = formatDate(user.created_at);

  return (
    <div className="mx-auto grid max-w-6xl gap-6 px-4 py-8 sm:px-6 lg:px-10 lg:py-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-ink-950 sm:text-3xl">
            Welcome, {displayNameOf(user)}
          </h1>
          <p className="mt-1 text-sm text-ink-600">Your sessions, usage and account at a glance.</p>
        </div>
        <div className="flex flex-wrap items-start gap-2">
          <ImportSessionButton />
          <NewSessionAction />
        </div>
      </div>

      {user.emailVerified ? null : <VerifyEmailBanner user={user} />}

      <div className="grid gap-6 lg:grid-cols-3">
        <RecentSessions />
        <UsageAtAGlance />
      </div>

      <Card className="p-5 sm:p-6">
        <h2 className="text-sm font-semibold text-ink-900">Your account</h2>
        <dl className="mt-4 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          <Fact label="Plan" value={TIER_LABELS[user.subscription_tier]} testId="fact-tier" />
          <Fact
            label="Credits"
            value={formatCreditAmount(user.credits_remaining)}
            testId="fact-credits"
          />
          <Fact
            label="CoChat"
            value={hasCoChatAccess(user.subscription_tier) ? "Unlimited" : "Locked"}
          />
          <Fact label="Member since" value={memberSince} />
        </dl>
      </Card>

      <section aria-labelledby="start-title">
        <h2 id="start-title" className="text-sm font-semibold text-ink-900">
          More to explore
        </h2>
        <ul className="mt-3 grid gap-3 sm:grid-cols-3">
          {START_LINKS.map((link) => (
            <li key={link.to}>
              <Link
                to={link.to}
                className="block h-full rounded-xl border border-ink-200 bg-white p-4 transition-colors hover:border-brand-300 hover:bg-brand-50"
              >
                <span className="font-semibold text-brand-700">{link.title}</span>
                <span className="mt-1 block text-sm text-ink-600">{link.text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
