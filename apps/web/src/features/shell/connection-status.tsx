import { useEffect, useId, useSyncExternalStore } from "react";
import { createPortal } from "react-dom";
import { cn } from "../../components/cn";
import {
  CONNECTION_LABELS,
  type ConnectionIndicator,
  type ConnectionSnapshot,
} from "../../lib/realtime/connection-state";
import { realtime } from "../../lib/realtime/realtime-client";
import { useConnectionSnapshot, useRealtimeConnection } from "../../lib/realtime/use-realtime";

/**
 * The app shell's connection indicator (the UI states). The shell renders this slot in its desktop
 * sidebar and again in the mobile drawer; the first mounted one (the sidebar, mounted for
 * the shell's lifetime) owns the socket, the live region and a floating pill for screens
 * where the sidebar is hidden; a second one renders nothing.
 */
const slots: string[] = [];
const slotListeners = new Set<() => void>();
const notifySlots = () => {
  for (const listener of slotListeners) listener();
};
const subscribeSlots = (listener: () => void) => {
  slotListeners.add(listener);
  return () => {
    slotListeners.delete(listener);
  };
};
const primarySlot = () => slots[0] ?? null;

const tones: Record<Exclude<ConnectionIndicator, "hidden">, { dot: string; box: string }> = {
  disconnected: { dot: "bg-red-500", box: "border-red-200 bg-red-50 text-red-800" },
  reconnecting: {
    dot: "bg-amber-500 animate-pulse",
    box: "border-amber-200 bg-amber-50 text-amber-900",
  },
  reconnected: { dot: "bg-emerald-500", box: "border-emerald-200 bg-emerald-50 text-emerald-800" },
};

/**
 * What the indicator shows. The product asks it to say "Disconnected" at first: until the socket's
 * first connection the machine is `hidden` and not connected, and that reads as disconnected
 * (without the "Connection lost" announcement: nothing was lost yet).
 */
export function shownIndicator(snapshot: ConnectionSnapshot): ConnectionIndicator {
  if (snapshot.indicator === "hidden" && !snapshot.connected) return "disconnected";
  return snapshot.indicator;
}

function IndicatorBody({
  snapshot,
  className,
  testId = "connection-indicator",
}: {
  snapshot: ConnectionSnapshot;
  className?: string;
  testId?: string;
}) {
  const indicator = shownIndicator(snapshot);
  if (indicator === "hidden") return null;
  const tone = tones[indicator];
  return (
    <div
      data-testid={testId}
      data-state={indicator}
      className={cn(
        "flex items-center gap-2 rounded-lg border px-3 py-2 text-sm font-medium",
        tone.box,
        className,
      )}
    >
      <span aria-hidden="true" className={cn("size-2 shrink-0 rounded-full", tone.dot)} />
      <span className="min-w-0 flex-1">{CONNECTION_LABELS[indicator]}</span>
      {snapshot.gaveUp ? (
        <button
          type="button"
          onClick={() => realtime.retry()}
          className="rounded-md px-2 py-0.5 text-xs font-semibold underline-offset-2 hover:underline"
        >
          Retry
        </button>
      ) : null}
    </div>
  );
}

export function ConnectionStatusSlot() {
  const id = useId();
  useEffect(() => {
    slots.push(id);
    notifySlots();
    return () => {
      const index = slots.indexOf(id);
      if (index >= 0) slots.splice(index, 1);
      notifySlots();
    };
  }, [id]);
  const primary = useSyncExternalStore(subscribeSlots, primarySlot, primarySlot);
  if (primary !== id) return null;
  return <PrimaryConnectionStatus />;
}

function PrimaryConnectionStatus() {
  useRealtimeConnection();
  const snapshot = useConnectionSnapshot();
  return (
    <>
      <IndicatorBody snapshot={snapshot} />
      {createPortal(
        <>
          <p
            className="sr-only"
            aria-live="polite"
            aria-atomic="true"
            data-testid="connection-announcer"
          >
            {/* The key re-creates the text node, so a repeated message is read again. */}
            <span key={snapshot.announcementId}>{snapshot.announcement}</span>
          </p>
          <div className="pointer-events-none fixed inset-x-0 top-16 z-40 flex justify-center px-4 lg:hidden">
            <IndicatorBody
              snapshot={snapshot}
              className="pointer-events-auto shadow-lg"
              testId="connection-indicator-floating"
            />
          </div>
        </>,
        document.body,
      )}
    </>
  );
}
