import { SCROLL_TO_BOTTOM_THRESHOLD_PX, type TAgreement } from "@cohort/contracts";
import { Dialog } from "radix-ui";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Button } from "../../components/button";
import { CloseIcon } from "../../components/icons";
import { Markdown } from "../../components/markdown/markdown";
import { formatDay } from "../../lib/format/dates";

export interface AgreementModalProps {
  agreement: TAgreement;
  open: boolean;
  /** Called when the user closes the dialog without deciding (×, Escape, outside click). */
  onClose: () => void;
  onAccept: () => void;
  /** Shown only where the agreement allows declining (the route table). */
  onDecline?: () => void;
  /** True while an accept or decline call runs. */
  busy?: boolean;
  /** A message shown above the buttons, e.g. that declining is not possible. */
  notice?: string | null;
  /**
   * Sign-up: Escape and a click outside ask before `onClose` discards the held form (an
   * accidental key press must not throw a filled-in sign-up away). The × still closes.
   */
  askBeforeDiscarding?: boolean;
}

export const DISCARD_TEXTS = {
  question: "Discard your sign-up?",
  explanation:
    "Without accepting the agreement the account cannot be created. The details you entered stay in the form.",
  keep: "Keep reading",
  discard: "Discard",
} as const;

/** True when the element is scrolled to within 50 px of its bottom (the UI states and the product limits). */
export function isScrolledToBottom(element: {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}): boolean {
  return (
    element.scrollHeight - element.scrollTop - element.clientHeight <= SCROLL_TO_BOTTOM_THRESHOLD_PX
  );
}

/**
 * The User Agreement modal (the route table, the UI states and the validation rules): version, effective date and the scrollable text;
 * the checkbox unlocks once the text was scrolled to its end, and 'I Agree' once it is ticked.
 */
export function AgreementModal({
  agreement,
  open,
  onClose,
  onAccept,
  onDecline,
  busy = false,
  notice = null,
  askBeforeDiscarding = false,
}: AgreementModalProps) {
  const [scrolledToEnd, setScrolledToEnd] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const questionId = useId();
  const [ticked, setTicked] = useState(false);
  const scroller = useRef<HTMLElement | null>(null);
  const checkboxId = useId();
  const hintId = useId();

  // A new version starts over: it has to be read again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: agreement.id is the trigger
  useEffect(() => {
    setScrolledToEnd(false);
    setTicked(false);
  }, [agreement.id]);

  const check = useCallback(() => {
    const element = scroller.current;
    if (element && isScrolledToBottom(element)) setScrolledToEnd(true);
  }, []);

  // A text short enough to fit without scrolling counts as read once it is shown.
  const attachScroller = useCallback(
    (element: HTMLElement | null) => {
      scroller.current = element;
      if (!element) return;
      // A scrollable region must be reachable by keyboard, or it cannot be read without a mouse.
      element.tabIndex = 0;
      requestAnimationFrame(check);
    },
    [check],
  );

  const canDecline = agreement.allowDecline && onDecline !== undefined;

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next && !busy) onClose();
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-ink-950/50 backdrop-blur-[2px]" />
        <Dialog.Content
          className="fixed top-1/2 left-1/2 z-[61] flex max-h-[min(90dvh,48rem)] w-[calc(100vw-1.5rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 flex-col rounded-2xl bg-white shadow-2xl outline-none"
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            scroller.current?.focus();
          }}
          onEscapeKeyDown={(event) => {
            if (!askBeforeDiscarding || busy) return;
            event.preventDefault();
            // A second Escape answers the question with "keep reading".
            setConfirming((asking) => !asking);
          }}
          onPointerDownOutside={(event) => {
            if (!askBeforeDiscarding || busy) return;
            event.preventDefault();
            setConfirming(true);
          }}
        >
          <div className="flex items-start justify-between gap-4 border-b border-ink-200 px-5 py-4 sm:px-6">
            <div>
              <Dialog.Title className="text-lg font-semibold text-ink-950">
                Cohort User Agreement
              </Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-ink-600">
                <span data-testid="agreement-version">Version {agreement.version}</span>
                <span aria-hidden="true"> · </span>
                <span data-testid="agreement-effective-date">
                  Effective {formatDay(agreement.effectiveDate, true)}
                </span>
              </Dialog.Description>
            </div>
            <Dialog.Close
              aria-label="Close"
              disabled={busy}
              className="rounded-md p-1.5 text-ink-500 hover:bg-ink-100 hover:text-ink-900"
            >
              <CloseIcon />
            </Dialog.Close>
          </div>

          <section
            ref={attachScroller}
            onScroll={check}
            aria-label="Agreement text"
            data-testid="agreement-scroll"
            className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-5 py-4 outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-inset sm:px-6"
          >
            <Markdown text={agreement.content} />
          </section>

          <div className="border-t border-ink-200 px-5 py-4 sm:px-6">
            <div className="flex items-start gap-3">
              <input
                id={checkboxId}
                type="checkbox"
                checked={ticked}
                disabled={!scrolledToEnd || busy}
                onChange={(event) => setTicked(event.target.checked)}
                aria-describedby={hintId}
                className="mt-0.5 size-4 shrink-0 rounded border-ink-300 accent-brand-600 disabled:cursor-not-allowed"
              />
              <label
                htmlFor={checkboxId}
                className={scrolledToEnd ? "text-sm text-ink-800" : "text-sm text-ink-500"}
              >
                I have read and agree to the Cohort User Agreement
              </label>
            </div>
            <p id={hintId} aria-live="polite" className="mt-1.5 pl-7 text-xs text-ink-500">
              {scrolledToEnd
                ? "Thank you for reading to the end."
                : "Scroll to the end of the agreement to enable the checkbox."}
            </p>
            <div aria-live="assertive">
              {notice ? (
                <p className="mt-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
                  {notice}
                </p>
              ) : null}
            </div>
            {confirming ? (
              <DiscardQuestion
                id={questionId}
                onKeep={() => {
                  setConfirming(false);
                  scroller.current?.focus();
                }}
                onDiscard={onClose}
              />
            ) : (
              <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                {canDecline ? (
                  <Button variant="outline" disabled={busy} onClick={onDecline}>
                    Decline
                  </Button>
                ) : null}
                <Button disabled={!ticked || busy} onClick={onAccept}>
                  {busy ? "Loading..." : "I Agree"}
                </Button>
              </div>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Asked in place of the buttons, with the safe answer focused. */
function DiscardQuestion({
  id,
  onKeep,
  onDiscard,
}: {
  id: string;
  onKeep: () => void;
  onDiscard: () => void;
}) {
  return (
    <div
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      data-testid="agreement-discard-question"
      className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3"
    >
      <p id={`${id}-title`} className="text-sm font-semibold text-amber-950">
        {DISCARD_TEXTS.question}
      </p>
      <p id={`${id}-text`} className="mt-1 text-sm text-amber-900">
        {DISCARD_TEXTS.explanation}
      </p>
      <div className="mt-3 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onDiscard}>
          {DISCARD_TEXTS.discard}
        </Button>
        {/* The question takes focus, so Enter or Space keeps reading. */}
        <Button autoFocus onClick={onKeep}>
          {DISCARD_TEXTS.keep}
        </Button>
      </div>
    </div>
  );
}
