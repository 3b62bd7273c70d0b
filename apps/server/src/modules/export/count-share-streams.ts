import { ERROR_CODES, SHARE_MESSAGES } from "@cohort/contracts";
import { AppError } from "../../platform/errors";

/**
 * Open live streams of this process, by address and by link, within the given bounds
 * (decision 051): a stream costs a connection and a listener for as long as it is open, so
 * neither one address nor one busy link holds an unbounded number. Counted per process:
 * with several instances the bound is per instance.
 */
export function createShareStreamCounter(bounds: { perAddress: number; perLink: number }) {
  const byAddress = new Map<string, number>();
  const byLink = new Map<string, number>();
  const down = (map: Map<string, number>, key: string) => {
    const left = (map.get(key) ?? 1) - 1;
    if (left <= 0) map.delete(key);
    else map.set(key, left);
  };
  return {
    /** Takes a place for one stream, or throws 429; the returned function gives it back. */
    open(address: string, shareId: string): () => void {
      if ((byAddress.get(address) ?? 0) >= bounds.perAddress) {
        throw new AppError(
          ERROR_CODES.rateLimited,
          429,
          SHARE_MESSAGES.tooManyStreamsFromAddress(bounds.perAddress),
        );
      }
      if ((byLink.get(shareId) ?? 0) >= bounds.perLink) {
        throw new AppError(ERROR_CODES.rateLimited, 429, SHARE_MESSAGES.tooManyStreamsOnLink);
      }
      byAddress.set(address, (byAddress.get(address) ?? 0) + 1);
      byLink.set(shareId, (byLink.get(shareId) ?? 0) + 1);
      let open = true;
      return () => {
        if (!open) return;
        open = false;
        down(byAddress, address);
        down(byLink, shareId);
      };
    },
  };
}
