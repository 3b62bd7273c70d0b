import { useState } from "react";
import { toast } from "./toast/toast-store";

/**
 * A destructive action asked twice: the first button `ask`s, `ConfirmButtons` then `run` it or
 * `cancel`. `pending` while it runs; a failure is an error toast in `describe`'s words and
 * the question closes, so the row is as it was. One place for what the delete and revoke rows
 * each wrote for themselves.
 */
export function useConfirmedAction(describe: (cause: unknown) => string) {
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const run = async (action: () => Promise<void>): Promise<void> => {
    setPending(true);
    try {
      await action();
    } catch (cause) {
      toast({ title: describe(cause), variant: "error" });
    } finally {
      setPending(false);
      setConfirming(false);
    }
  };
  return {
    confirming,
    pending,
    ask: () => setConfirming(true),
    cancel: () => setConfirming(false),
    run,
  };
}
