import { lazy, Suspense, useState, useSyncExternalStore } from "react";
import { getToasts, subscribeToasts } from "./toast-store";

const LazyToaster = lazy(() => import("./toaster").then((module) => ({ default: module.Toaster })));

const hasToasts = () => getToasts().length > 0;

/**
 * Mounted once at the root. Costs nothing until the first toast: only then is the Radix
 * renderer fetched, and it stays mounted afterwards so its live region keeps working.
 */
export function ToastHost() {
  const anyQueued = useSyncExternalStore(subscribeToasts, hasToasts, () => false);
  const [needed, setNeeded] = useState(false);
  if (anyQueued && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <LazyToaster />
    </Suspense>
  );
}
