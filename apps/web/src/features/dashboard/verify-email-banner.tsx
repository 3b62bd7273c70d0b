import type { TUserProfile } from "@cohort/contracts";
import { useState } from "react";
import { failureMessage, resendVerification } from "../../auth/account-api";
import { usePendingWelcomeCredits } from "../../auth/use-pending-welcome-credits";
import { Button } from "../../components/button";
import { toast } from "../../components/toast/toast-store";

/**
 * Shown while the address is unconfirmed; "Resend email" asks for a fresh link. The welcome
 * credits wait for a confirmed address (decision 017), and the banner says so.
 */
export function VerifyEmailBanner({ user }: { user: TUserProfile }) {
  const [sending, setSending] = useState(false);
  const welcome = usePendingWelcomeCredits(user);
  const resend = async () => {
    setSending(true);
    try {
      const { message } = await resendVerification();
      toast({ title: message, variant: "success" });
    } catch (error) {
      toast({
        title: failureMessage(error, "Could not send the email. Please try again."),
        variant: "error",
      });
    } finally {
      setSending(false);
    }
  };
  return (
    <section
      aria-labelledby="verify-email-title"
      className="flex flex-col gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 sm:flex-row sm:items-center sm:justify-between"
    >
      <div>
        <h2 id="verify-email-title" className="text-sm font-semibold text-amber-950">
          Please verify your email address
        </h2>
        <p className="mt-1 text-sm text-amber-900">
          We sent a verification link to <span className="font-medium">{user.email}</span>. Open it
          to confirm your address
          {welcome > 0 ? (
            <>
              {" "}
              and receive your <span className="font-medium">{welcome} welcome credits</span>
            </>
          ) : null}
          .
        </p>
      </div>
      <Button variant="outline" size="sm" onClick={resend} disabled={sending}>
        {sending ? "Loading..." : "Resend email"}
      </Button>
    </section>
  );
}
