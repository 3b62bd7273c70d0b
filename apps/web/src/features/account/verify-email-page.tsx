import type { TSuccessResponse } from "@cohort/contracts";
import { useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { failureMessage, verifyEmail } from "../../auth/account-api";
import { getAuthSnapshot, refreshProfile } from "../../auth/auth-store";
import { AuthCard } from "../../components/auth-card";
import { ButtonLink } from "../../components/button";
import { FormMessage } from "../../components/form";
import { Spinner } from "../../components/spinner";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";

/** Tokens are single-use: one request per token per page load, however often React renders. */
const verifications = new Map<string, Promise<TSuccessResponse>>();

function verifyOnce(token: string): Promise<TSuccessResponse> {
  let pending = verifications.get(token);
  if (!pending) {
    pending = verifyEmail(token);
    verifications.set(token, pending);
  }
  return pending;
}

type Result =
  | { state: "pending" }
  | { state: "done"; message: string }
  | { state: "failed"; message: string };

/** Confirms the address from the emailed link (?token=…) as soon as the page opens. */
export function VerifyEmailPage() {
  useDocumentMeta({ title: "Verify your email", noindex: true });
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [result, setResult] = useState<Result>(
    token
      ? { state: "pending" }
      : { state: "failed", message: "This page needs the link from the verification email." },
  );

  useEffect(() => {
    if (!token) return;
    let current = true;
    verifyOnce(token).then(
      ({ message }) => {
        if (!current) return;
        setResult({ state: "done", message });
        // A signed-in tab should stop showing the "please verify" banner.
        if (getAuthSnapshot().status === "authenticated") void refreshProfile();
      },
      (error: unknown) => {
        if (current) {
          setResult({
            state: "failed",
            message: failureMessage(
              error,
              "We could not verify your email address. Please try again.",
            ),
          });
        }
      },
    );
    return () => {
      current = false;
    };
  }, [token]);

  return (
    <AuthCard title="Verify your email">
      {result.state === "pending" ? (
        <Spinner label="Verifying your email address…" />
      ) : result.state === "done" ? (
        <div className="grid gap-5">
          <FormMessage tone="success">{result.message}</FormMessage>
          <ButtonLink to="/dashboard" size="lg">
            Go to your dashboard
          </ButtonLink>
        </div>
      ) : (
        <div className="grid gap-5">
          <FormMessage>{result.message}</FormMessage>
          <p className="text-sm text-ink-600">
            Links expire and work once. Sign in and use <strong>Resend email</strong> on your
            dashboard to get a new one.{" "}
            <Link to="/login" className="font-medium text-brand-700 hover:underline">
              Sign in
            </Link>
          </p>
        </div>
      )}
    </AuthCard>
  );
}
