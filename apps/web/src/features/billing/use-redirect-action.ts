import { useMutation } from "@tanstack/react-query";
import { useEffect } from "react";
import { failureMessage } from "../../auth/account-api";
import { toast } from "../../components/toast/toast-store";
import { goToExternalPage } from "./billing-api";

export interface RedirectAction<TArg> {
  run(arg: TArg): void;
  /** True while any call of this action is under way or the browser is leaving. */
  busy: boolean;
  /** Whether this very argument's call is the one under way. */
  isRunning(arg: TArg): boolean;
}

/**
 * A button's call that answers with a page to leave for (checkout, customer portal). Until
 * the browser has left, the action stays pending; coming back with the Back button (a page
 * restored from the back-forward cache) makes it usable again.
 */
export function useRedirectAction<TArg>(
  start: (arg: TArg) => Promise<string>,
  failureTitle: string,
): RedirectAction<TArg> {
  const mutation = useMutation({
    mutationFn: start,
    onSuccess: (url) => goToExternalPage(url),
    onError: (error) =>
      toast({
        title: failureTitle,
        description: failureMessage(error, "Please try again in a moment."),
        variant: "error",
      }),
  });
  const { reset } = mutation;
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener("pageshow", onPageShow);
    return () => window.removeEventListener("pageshow", onPageShow);
  }, [reset]);

  const busy = mutation.isPending || mutation.isSuccess;
  return {
    run: (arg: TArg) => mutation.mutate(arg),
    busy,
    isRunning: (arg: TArg) => busy && mutation.variables === arg,
  };
}
