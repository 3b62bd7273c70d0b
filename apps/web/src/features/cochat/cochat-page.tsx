import {
  COCHAT_DEFAULT_MAX_TOKENS,
  COCHAT_MESSAGES,
  hasCoChatAccess,
  SCROLL_TO_BOTTOM_THRESHOLD_PX,
} from "@cohort/contracts";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useLocation, useSearchParams } from "react-router";
import { useAuth } from "../../auth/use-auth";
import { Badge } from "../../components/badge";
import { ListDrawer } from "../../components/list-drawer";
import { Spinner } from "../../components/spinner";
import { toast } from "../../components/toast/toast-store";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { useCochatModels } from "./cochat-api";
import { CochatComposer } from "./cochat-composer";
import { CochatLocked } from "./cochat-locked";
import { ConversationList } from "./conversation-list";
import { MessageList } from "./message-list";
import { AdvancedSettings, DEFAULT_SETTINGS, ModelPicker } from "./model-settings";
import { type Turn, useCochat } from "./use-cochat";

const CONVERSATION_PARAM = "c";

const STARTERS = [
  "Explain how HTTPS keeps a connection private, in plain words.",
  "Write a Python function that checks whether a string is a palindrome.",
  "Help me plan a relaxed three-day trip to Lisbon.",
] as const;

/** /cochat — single-model chat for pro, pro+ and enterprise (the product overview and the roles). */
export function CochatPage() {
  useDocumentMeta({ title: "CoChat" });
  const { user } = useAuth();
  if (!user) return null;
  if (!hasCoChatAccess(user.subscription_tier)) {
    return <CochatLocked tier={user.subscription_tier} />;
  }
  return <CochatWorkspace />;
}

function announcementFor(turns: readonly Turn[], streaming: boolean): string {
  if (streaming) return "CoChat is answering…";
  const last = turns.at(-1);
  if (last?.role !== "assistant") return "";
  if (last.status === "complete") return "CoChat answered.";
  if (last.status === "stopped") return "The answer was stopped.";
  if (last.status === "failed") return `The answer failed: ${last.error ?? ""}`;
  return "";
}

function ConversationsDrawer(props: {
  currentId: string | null;
  onSelect(id: string): void;
  onNew(): void;
  onDeleted(id: string): void;
}) {
  const { search } = useLocation();
  return (
    <ListDrawer title="Conversations" buttonText="Chats" closeKey={search}>
      {(close) => (
        <ConversationList
          {...props}
          onNew={() => {
            close();
            props.onNew();
          }}
          className="h-full"
        />
      )}
    </ListDrawer>
  );
}

function CochatWorkspace() {
  const [search, setSearch] = useSearchParams();
  const conversationId = search.get(CONVERSATION_PARAM);
  const models = useCochatModels();
  const [model, setModel] = useState<string | null>(null);
  const [settings, setSettings] = useState(DEFAULT_SETTINGS);

  const select = useCallback(
    (id: string | null) => {
      const next = new URLSearchParams(search);
      if (id) next.set(CONVERSATION_PARAM, id);
      else next.delete(CONVERSATION_PARAM);
      setSearch(next);
    },
    [search, setSearch],
  );
  const chat = useCochat(conversationId, select);
  const { turns, streaming } = chat;

  const list = models.data ?? [];
  const chosen = list.find((m) => m.id === model) ?? list[0];
  // A stored conversation continues on its model when CoChat still offers it.
  useEffect(() => {
    if (chat.storedModel && list.some((m) => m.id === chat.storedModel)) {
      setModel(chat.storedModel);
    }
  }, [chat.storedModel, list]);

  // Follow the answer as it grows, unless the reader scrolled up to read something.
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    pinned.current =
      element.scrollHeight - element.scrollTop - element.clientHeight <
      SCROLL_TO_BOTTOM_THRESHOLD_PX;
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls whenever the turns change
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  }, [turns]);

  const send = (text: string) => {
    if (!chosen) return;
    pinned.current = true;
    chat.send(text, { model: chosen.id, ...settings });
  };

  const onDeleted = (id: string) => {
    if (id === conversationId) select(null);
  };

  return (
    <div className="lg:grid lg:grid-cols-[17rem_minmax(0,1fr)]">
      <aside
        aria-label="CoChat conversations"
        className="sticky top-0 hidden h-dvh border-r border-ink-200 bg-white lg:flex lg:flex-col"
      >
        <ConversationList
          currentId={conversationId}
          onSelect={select}
          onNew={() => select(null)}
          onDeleted={onDeleted}
          className="h-full"
        />
      </aside>
      <div className="flex h-[calc(100dvh-3.5rem)] min-w-0 flex-col lg:h-dvh">
        <header className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-ink-200 bg-white px-3 py-2.5 sm:px-5">
          <ConversationsDrawer
            currentId={conversationId}
            onSelect={select}
            onNew={() => select(null)}
            onDeleted={onDeleted}
          />
          <h1 className="flex items-center gap-2 text-lg font-bold tracking-tight text-ink-950">
            CoChat
            <Badge tone="success" className="hidden sm:inline-flex">
              {COCHAT_MESSAGES.unlimited}
            </Badge>
          </h1>
          <div className="flex w-full items-center gap-2 sm:ml-auto sm:w-auto">
            {list.length > 0 && chosen ? (
              <ModelPicker
                models={list}
                value={chosen.id}
                onChange={setModel}
                disabled={streaming}
              />
            ) : models.isError ? (
              <span className="text-sm text-red-700">Could not load CoChat's models.</span>
            ) : (
              <Spinner size="sm" label="Loading models…" />
            )}
            <AdvancedSettings
              settings={settings}
              onChange={setSettings}
              maxTokensLimit={Math.max(chosen?.max_output_tokens ?? 0, COCHAT_DEFAULT_MAX_TOKENS)}
              disabled={streaming}
            />
          </div>
        </header>

        <div ref={scroller} onScroll={onScroll} className="min-h-0 flex-1 overflow-y-auto">
          <div className="mx-auto w-full max-w-3xl px-3 py-6 sm:px-6">
            {chat.loading ? (
              <div className="flex justify-center py-16">
                <Spinner label="Loading the conversation…" />
              </div>
            ) : chat.loadError ? (
              <p className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
                {chat.loadError}
              </p>
            ) : turns.length === 0 ? (
              <div className="flex flex-col items-center py-10 text-center sm:py-16">
                <span
                  aria-hidden="true"
                  className="flex size-12 items-center justify-center rounded-2xl bg-gradient-to-br from-brand-500 to-brand-700 text-base font-bold text-white shadow-md"
                >
                  Co
                </span>
                <h2 className="mt-4 text-xl font-bold text-ink-950">What's on your mind?</h2>
                <p className="mt-2 max-w-md text-sm text-ink-600">
                  Chat with one model at a time. Answers stream in as they are written; Stop ends
                  one early. Your conversations are saved on the left.
                </p>
                <ul className="mt-6 grid w-full max-w-xl gap-2 sm:grid-cols-3">
                  {STARTERS.map((starter) => (
                    <li key={starter}>
                      <button
                        type="button"
                        onClick={() => send(starter)}
                        disabled={!chosen}
                        className="h-full w-full rounded-xl border border-ink-200 bg-white px-3 py-2.5 text-left text-sm text-ink-700 shadow-xs transition-colors hover:border-brand-300 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-60"
                      >
                        {starter}
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            ) : (
              <MessageList
                turns={turns}
                busy={streaming}
                actions={
                  chosen
                    ? {
                        onRegenerate: (index) => {
                          pinned.current = true;
                          chat.regenerate(index, { model: chosen.id, ...settings });
                        },
                        onEdit: (index, text) => {
                          pinned.current = true;
                          chat.edit(index, text, { model: chosen.id, ...settings });
                        },
                        onShowVersion: (id) => {
                          chat
                            .showVersion(id)
                            .catch(() =>
                              toast({ title: "Could not show that version.", variant: "error" }),
                            );
                        },
                      }
                    : undefined
                }
              />
            )}
          </div>
        </div>

        <div className="border-t border-ink-200 bg-ink-50/95 px-3 pt-3 pb-3 sm:px-6">
          <div className="mx-auto max-w-3xl">
            <CochatComposer
              streaming={streaming}
              disabled={!chosen || chat.loading}
              onSend={send}
              onStop={chat.stop}
            />
          </div>
        </div>
        <p role="status" className="sr-only">
          {announcementFor(turns, streaming)}
        </p>
      </div>
    </div>
  );
}
