import { Dialog } from "radix-ui";
import { type ReactNode, useEffect, useState } from "react";
import { Button } from "./button";

/**
 * On phones, a side list (sessions, conversations) lives in a drawer opened from a button;
 * from `lg` up the page shows the list itself and neither renders. The drawer closes when
 * `closeKey` changes (the user opened another item) or when the list calls `close`.
 */
export function ListDrawer({
  title,
  buttonText,
  closeKey,
  children,
}: {
  title: string;
  buttonText: string;
  closeKey: string;
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: opening another item closes the drawer
  useEffect(() => setOpen(false), [closeKey]);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button
          variant="outline"
          size="sm"
          className="lg:hidden"
          aria-label={`Open ${title.toLowerCase()}`}
        >
          <svg viewBox="0 0 16 16" aria-hidden="true" className="size-4" fill="none">
            <path
              d="M2.5 4h11M2.5 8h11M2.5 12h7"
              stroke="currentColor"
              strokeWidth="1.5"
              strokeLinecap="round"
            />
          </svg>
          <span className="sr-only sm:not-sr-only">{buttonText}</span>
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-ink-950/40 lg:hidden" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 left-0 z-50 flex w-80 max-w-[88vw] flex-col bg-white shadow-2xl outline-none lg:hidden"
        >
          <Dialog.Title className="sr-only">{title}</Dialog.Title>
          {children(() => setOpen(false))}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
