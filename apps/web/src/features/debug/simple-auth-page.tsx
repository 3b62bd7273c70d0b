import { Link } from "react-router";
import { useAuth } from "../../auth/use-auth";
import { useSignOut } from "../../auth/use-sign-out";
import { Button } from "../../components/button";
import { Spinner } from "../../components/spinner";
import { DebugFrame, DebugSection } from "./debug-frame";

/** The sign-in state in one line, with the one action that fits it. */
export function SimpleAuthPage() {
  const { status, user } = useAuth();
  const { signOut, pending } = useSignOut("/simple-auth");
  return (
    <DebugFrame
      title="Simple auth check"
      description="Asks the server who is signed in, and nothing else."
    >
      <DebugSection title="Result">
        <div aria-live="polite" data-testid="simple-auth-status">
          {status === "loading" ? (
            <Spinner label="Checking…" />
          ) : status === "authenticated" && user ? (
            <p>
              Signed in as <strong>{user.email}</strong> ({user.role}).
            </p>
          ) : (
            <p>Not signed in.</p>
          )}
        </div>
        <div className="mt-3">
          {status === "authenticated" ? (
            <Button variant="outline" size="sm" onClick={signOut} disabled={pending}>
              Sign out
            </Button>
          ) : status === "unauthenticated" ? (
            <Link to="/login" className="font-medium text-brand-700 hover:underline">
              Sign in
            </Link>
          ) : null}
        </div>
      </DebugSection>
    </DebugFrame>
  );
}
