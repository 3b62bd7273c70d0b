import { useMemo } from "react";
import { Link, useParams } from "react-router";
import { Button, ButtonLink } from "../../components/button";
import { Container } from "../../components/container";
import { LogoMark } from "../../components/logo";
import { RemoteImagesContext } from "../../components/markdown/markdown";
import { PageSpinner } from "../../components/spinner";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { formatRunCredits } from "../../lib/format/runs";
import { ArtifactsPanelButton, ArtifactsProvider } from "../artifacts/artifacts-provider";
import { UserMessage } from "../chat/run-card";
import { timelineOf } from "../chat/run-state";
import { SharedRunCard } from "./shared-run-card";
import { useSharedView } from "./use-shared-view";

function Banner({ live }: { live: boolean }) {
  return (
    <div
      className="border-b border-ink-200 bg-white/95 px-4 py-2.5 backdrop-blur sm:px-6"
      data-testid="share-banner"
    >
      <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-2">
        <Link to="/" className="flex items-center gap-2 text-sm font-semibold text-ink-900">
          <LogoMark className="size-6" />
          Shared read-only from Cohort
        </Link>
        {live ? (
          <span
            className="inline-flex items-center gap-1.5 rounded-full bg-red-50 px-2.5 py-0.5 text-xs font-semibold text-red-700 ring-1 ring-red-200 ring-inset"
            data-testid="share-live"
          >
            <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-red-600" />
            Live
          </span>
        ) : null}
      </div>
    </div>
  );
}

function NotFound() {
  return (
    <Container size="prose" className="py-20" data-testid="share-not-found">
      <p className="text-sm font-semibold tracking-wide text-brand-700">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-ink-950">
        This link does not work
      </h1>
      <p className="mt-4 text-ink-600">
        The share link may have been revoked or may have expired, or it is mistyped. Ask whoever
        sent it for a new one.
      </p>
      <div className="mt-8">
        <ButtonLink to="/">Go to Cohort</ButtonLink>
      </div>
    </Container>
  );
}

/**
 * /share/:token — a shared session or run for anyone with the link: no app shell, no
 * sign-in, no socket; a live link streams its runs in over server-sent events. Not indexed
 * (the server also says so in its headers).
 */
export function SharedSessionPage() {
  const { token = "" } = useParams();
  const { load, state, retry } = useSharedView(token);
  const timeline = useMemo(() => timelineOf(state), [state]);
  const view = load.status === "ready" ? load.view : null;
  useDocumentMeta({
    title: view ? `${view.session.title} · Shared` : "Shared from Cohort",
    noindex: true,
  });

  if (load.status === "loading") return <PageSpinner label="Loading the shared page…" />;
  if (load.status === "missing") return <NotFound />;
  if (load.status === "error") {
    return (
      <Container size="prose" className="py-20">
        <p role="alert" className="text-ink-800">
          {load.message}
        </p>
        <Button className="mt-4" onClick={retry}>
          Try again
        </Button>
      </Container>
    );
  }
  const { share, session } = load.view;
  const askedBy = new Map(load.view.runs.map((run) => [run.id, run.asked_by]));
  return (
    // Images from other hosts show as links here: a stranger's visit tells them nothing (051).
    <RemoteImagesContext.Provider value="link">
      <div className="min-h-dvh bg-ink-50" data-testid="shared-page">
        <Banner live={share.live} />
        <div className="mx-auto w-full max-w-5xl px-3 py-6 sm:px-6">
          <header className="mb-6">
            <h1 className="text-2xl font-bold tracking-tight text-ink-950">{session.title}</h1>
            <p className="mt-1 flex flex-wrap gap-x-3 text-sm text-ink-500">
              <span>{share.kind === "run" ? "One run of a session" : "A Cohort session"}</span>
              {session.created_by ? <span>by {session.created_by}</span> : null}
              {session.spent_credits !== null ? (
                <span data-testid="shared-spent">
                  Spent {formatRunCredits(session.spent_credits)}
                </span>
              ) : null}
            </p>
            {session.description ? (
              <p className="mt-2 text-sm text-ink-600">{session.description}</p>
            ) : null}
          </header>
          <ArtifactsProvider state={state}>
            <div className="sr-only" aria-live="polite">
              {share.live ? "New runs appear here as they happen." : ""}
            </div>
            <div className="mb-3 flex justify-end empty:hidden">
              <ArtifactsPanelButton />
            </div>
            {timeline.length === 0 ? (
              <p className="rounded-3xl border border-dashed border-ink-300 bg-white/60 px-6 py-10 text-center text-sm text-ink-600">
                {share.live ? "Nothing yet: runs show up here as they start." : "Nothing here yet."}
              </p>
            ) : (
              <ol className="grid grid-cols-1 gap-6" aria-label="Conversation">
                {timeline.map((entry) => (
                  <li key={entry.run?.id ?? entry.message?.id} className="grid grid-cols-1 gap-3">
                    {entry.message?.role === "user" ? (
                      <UserMessage message={entry.message} />
                    ) : null}
                    {entry.message?.role === "assistant" && !entry.run ? (
                      <div className="rounded-2xl border border-ink-200 bg-white p-4 text-sm whitespace-pre-wrap">
                        {entry.message.content}
                      </div>
                    ) : null}
                    {entry.run ? (
                      <SharedRunCard
                        run={entry.run}
                        showCosts={share.show_costs}
                        askedBy={askedBy.get(entry.run.id) ?? null}
                      />
                    ) : null}
                  </li>
                ))}
              </ol>
            )}
          </ArtifactsProvider>
          <footer className="mt-10 pb-4 text-center text-xs text-ink-500">
            <Link
              to="/"
              className="hover:text-ink-800 hover:underline"
              data-testid="share-made-with"
            >
              Made with Cohort — try it
            </Link>
          </footer>
        </div>
      </div>
    </RemoteImagesContext.Provider>
  );
}
