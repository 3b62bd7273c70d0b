import type { TShareLink } from "@cohort/contracts";
import { useState } from "react";
import { Button } from "../../components/button";
import { toast } from "../../components/toast/toast-store";
import { isApiError } from "../../lib/api/api-error";
import { revokeShare } from "./share-api";

/**
 * Revoke for a share link, in the Share dialog and the workspace's list of links: says so
 * in a toast either way; `onRevoked` gets the link as it is now (off).
 */
export function RevokeShareButton({
  shareId,
  onRevoked,
}: {
  shareId: string;
  onRevoked(share: TShareLink): Promise<void> | void;
}) {
  const [busy, setBusy] = useState(false);
  const revoke = async () => {
    setBusy(true);
    try {
      const { share } = await revokeShare(shareId);
      toast({ title: "Link revoked: it no longer opens", variant: "success" });
      await onRevoked(share);
    } catch (cause) {
      toast({
        title: isApiError(cause) ? cause.message : "The link could not be revoked.",
        variant: "error",
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={() => void revoke()}
      disabled={busy}
      className="text-red-700 hover:bg-red-50"
    >
      {busy ? "Revoking…" : "Revoke"}
    </Button>
  );
}
