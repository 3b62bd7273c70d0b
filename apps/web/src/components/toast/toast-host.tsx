import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from "react";
import { getToasts, noteToastTrigger, subscribeToasts } from "./toast-store";

const LazyToaster = lazy(() => import("./toaster").then((module) => ({ default: module.Toaster })));

const hasToasts = () => getToasts().length > 0;

const CONTROLS = "button, a[href], input, select, textarea, [role='button'], [tabindex]";

/** The control a click or key press was on, or the button that submitted a form. */
function watchToastTriggers(): () => void {
  const onPointerDown = (event: PointerEvent) => {
    const target = event.target instanceof Element ? event.target.closest(CONTROLS) : null;
    noteToastTrigger(target);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Enter" || event.key === " ") noteToastTrigger(document.activeElement);
  };
  // After the click or the Enter in a field that submitted it: the submit button is the cause.
  const onSubmit = (event: SubmitEvent) => {
    const form = event.target instanceof HTMLFormElement ? event.target : null;
    noteToastTrigger(event.submitter ?? form?.querySelector("[type='submit']") ?? null);
  };
  document.addEventListener("pointerdown", onPointerDown, true);
  document.addEventListener("keydown", onKeyDown, true);
  document.addEventListener("submit", onSubmit, true);
  return () => {
    document.removeEventListener("pointerdown", onPointerDown, true);
    document.removeEventListener("keydown", onKeyDown, true);
    document.removeEventListener("submit", onSubmit, true);
  };
}

/**
 * Mounted once at the root. Costs nothing until the first toast: only then is the Radix
 * renderer fetched, and it stays mounted afterwards so its live region keeps working. From
 * the start it notes which control the user used last, so a toast never covers its cause.
 */
export function ToastHost() {
  const anyQueued = useSyncExternalStore(subscribeToasts, hasToasts, () => false);
  const [needed, setNeeded] = useState(false);
  useEffect(() => watchToastTriggers(), []);
  if (anyQueued && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <LazyToaster />
    </Suspense>
  );
}
