import { useEffect, useReducer, useState } from "react";
import { useNavigate } from "react-router";
import { Button, ButtonLink } from "../../components/button";
import { Spinner } from "../../components/spinner";
import {
  getBrowserStorage,
  readStorage,
  removeStorageIfPresent,
  STORAGE_KEYS,
  writeStorage,
} from "../../lib/storage/browser-storage";
import { DebugFrame, DebugSection } from "./debug-frame";

/**
 * The route table's isolated pair: a fake auth test that uses none of the real sign-in. The "token" is
 * whatever localStorage `authToken` holds; the dashboard's check takes 500 ms and sends a
 * browser without one to /isolated-auth.
 */
export const ISOLATED_CHECK_MS = 500;
export const ISOLATED_FAKE_TOKEN = "isolated-test-token";

function readToken(): string | null {
  return readStorage(getBrowserStorage("localStorage"), STORAGE_KEYS.authToken);
}

export function IsolatedAuthPage() {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const token = readToken();
  return (
    <DebugFrame
      title="Isolated auth"
      description="A fake sign-in for testing redirects in isolation. It only sets or clears localStorage authToken."
    >
      <DebugSection title="Fake token">
        <p data-testid="isolated-token">
          {token === null ? "No token." : `Token present: ${token}`}
        </p>
        <div className="mt-3 flex flex-wrap gap-2">
          <Button
            size="sm"
            onClick={() => {
              writeStorage(
                getBrowserStorage("localStorage"),
                STORAGE_KEYS.authToken,
                ISOLATED_FAKE_TOKEN,
              );
              rerender();
            }}
          >
            Set fake token
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              removeStorageIfPresent(getBrowserStorage("localStorage"), STORAGE_KEYS.authToken);
              rerender();
            }}
          >
            Clear token
          </Button>
          <ButtonLink to="/isolated-dashboard" variant="secondary" size="sm">
            Open the isolated dashboard
          </ButtonLink>
        </div>
      </DebugSection>
    </DebugFrame>
  );
}

export function IsolatedDashboardPage() {
  const navigate = useNavigate();
  const [token, setToken] = useState<string | null | undefined>(undefined);

  useEffect(() => {
    const timer = setTimeout(() => {
      const found = readToken();
      if (found === null) navigate("/isolated-auth", { replace: true });
      else setToken(found);
    }, ISOLATED_CHECK_MS);
    return () => clearTimeout(timer);
  }, [navigate]);

  return (
    <DebugFrame
      title="Isolated dashboard"
      description="Checks the fake token (500 ms) before showing anything."
    >
      <DebugSection title="Token check">
        {token === undefined ? (
          <Spinner label="Checking the fake token…" />
        ) : (
          <p data-testid="isolated-dashboard-ok">
            Token present ({token}): the isolated dashboard is open.
          </p>
        )}
      </DebugSection>
    </DebugFrame>
  );
}
