import { AGREEMENT_ERROR_CODES, AGREEMENT_MESSAGES } from "@cohort/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useContext,
  useEffect,
  useRef,
  useState,
} from "react";
import { Button } from "../../components/button";
import { queueFlashToast } from "../../components/toast/flash-toast";
import { toast } from "../../components/toast/toast-store";
import { isApiError } from "../../lib/api/api-error";
import { formatDay } from "../../lib/format/dates";
import { logger } from "../../lib/telemetry/logger";
import {
  AGREEMENT_STATUS_QUERY_KEY,
  acceptAgreement,
  checkAgreementRequired,
  declineAgreement,
} from "./agreement-api";

const AgreementModal = lazy(() =>
  import("./agreement-modal").then((m) => ({ default: m.AgreementModal })),
);

export const AGREEMENT_TEXTS = {
  overlayTitle: "Agreement Acceptance Required",
  review: "Review Agreement",
  accepted: "Agreement accepted successfully",
  acceptFailed: "Failed to accept agreement. Please try again.",
} as const;

/** Whether the signed-in user may use the product yet: the agreement check decides. */
export type TAgreementState = "pending" | "required" | "ok";
const AgreementStateContext = createContext<TAgreementState>("ok");

/**
 * Product calls answer 403 agreement_required until the current version is accepted, so a
 * page only loads its data once this says "ok".
 */
export function useAgreementState(): TAgreementState {
  return useContext(AgreementStateContext);
}

/**
 * The route table and the UI states: after sign-in, while the current agreement version is not accepted, the app
 * behind is blurred and inert, and an overlay asks the user to review it. Accepting clears
 * the status and reloads the page.
 */
export function AgreementGate({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { data, isError } = useQuery({
    queryKey: AGREEMENT_STATUS_QUERY_KEY,
    queryFn: ({ signal }) => checkAgreementRequired(signal),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const [modalOpen, setModalOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const reviewButton = useRef<HTMLButtonElement>(null);

  const agreement = data?.requiresAcceptance ? data.agreement : null;
  const blocked = agreement !== null;
  // A failed check is logged and treated as "not required" (the error texts); the pages then
  // surface any 403 they meet themselves.
  const state: TAgreementState = blocked ? "required" : data || isError ? "ok" : "pending";

  useEffect(() => {
    if (blocked) reviewButton.current?.focus();
  }, [blocked]);

  const accept = async () => {
    if (!agreement) return;
    setBusy(true);
    try {
      await acceptAgreement(agreement.id);
      queueFlashToast({ title: AGREEMENT_TEXTS.accepted, variant: "success" });
      queryClient.removeQueries({ queryKey: AGREEMENT_STATUS_QUERY_KEY });
      window.location.reload();
    } catch (error) {
      logger.warn("Accepting the agreement failed", {
        code: isApiError(error) ? error.code : undefined,
      });
      toast({ title: AGREEMENT_TEXTS.acceptFailed, variant: "error" });
      setBusy(false);
    }
  };

  const decline = async () => {
    if (!agreement) return;
    setBusy(true);
    try {
      const { message } = await declineAgreement(agreement.id);
      toast({ title: message, variant: "info" });
      setModalOpen(false);
      await queryClient.invalidateQueries({ queryKey: AGREEMENT_STATUS_QUERY_KEY });
    } catch (error) {
      if (isApiError(error) && error.code === AGREEMENT_ERROR_CODES.declineNotAllowed) {
        setNotice(AGREEMENT_MESSAGES.declineNotAllowed);
      } else {
        toast({ title: "Could not record your decision. Please try again.", variant: "error" });
      }
    } finally {
      setBusy(false);
    }
  };

  const closeModal = () => {
    setModalOpen(false);
    // Leaving without a decision is declining; where that is not allowed, say so (the validation rules).
    if (agreement && !agreement.allowDecline) setNotice(AGREEMENT_MESSAGES.declineNotAllowed);
    requestAnimationFrame(() => reviewButton.current?.focus());
  };

  return (
    <AgreementStateContext.Provider value={state}>
      <div
        className={blocked ? "pointer-events-none blur-sm select-none" : undefined}
        aria-hidden={blocked || undefined}
        inert={blocked}
        data-testid="agreement-gated-content"
      >
        {children}
      </div>
      {agreement ? (
        <div className="fixed inset-0 z-50 flex items-center justify-center bg-ink-950/30 p-4">
          <section
            role="alertdialog"
            aria-modal="true"
            aria-labelledby="agreement-required-title"
            aria-describedby="agreement-required-text"
            className="w-full max-w-md rounded-2xl border border-ink-200 bg-white p-6 shadow-2xl sm:p-8"
          >
            <h2 id="agreement-required-title" className="text-xl font-bold text-ink-950">
              {AGREEMENT_TEXTS.overlayTitle}
            </h2>
            <p id="agreement-required-text" className="mt-3 text-sm leading-6 text-ink-600">
              The Cohort User Agreement has changed. Please review version {agreement.version},
              effective {formatDay(agreement.effectiveDate, true)}, and accept it to keep using
              Cohort.
            </p>
            <div aria-live="assertive">
              {notice && !modalOpen ? (
                <p className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
                  {notice}
                </p>
              ) : null}
            </div>
            <Button
              ref={reviewButton}
              size="lg"
              className="mt-6 w-full"
              onClick={() => setModalOpen(true)}
            >
              {AGREEMENT_TEXTS.review}
            </Button>
          </section>
        </div>
      ) : null}
      {agreement && modalOpen ? (
        <Suspense fallback={null}>
          <AgreementModal
            agreement={agreement}
            open
            busy={busy}
            notice={notice}
            onClose={closeModal}
            onAccept={accept}
            onDecline={agreement.allowDecline ? decline : undefined}
          />
        </Suspense>
      ) : null}
    </AgreementStateContext.Provider>
  );
}
