import { useEffect, useMemo, useState } from "react";
import { useLocation, useParams, useSearchParams } from "react-router";
import { Button } from "../../components/button";
import { ListDrawer } from "../../components/list-drawer";
import { ROLE_COPY } from "../../content/agent-roles";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { ReadOnlyNote } from "../workspaces/read-only-note";
import { useReadOnlyReason } from "../workspaces/use-read-only-reason";
import { modelsById, useModels } from "./chat-api";
import { Conversation } from "./conversation";
import { NewSessionDialog } from "./new-session-dialog";
import { RoleAvatar } from "./run-parts";
import { SessionList } from "./session-list";
import { StartFromMessage } from "./start-from-message";

function SessionsDrawer({ currentId, onNew }: { currentId: string; onNew(): void }) {
  const { pathname } = useLocation();
  return (
    <ListDrawer title="Sessions" buttonText="Sessions" closeKey={pathname}>
      {(close) => (
        <SessionList
          currentId={currentId}
          onNew={() => {
            close();
            onNew();
          }}
          onNavigate={close}
          className="h-full"
        />
      )}
    </ListDrawer>
  );
}

function Welcome({ onNew }: { onNew(): void }) {
  const readOnly = useReadOnlyReason();
  return (
    <div className="mx-auto flex max-w-2xl flex-col items-center px-6 py-14 text-center lg:py-24">
      <div className="flex -space-x-2" aria-hidden="true">
        {ROLE_COPY.map((role) => (
          <RoleAvatar
            key={role.role}
            role={role.role}
            className="size-11 text-base ring-4 ring-ink-50"
          />
        ))}
      </div>
      <h1 className="mt-6 text-2xl font-bold tracking-tight text-ink-950 sm:text-3xl">
        Cohort Chat
      </h1>
      <p className="mt-3 text-sm leading-6 text-ink-600 sm:text-base">
        Give the team a task and watch a coordinator plan the work while the Strategist, Coder,
        Designer and Critic each work on it live, on their own models.
      </p>
      <div className="mt-6 w-full text-left">
        <StartFromMessage blockedReason={readOnly} />
      </div>
      <p className="mt-4 text-xs text-ink-500">
        Typing a task starts a session titled from it; rename it any time. To choose the models,
        instructions, budget or documents first:
      </p>
      <Button
        size="lg"
        variant="outline"
        className="mt-3"
        onClick={onNew}
        disabled={readOnly !== null}
        aria-describedby={readOnly ? "welcome-read-only" : undefined}
      >
        Start a new session
      </Button>
      <div className="mt-2">
        <ReadOnlyNote id="welcome-read-only" reason={readOnly} />
      </div>
      <p className="mt-3 text-xs text-ink-500">Or pick one of your sessions from the list.</p>
    </div>
  );
}

/** /chat/:sessionId? — the session list beside the conversation (a drawer on phones). */
export function ChatPage() {
  const { sessionId } = useParams();
  const [search, setSearch] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const modelsQuery = useModels();
  const models = useMemo(() => modelsById(modelsQuery.data), [modelsQuery.data]);
  useDocumentMeta({ title: "Cohort Chat" });

  // /chat?new=1 (the dashboard's "New session") opens the dialog once.
  useEffect(() => {
    if (search.get("new") === null) return;
    setCreating(true);
    const next = new URLSearchParams(search);
    next.delete("new");
    setSearch(next, { replace: true });
  }, [search, setSearch]);

  const openNew = () => setCreating(true);

  return (
    <div className="lg:grid lg:grid-cols-[17rem_minmax(0,1fr)]">
      <aside
        aria-label="Your sessions"
        className="sticky top-0 hidden h-dvh border-r border-ink-200 bg-white lg:flex lg:flex-col"
      >
        <SessionList currentId={sessionId} onNew={openNew} className="h-full" />
      </aside>
      <div className="min-w-0">
        {sessionId ? (
          <Conversation
            key={sessionId}
            sessionId={sessionId}
            models={models}
            leading={<SessionsDrawer currentId={sessionId} onNew={openNew} />}
          />
        ) : (
          <>
            <Welcome onNew={openNew} />
            <div className="mx-auto max-w-xl px-3 pb-10 lg:hidden">
              <div className="rounded-2xl border border-ink-200 bg-white">
                <SessionList currentId={undefined} onNew={openNew} />
              </div>
            </div>
          </>
        )}
      </div>
      {creating ? <NewSessionDialog open onOpenChange={setCreating} /> : null}
    </div>
  );
}
