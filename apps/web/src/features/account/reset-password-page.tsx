import { PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT_MESSAGE } from "@cohort/contracts";
import { type FormEvent, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { failureMessage, resetPassword } from "../../auth/account-api";
import { AuthCard } from "../../components/auth-card";
import { Button } from "../../components/button";
import { FormMessage, PasswordField } from "../../components/form";
import { toast } from "../../components/toast/toast-store";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";

export const PASSWORDS_DIFFER_MESSAGE = "The two passwords do not match.";

/** Sets a new password from the emailed link (?token=…), then goes to sign-in. */
export function ResetPasswordPage() {
  useDocumentMeta({ title: "Choose a new password", noindex: true });
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    if (password.length < PASSWORD_MIN_LENGTH) {
      setError(PASSWORD_TOO_SHORT_MESSAGE);
      return;
    }
    if (password !== confirm) {
      setError(PASSWORDS_DIFFER_MESSAGE);
      return;
    }
    setSaving(true);
    try {
      const { message } = await resetPassword(token, password);
      toast({ title: message, variant: "success" });
      navigate("/login", { replace: true });
    } catch (cause) {
      setError(failureMessage(cause, "We could not reset your password. Please try again."));
      setSaving(false);
    }
  };

  const footer = (
    <Link to="/login" className="font-medium text-brand-700 hover:underline">
      Back to sign in
    </Link>
  );

  if (!token) {
    return (
      <AuthCard title="Choose a new password" footer={footer}>
        <FormMessage>
          This page needs the link from the password reset email.{" "}
          <Link to="/forgot-password" className="font-semibold underline">
            Ask for a new link
          </Link>
          .
        </FormMessage>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Choose a new password"
      description="After the change you will be signed out everywhere and can sign in with the new password."
      footer={footer}
    >
      <form onSubmit={onSubmit} className="grid gap-4">
        <PasswordField
          label="New password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          hint="Password must be at least 6 characters long."
        />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
        <FormMessage>{error}</FormMessage>
        <Button type="submit" size="lg" disabled={saving}>
          {saving ? "Loading..." : "Set new password"}
        </Button>
      </form>
    </AuthCard>
  );
}
