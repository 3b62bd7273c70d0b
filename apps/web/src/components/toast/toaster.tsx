import { Toast } from "radix-ui";
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
import { cn } from "../cn";
import { CloseIcon } from "../icons";
import { type ToastPlacement, toastPlacement } from "./toast-placement";
import {
  dismissToast,
  getToasts,
  subscribeToasts,
  type ToastItem,
  type ToastVariant,
} from "./toast-store";

const variantStyles: Record<ToastVariant, { box: string; icon: string; label: string }> = {
  success: { box: "border-emerald-200", icon: "bg-emerald-600", label: "Success" },
  error: { box: "border-red-200", icon: "bg-red-600", label: "Error" },
  warning: { box: "border-amber-300", icon: "bg-amber-500", label: "Warning" },
  info: { box: "border-brand-200", icon: "bg-brand-600", label: "Notice" },
};

/** Bottom, or top while the bottom would cover a control one of the toasts came from. */
function usePlacement(items: readonly ToastItem[]) {
  const list = useRef<HTMLOListElement | null>(null);
  const [placement, setPlacement] = useState<ToastPlacement>("bottom");
  const [layoutTick, setLayoutTick] = useState(0);

  useEffect(() => {
    if (items.length === 0) return;
    const relayout = () => setLayoutTick((tick) => tick + 1);
    window.addEventListener("resize", relayout);
    window.addEventListener("scroll", relayout, { passive: true, capture: true });
    return () => {
      window.removeEventListener("resize", relayout);
      window.removeEventListener("scroll", relayout, { capture: true });
    };
  }, [items.length]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: layoutTick asks for a new measure
  useLayoutEffect(() => {
    const element = list.current;
    if (!element) return;
    const triggers = items.flatMap((item) =>
      item.trigger?.isConnected ? [item.trigger.getBoundingClientRect()] : [],
    );
    setPlacement(toastPlacement(element.getBoundingClientRect(), triggers, window.innerHeight));
  }, [items, layoutTick]);

  return { list, placement };
}

/**
 * The Radix Toast renderer, loaded on demand by `<ToastHost />`. Errors are "foreground"
 * toasts (announced assertively); the rest are polite.
 */
export function Toaster() {
  const items = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  const { list, placement } = usePlacement(items);
  return (
    <Toast.Provider swipeDirection="right" label="Notification">
      {items.map((item) => {
        const style = variantStyles[item.variant];
        return (
          <Toast.Root
            key={item.id}
            duration={item.durationMs}
            type={item.variant === "error" ? "foreground" : "background"}
            onOpenChange={(open) => {
              if (!open) dismissToast(item.id);
            }}
            className={cn(
              "pointer-events-auto relative flex w-full items-start gap-3 rounded-xl border bg-white p-4 pr-10 shadow-lg shadow-ink-900/10",
              "motion-safe:data-[state=open]:animate-toast-in motion-safe:data-[state=closed]:animate-toast-out",
              "data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 motion-safe:data-[swipe=end]:animate-toast-out",
              style.box,
            )}
          >
            <span
              aria-hidden="true"
              className={cn("mt-1.5 size-2.5 shrink-0 rounded-full", style.icon)}
            />
            <div className="min-w-0 flex-1">
              <Toast.Title className="text-sm font-semibold text-ink-950">
                <span className="sr-only">{style.label}: </span>
                {item.title}
              </Toast.Title>
              {item.description ? (
                <Toast.Description className="mt-1 text-sm text-ink-600">
                  {item.description}
                </Toast.Description>
              ) : null}
            </div>
            <Toast.Close
              aria-label="Dismiss notification"
              className="absolute top-3 right-3 rounded-md p-1 text-ink-500 hover:bg-ink-100 hover:text-ink-900"
            >
              <CloseIcon />
            </Toast.Close>
          </Toast.Root>
        );
      })}
      <Toast.Viewport
        ref={list}
        data-placement={placement}
        className={cn(
          "fixed right-0 z-[90] m-0 flex w-full max-w-sm list-none flex-col gap-2 p-4 outline-none sm:p-6",
          placement === "bottom" ? "bottom-0" : "top-0",
        )}
      />
    </Toast.Provider>
  );
}
