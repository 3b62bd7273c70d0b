import { SESSION_TITLE_MAX } from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "../../components/toast/toast-store";
import { isApiError } from "../../lib/api/api-error";
import { chatKeys, createSession } from "./chat-api";
import { Composer } from "./composer";

/** How long a title made from a first message may be before it is cut at a word. */
const TITLE_FROM_MESSAGE_MAX = 60;

/**
 * A session's title from its first message: the first line, cut at a word boundary with an
 * ellipsis when long. The user renames it from the session header like any title.
 */
export function titleFromMessage(message: string): string {
  const line = message.trim().split("\n")[0]?.trim().replace(/\s+/g, " ") ?? "";
  const limit = Math.min(TITLE_FROM_MESSAGE_MAX, SESSION_TITLE_MAX);
  if (line.length <= limit) return line || "New session";
  const cut = line.slice(0, limit - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > limit / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, "")}…`;
}

/** The state the conversation finds on arrival: the message to send as the session's first. */
export interface FirstMessageState {
  focusComposer: true;
  firstMessage: string;
}

export function firstMessageOf(state: unknown): string | null {
  if (typeof state !== "object" || state === null || !("firstMessage" in state)) return null;
  const message = (state as { firstMessage: unknown }).firstMessage;
  return typeof message === "string" && message.trim() ? message : null;
}

/**
 * The empty chat's message box (decision 057): typing a task creates a session titled from it,
 * with the default team, and the conversation sends the message as its first. The New session
 * dialog stays for a setup.
 */
export function StartFromMessage({ blockedReason }: { blockedReason: string | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);

  const start = async (text: string): Promise<boolean> => {
    setCreating(true);
    try {
      const { session } = await createSession({ title: titleFromMessage(text) });
      await queryClient.invalidateQueries({ queryKey: chatKeys.sessions });
      const state: FirstMessageState = { focusComposer: true, firstMessage: text };
      navigate(`/chat/${session.id}`, { state });
      return true;
    } catch (cause) {
      toast({
        title: "The session could not be created",
        description: isApiError(cause) ? cause.message : "Please try again.",
        variant: "error",
      });
      return false;
    } finally {
      setCreating(false);
    }
  };

  return (
    <Composer
      running={false}
      blockedReason={blockedReason}
      onSend={start}
      onStop={() => undefined}
      stopping={creating}
    />
  );
}
