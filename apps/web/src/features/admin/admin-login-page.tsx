import { type FormEvent, useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import { failureMessage } from "../../auth/account-api";
import { applyAuthResponse } from "../../auth/auth-store";
import { FullScreenSpinner } from "../../auth/full-screen-spinner";
import { useAuth } from "../../auth/use-auth";
import { AuthCard } from "../../components/auth-card";
import { Button } from "../../components/button";
import { Field, FormMessage, PasswordField } from "../../components/form";
import { toast } from "../../components/toast/toast-store";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { adminLogIn } from "./admin-api";

export const ADMIN_LOGIN_FAILED = "Admin sign-in failed. Please try again.";

/** The admin area's own sign-in (the route table and the roles). */
export function AdminLoginPage() {
  useDocumentMeta({ title: "Admin sign-in", noindex: true });
  const { status, user } = useAuth();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const isAdmin = status === "authenticated" && user?.role === "admin";

  useEffect(() => {
    if (isAdmin) navigate("/admin/dashboard", { replace: true });
  }, [isAdmin, navigate]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setSubmitting(true);
    try {
      applyAuthResponse(await adminLogIn({ email, password }));
      toast({ title: "Signed in to the admin area", variant: "success" });
    } catch (cause) {
      const message = failureMessage(cause, ADMIN_LOGIN_FAILED);
      setError(message);
      toast({ title: message, variant: "error" });
      setSubmitting(false);
    }
  };

  if (status === "loading" || isAdmin) return <FullScreenSpinner />;

  return (
    <AuthCard
      title="Admin sign-in"
      description="For Cohort administrators. Signing in here replaces any other sign-in in this browser."
      footer={
        <Link to="/login" className="font-medium text-brand-700 hover:underline">
          Not an admin? Sign in to Cohort
        </Link>
      }
    >
      <form onSubmit={onSubmit} className="grid gap-4">
        <Field
          label="Email address"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <FormMessage>{error}</FormMessage>
        <Button type="submit" size="lg" disabled={submitting}>
          {submitting ? "Loading..." : "Sign in"}
        </Button>
      </form>
    </AuthCard>
  );
}
