import { REDIRECT_LOOP_MAX, REDIRECT_LOOP_WINDOW_MS } from "@cohort/contracts";
import { useReducer, useState } from "react";
import { useNavigate } from "react-router";
import { mayRedirectToDashboard } from "../../auth/dashboard-redirect";
import { readLoginRedirectState, resetLoginRedirectState } from "../../auth/redirect-loop-guard";
import { Button } from "../../components/button";
import { FormMessage } from "../../components/form";
import { getBrowserStorage } from "../../lib/storage/browser-storage";
import { DebugFrame, DebugSection, KeyValueTable } from "./debug-frame";

/** Tries the login → dashboard redirect through the loop guard, to see it count and block. */
export function TestRedirectPage() {
  const navigate = useNavigate();
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [message, setMessage] = useState<string | null>(null);
  const session = getBrowserStorage("sessionStorage");
  const state = readLoginRedirectState(session);

  const tryRedirect = () => {
    if (mayRedirectToDashboard()) {
      navigate("/dashboard");
      return;
    }
    setMessage(
      "Blocked: the guard stopped the redirect and cleared authToken and userProfile. Reset the counters or wait 2 s.",
    );
    rerender();
  };

  return (
    <DebugFrame
      title="Redirect test"
      description={`The login redirect-loop guard allows ${REDIRECT_LOOP_MAX} redirects to the dashboard, each within ${REDIRECT_LOOP_WINDOW_MS / 1000} s of the previous, and blocks the next.`}
    >
      <DebugSection title="Guard state">
        <KeyValueTable
          rows={[
            { key: "loginRedirectCount", value: String(state.count) },
            {
              key: "lastLoginRedirect",
              value: state.lastAt === null ? "never" : new Date(state.lastAt).toISOString(),
            },
          ]}
        />
        <div className="mt-3 flex flex-wrap gap-2">
          <Button size="sm" onClick={tryRedirect}>
            Redirect to the dashboard through the guard
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              resetLoginRedirectState(session);
              setMessage(null);
              rerender();
            }}
          >
            Reset redirect counters
          </Button>
        </div>
        <div className="mt-3">
          <FormMessage tone="info">{message}</FormMessage>
        </div>
      </DebugSection>
    </DebugFrame>
  );
}
