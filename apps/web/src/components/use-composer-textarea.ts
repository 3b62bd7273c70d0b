import { useEffect, useRef } from "react";

const MAX_HEIGHT_PX = 200;

/**
 * A message box that grows with its text up to a limit (then scrolls), and takes the focus
 * back when it unlocks (a run or a stream ended), so the user can type the next message.
 */
export function useComposerTextarea(text: string, locked: boolean) {
  const area = useRef<HTMLTextAreaElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: measures again whenever the text changes
  useEffect(() => {
    const element = area.current;
    if (!element) return;
    element.style.height = "auto";
    element.style.height = `${Math.min(element.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [text]);

  const wasLocked = useRef(locked);
  useEffect(() => {
    if (wasLocked.current && !locked) area.current?.focus({ preventScroll: true });
    wasLocked.current = locked;
  }, [locked]);

  return area;
}
