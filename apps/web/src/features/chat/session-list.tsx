import {
  SESSION_IDLE_AFTER_MS,
  SESSION_STATUS_LABELS,
  shownSessionStatus,
  type TSession,
  type TShownSessionStatus,
} from "@cohort/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { Link } from "react-router";
import { Button } from "../../components/button";
import { cn } from "../../components/cn";
import { inputClasses } from "../../components/form";
import { Spinner } from "../../components/spinner";
import { formatWhen } from "../../lib/format/dates";
import { useDebounced } from "../../lib/ui/use-debounced";
import { ReadOnlyNote } from "../workspaces/read-only-note";
import { useReadOnlyReason } from "../workspaces/use-read-only-reason";
import { chatKeys, listSessions } from "./chat-api";

const SEARCH_DEBOUNCE_MS = 250;

/** A session's badge: the user's own status when not active, else what it is doing. */
export { SESSION_STATUS_LABELS };

const SESSION_STATUS_HINTS: Record<TShownSessionStatus, string> = {
  active: "A run is working, or the session was used in the last 30 minutes",
  idle: "Nothing has happened here for 30 minutes",
  paused: "Paused: resume it to send a message",
  completed: "Its last run is complete",
  archived: "Archived: restore it to send a message",
};

/**
 * What the badge says now: as the server derived it (decision 032), `active` while a run
 * is known to work, and `idle` once 30 minutes pass with the page open.
 */
export function shownStatusAt(
  session: Pick<TSession, "status" | "activity" | "last_activity_at">,
  now: number,
  runActive = false,
): TShownSessionStatus {
  if (session.status !== "active") return session.status;
  if (runActive) return "active";
  const rested = now - Date.parse(session.last_activity_at) >= SESSION_IDLE_AFTER_MS;
  return session.activity === "active" && rested ? "idle" : shownSessionStatus(session);
}

/** A clock that ticks once a minute: enough for a status that changes after 30. */
export function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function SessionStatusBadge({
  status,
  className,
}: {
  status: TShownSessionStatus;
  className?: string;
}) {
  const tone = {
    active: "bg-emerald-50 text-emerald-800 ring-emerald-200",
    idle: "bg-ink-50 text-ink-600 ring-ink-200",
    paused: "bg-amber-50 text-amber-900 ring-amber-200",
    completed: "bg-sky-50 text-sky-800 ring-sky-200",
    archived: "bg-ink-100 text-ink-700 ring-ink-200",
  }[status];
  return (
    <span
      data-testid="session-status"
      data-status={status}
      title={SESSION_STATUS_HINTS[status]}
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-[11px] font-semibold ring-1 ring-inset",
        tone,
        className,
      )}
    >
      {status === "active" ? (
        <span aria-hidden="true" className="size-1.5 rounded-full bg-emerald-500" />
      ) : null}
      {SESSION_STATUS_LABELS[status]}
    </span>
  );
}

function SessionRow({
  session,
  current,
  now,
  onNavigate,
}: {
  session: TSession;
  current: boolean;
  now: number;
  onNavigate?: () => void;
}) {
  return (
    <li>
      <Link
        to={`/chat/${session.id}`}
        onClick={onNavigate}
        aria-current={current ? "page" : undefined}
        className={cn(
          "block rounded-xl px-3 py-2.5 transition-colors",
          current ? "bg-brand-50 ring-1 ring-brand-200 ring-inset" : "hover:bg-ink-100",
        )}
      >
        <span className="flex items-start justify-between gap-2">
          <span
            className={cn(
              "min-w-0 truncate text-sm font-semibold",
              current ? "text-brand-900" : "text-ink-900",
            )}
          >
            {session.title}
          </span>
          <SessionStatusBadge status={shownStatusAt(session, now)} className="shrink-0" />
        </span>
        <span className="mt-0.5 flex items-center justify-between gap-2 text-xs text-ink-500">
          <span className="min-w-0 truncate">{session.description}</span>
          <span className="shrink-0 tabular-nums">{formatWhen(session.last_activity_at)}</span>
        </span>
      </Link>
    </li>
  );
}

/** The user's sessions, newest first, with title search and the New session action. */
export function SessionList({
  currentId,
  onNew,
  onNavigate,
  className,
}: {
  currentId: string | undefined;
  onNew(): void;
  onNavigate?: () => void;
  className?: string;
}) {
  const searchId = useId();
  const readOnly = useReadOnlyReason();
  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const { data, isPending, isError, refetch, isFetching } = useQuery({
    queryKey: chatKeys.sessionList(q),
    queryFn: ({ signal }) => listSessions(q, signal),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const sessions = data?.sessions ?? [];
  const now = useMinuteClock();

  return (
    <nav
      aria-label="Sessions"
      className={cn("flex min-h-0 flex-col", className)}
      data-testid="session-list"
    >
      <div className="grid grid-cols-1 gap-3 p-4 pb-3">
        <div className="flex items-center justify-between gap-2">
          <h2 className="text-sm font-semibold text-ink-950">Sessions</h2>
          {isFetching && !isPending ? <Spinner size="sm" label="Updating sessions" /> : null}
        </div>
        <Button
          onClick={onNew}
          className="w-full"
          disabled={readOnly !== null}
          aria-describedby={readOnly ? `${searchId}-read-only` : undefined}
        >
          <svg viewBox="0 0 16 16" aria-hidden="true" className="size-4" fill="none">
            <path d="M8 3v10M3 8h10" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
          New session
        </Button>
        <ReadOnlyNote id={`${searchId}-read-only`} reason={readOnly} />
        <div className="relative">
          <label htmlFor={searchId} className="sr-only">
            Search sessions by title
          </label>
          <svg
            viewBox="0 0 16 16"
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-400"
            fill="none"
          >
            <circle cx="7" cy="7" r="4.5" stroke="currentColor" strokeWidth="1.5" />
            <path
              d="M10.5 10.5L14 14"
              stroke="currentColor"
              strokeWidth="1.5"
              strokeLinecap="round"
            />
          </svg>
          <input
            id={searchId}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search sessions"
            className={cn(inputClasses, "py-2 pl-9")}
          />
        </div>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-4">
        {isPending ? (
          <div className="flex justify-center py-8">
            <Spinner label="Loading sessions" />
          </div>
        ) : isError ? (
          <div className="px-3 py-6 text-center text-sm text-ink-600">
            <p>The sessions could not be loaded.</p>
            <Button variant="outline" size="sm" className="mt-2" onClick={() => refetch()}>
              Try again
            </Button>
          </div>
        ) : sessions.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-ink-500">
            {q
              ? `No session titled like “${q}”.`
              : "No sessions yet. Start one to put the team to work."}
          </p>
        ) : (
          <ul
            className="grid grid-cols-1 gap-0.5"
            aria-label={q ? `Sessions matching ${q}` : "Recent sessions"}
          >
            {sessions.map((session) => (
              <SessionRow
                key={session.id}
                session={session}
                current={session.id === currentId}
                now={now}
                onNavigate={onNavigate}
              />
            ))}
          </ul>
        )}
        {data && data.total > sessions.length ? (
          <p className="px-3 pt-3 text-xs text-ink-500">
            Showing the {sessions.length} newest of {data.total}. Search to find older ones.
          </p>
        ) : null}
      </div>
    </nav>
  );
}
