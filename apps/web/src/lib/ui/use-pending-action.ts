import { useState } from "react";
import { isApiError } from "../api/api-error";

/** The server's own message for a failed request, or `fallback` for anything else. */
export function apiMessage(fallback: string): (cause: unknown) => string {
  return (cause) => (isApiError(cause) ? cause.message : fallback);
}

/**
 * A form's async action: `pending` while it runs and `error`, the failure's text as `describe`
 * words it, cleared when it runs again. One place for the busy flag and the try/catch that
 * every dialog and settings form wrote for itself.
 */
export function usePendingAction(describe: (cause: unknown) => string) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<void>): Promise<void> => {
    setError(null);
    setPending(true);
    try {
      await action();
    } catch (cause) {
      setError(describe(cause));
    } finally {
      setPending(false);
    }
  };
  return { pending, error, setError, run };
}
