import { AlertDialog } from "radix-ui";
import { buttonClasses } from "../../components/button";

export const REDIRECT_LOOP_ALERT = {
  title: "Redirect loop stopped",
  text: "Cohort sent you to the dashboard too many times in a row, so it stopped. Your saved sign-in state was cleared. Please sign in again.",
} as const;

/** The alert of the UI states' login redirect-loop guard, as an accessible alert dialog. */
export function RedirectLoopAlert({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-[60] bg-ink-950/50" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-[61] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-2xl outline-none">
          <AlertDialog.Title className="text-lg font-semibold text-ink-950">
            {REDIRECT_LOOP_ALERT.title}
          </AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm leading-6 text-ink-600">
            {REDIRECT_LOOP_ALERT.text}
          </AlertDialog.Description>
          <div className="mt-6 flex justify-end">
            <AlertDialog.Action className={buttonClasses()}>OK</AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
