import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { failureMessage, requestPasswordReset } from "../../auth/account-api";
import { AuthCard } from "../../components/auth-card";
import { Button } from "../../components/button";
import { Field, FormMessage } from "../../components/form";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";

/** Asks for a reset link; the answer is the same whether or not the account exists. */
export function ForgotPasswordPage() {
  useDocumentMeta({ title: "Forgot your password?" });
  const [email, setEmail] = useState("");
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setSending(true);
    try {
      const { message } = await requestPasswordReset(email);
      setSent(message);
    } catch (cause) {
      setError(failureMessage(cause, "We could not send the email. Please try again."));
    } finally {
      setSending(false);
    }
  };

  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter the email address of your account and we will send you a link to choose a new password."
      footer={
        <Link to="/login" className="font-medium text-brand-700 hover:underline">
          Back to sign in
        </Link>
      }
    >
      {sent ? (
        <FormMessage tone="success">{sent}</FormMessage>
      ) : (
        <form onSubmit={onSubmit} className="grid gap-4">
          <Field
            label="Email address"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <FormMessage>{error}</FormMessage>
          <Button type="submit" size="lg" disabled={sending}>
            {sending ? "Loading..." : "Send reset link"}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
