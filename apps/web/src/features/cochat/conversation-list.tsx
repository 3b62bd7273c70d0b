import { COCHAT_TITLE_MAX, type TCochatConversation } from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "../../components/button";
import { cn } from "../../components/cn";
import { ConfirmButtons } from "../../components/confirm-buttons";
import { Spinner } from "../../components/spinner";
import { toast } from "../../components/toast/toast-store";
import { useConfirmedAction } from "../../components/use-confirmed-action";
import { isApiError } from "../../lib/api/api-error";
import { formatWhen } from "../../lib/format/dates";
import { formatCount } from "../../lib/format/numbers";
import { apiMessage } from "../../lib/ui/use-pending-action";
import {
  cochatKeys,
  deleteConversation,
  renameConversation,
  useCochatConversations,
} from "./cochat-api";

function ConversationRow({
  conversation,
  current,
  onSelect,
  onDeleted,
}: {
  conversation: TCochatConversation;
  current: boolean;
  onSelect(id: string): void;
  onDeleted(id: string): void;
}) {
  const queryClient = useQueryClient();
  const deletion = useConfirmedAction(apiMessage("Could not delete the conversation."));

  const remove = async () => {
    await deletion.run(async () => {
      await deleteConversation(conversation.id);
      onDeleted(conversation.id);
      toast({ title: "Conversation deleted", variant: "success" });
    });
    await queryClient.invalidateQueries({ queryKey: cochatKeys.conversations });
  };

  const [renaming, setRenaming] = useState(false);
  if (renaming) {
    return (
      <li className="rounded-xl bg-brand-50 ring-1 ring-brand-200 ring-inset">
        <RenameForm conversation={conversation} onDone={() => setRenaming(false)} />
      </li>
    );
  }

  return (
    <li
      className={cn(
        "group relative rounded-xl transition-colors",
        current ? "bg-brand-50 ring-1 ring-brand-200 ring-inset" : "hover:bg-ink-100",
      )}
    >
      <button
        type="button"
        onClick={() => onSelect(conversation.id)}
        aria-current={current ? "page" : undefined}
        className="block w-full rounded-xl py-2.5 pr-18 pl-3 text-left focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <span
          className={cn(
            "block truncate text-sm font-semibold",
            current ? "text-brand-900" : "text-ink-900",
          )}
        >
          {conversation.title}
        </span>
        <span className="mt-0.5 block text-xs text-ink-600">
          {formatWhen(conversation.updated_at)} ·{" "}
          {formatCount(conversation.message_count, "message")}
        </span>
      </button>
      {deletion.confirming ? (
        <div className="flex items-center gap-2 px-3 pb-2.5">
          <span className="text-xs font-medium text-ink-700">Delete?</span>
          <ConfirmButtons
            small
            action="Delete"
            pendingAction="Deleting…"
            pending={deletion.pending}
            onConfirm={remove}
            onCancel={deletion.cancel}
          />
        </div>
      ) : (
        <>
          <RowIconButton
            label={`Rename conversation: ${conversation.title}`}
            onClick={() => setRenaming(true)}
            className="right-9 hover:text-ink-900"
            path="M10.5 3.5l2 2L6 12H4v-2l6.5-6.5z"
          />
          <RowIconButton
            label={`Delete conversation: ${conversation.title}`}
            onClick={deletion.ask}
            className="right-2 hover:text-red-700"
            path="M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.6 8.1a1 1 0 001 .9h3.8a1 1 0 001-.9l.6-8.1"
          />
        </>
      )}
    </li>
  );
}

/** Renames a conversation in place (decision 068): Enter saves, Escape cancels. */
function RenameForm({
  conversation,
  onDone,
}: {
  conversation: TCochatConversation;
  onDone(): void;
}) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(conversation.title);
  const [saving, setSaving] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  useEffect(() => input.current?.select(), []);
  const save = async () => {
    const next = title.trim();
    if (!next || next === conversation.title) return onDone();
    setSaving(true);
    try {
      await renameConversation(conversation.id, next);
      await queryClient.invalidateQueries({ queryKey: cochatKeys.conversations });
      toast({ title: "Conversation renamed", variant: "success" });
      onDone();
    } catch (error) {
      toast({
        title: isApiError(error) ? error.message : "Could not rename the conversation.",
        variant: "error",
      });
      setSaving(false);
    }
  };
  return (
    <form
      className="flex flex-col gap-2 p-2"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label htmlFor={id} className="text-xs font-semibold text-ink-700">
        New name
      </label>
      <input
        id={id}
        ref={input}
        value={title}
        maxLength={COCHAT_TITLE_MAX}
        onChange={(event) => setTitle(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            event.preventDefault();
            onDone();
          }
        }}
        className="w-full rounded-lg border border-ink-300 px-2 py-1 text-sm text-ink-950 focus:outline-2 focus:outline-brand-600"
      />
      <div className="flex justify-end gap-2">
        <Button size="sm" variant="ghost" className="h-7 px-2 text-xs" onClick={onDone}>
          Cancel
        </Button>
        <Button size="sm" type="submit" className="h-7 px-2 text-xs" disabled={saving}>
          {saving ? "Saving…" : "Save"}
        </Button>
      </div>
    </form>
  );
}

/** The user's CoChat conversations, newest first, with New chat at the top. */
export function ConversationList({
  currentId,
  onSelect,
  onNew,
  onDeleted,
  className,
}: {
  currentId: string | null;
  onSelect(id: string): void;
  onNew(): void;
  onDeleted(id: string): void;
  className?: string;
}) {
  const conversations = useCochatConversations();
  return (
    <div className={cn("flex min-h-0 flex-col", className)}>
      <div className="flex items-center justify-between gap-2 border-b border-ink-200 px-4 py-3">
        <h2 className="text-sm font-semibold text-ink-950">Conversations</h2>
        <Button size="sm" onClick={onNew}>
          <svg viewBox="0 0 16 16" aria-hidden="true" className="size-4" fill="none">
            <path
              d="M8 3v10M3 8h10"
              stroke="currentColor"
              strokeWidth="1.75"
              strokeLinecap="round"
            />
          </svg>
          New chat
        </Button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto p-2">
        {conversations.isPending ? (
          <div className="flex justify-center py-8">
            <Spinner label="Loading conversations…" />
          </div>
        ) : conversations.isError ? (
          <p className="px-2 py-4 text-sm text-red-700">Could not load your conversations.</p>
        ) : conversations.data.length === 0 ? (
          <p className="px-2 py-4 text-sm text-ink-500">
            No conversations yet. Your chats are saved here.
          </p>
        ) : (
          <ul aria-label="Your conversations" className="grid grid-cols-[minmax(0,1fr)] gap-1">
            {conversations.data.map((conversation) => (
              <ConversationRow
                key={conversation.id}
                conversation={conversation}
                current={conversation.id === currentId}
                onSelect={onSelect}
                onDeleted={onDeleted}
              />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

/** An icon button at a row's top right, shown on hover or focus on a wide screen. */
function RowIconButton({
  label,
  onClick,
  className,
  path,
}: {
  label: string;
  onClick(): void;
  /** Where it stands and its hover colour. */
  className: string;
  /** The icon, one stroked path on a 16×16 grid. */
  path: string;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      className={cn(
        "absolute top-2 rounded-md p-1.5 text-ink-400 opacity-100 transition hover:bg-white focus-visible:outline-2 focus-visible:outline-brand-600 lg:opacity-0 lg:group-focus-within:opacity-100 lg:group-hover:opacity-100",
        className,
      )}
    >
      <svg viewBox="0 0 16 16" aria-hidden="true" className="size-4" fill="none">
        <path
          d={path}
          stroke="currentColor"
          strokeWidth="1.4"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}
