import { Dialog } from "radix-ui";
import type { FormEvent, ReactNode } from "react";
import { cn } from "./cn";
import { CloseIcon } from "./icons";

/** The app's one modal look: a centred card on desktop, a bottom sheet on phones. */
export function DialogFrame({
  open,
  onOpenChange,
  title,
  description,
  children,
  wide = false,
  testId,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description?: string;
  children: ReactNode;
  wide?: boolean;
  testId?: string;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-ink-950/40 backdrop-blur-[2px]" />
        <Dialog.Content
          data-testid={testId}
          {...(description ? {} : { "aria-describedby": undefined })}
          className={cn(
            "fixed inset-x-0 bottom-0 z-50 flex max-h-[92dvh] flex-col rounded-t-3xl bg-white shadow-2xl outline-none sm:inset-x-auto sm:bottom-auto sm:top-1/2 sm:left-1/2 sm:max-h-[88dvh] sm:w-[calc(100vw-2rem)] sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-3xl",
            wide ? "sm:max-w-2xl" : "sm:max-w-md",
          )}
        >
          <div className="flex items-start justify-between gap-4 border-b border-ink-100 px-5 pt-5 pb-4 sm:px-6">
            <div>
              <Dialog.Title className="text-lg font-bold text-ink-950">{title}</Dialog.Title>
              {description ? (
                <Dialog.Description className="mt-1 text-sm text-ink-600">
                  {description}
                </Dialog.Description>
              ) : null}
            </div>
            <DialogCloseButton className="-mt-1 -mr-2" />
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A dialog's ✕ (named "Close"): DialogFrame's, and a dialog that draws its own header. */
export function DialogCloseButton({ className }: { className?: string }) {
  return (
    <Dialog.Close
      aria-label="Close"
      className={cn("rounded-lg p-2 text-ink-500 hover:bg-ink-100 hover:text-ink-900", className)}
    >
      <CloseIcon />
    </Dialog.Close>
  );
}

/**
 * A DialogFrame's body as a form: its fields in one column, padded like the header; the
 * caller checks the fields (no browser validation). `loose` spaces a long form's fields wider.
 */
export function DialogForm({
  onSubmit,
  loose = false,
  children,
}: {
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  loose?: boolean;
  children: ReactNode;
}) {
  return (
    <form
      onSubmit={onSubmit}
      className={cn("grid grid-cols-1 px-5 py-5 sm:px-6", loose ? "gap-5" : "gap-4")}
      noValidate
    >
      {children}
    </form>
  );
}
