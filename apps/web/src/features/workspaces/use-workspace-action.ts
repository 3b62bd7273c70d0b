import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { failureMessage } from "../../auth/account-api";
import { toast } from "../../components/toast/toast-store";
import { workspaceKeys } from "./workspaces-api";

/**
 * One button's call in Settings → Workspace: busy while it runs, a toast with the server's
 * own words when refused, and the workspace's data (members, invitations, usage, audit)
 * read again after it, since every change there lands in the audit log too.
 */
export function useWorkspaceAction() {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (
    key: string,
    call: () => Promise<unknown>,
    success: string | null,
    failure: string,
  ): Promise<boolean> => {
    setBusy(key);
    try {
      await call();
      if (success) toast({ title: success, variant: "success" });
      await queryClient.invalidateQueries({ queryKey: workspaceKeys.all });
      return true;
    } catch (error) {
      toast({ title: failureMessage(error, failure), variant: "error" });
      return false;
    } finally {
      setBusy(null);
    }
  };
  return { run, busy };
}
