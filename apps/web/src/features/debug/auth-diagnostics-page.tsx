import { useReducer } from "react";
import { refreshProfile } from "../../auth/auth-store";
import { readNavigationHistory } from "../../auth/navigation-history";
import { resetRouteLoop, routeLoopDetector } from "../../auth/navigation-tracker";
import { readLoginRedirectState, resetLoginRedirectState } from "../../auth/redirect-loop-guard";
import { useAuth } from "../../auth/use-auth";
import { Button } from "../../components/button";
import {
  getBrowserStorage,
  removeStorageIfPresent,
  STORAGE_KEYS,
} from "../../lib/storage/browser-storage";
import { DebugFrame, DebugSection, KeyValueTable } from "./debug-frame";
import { browserStorage, describeStorage } from "./storage-view";

const time = (ms: number | null) =>
  ms === null ? "never" : new Date(ms).toLocaleTimeString("en-US", { hour12: false });

/** Everything the app knows about sign-in in this tab, and buttons to reset it. */
function AuthDiagnostics({ title }: { title: string }) {
  const auth = useAuth();
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const session = getBrowserStorage("sessionStorage");
  const redirects = readLoginRedirectState(session);
  const history = readNavigationHistory(session);
  const detector = routeLoopDetector.snapshot();

  return (
    <DebugFrame
      title={title}
      description="The sign-in state of this tab, the storage keys behind it (secrets hidden), the navigation history and the loop guards."
    >
      <DebugSection title="Auth state">
        <KeyValueTable
          rows={[
            { key: "status", value: auth.status },
            { key: "user.id", value: auth.user?.id ?? "—" },
            { key: "user.email", value: auth.user?.email ?? "—" },
            { key: "user.role", value: auth.user?.role ?? "—" },
            { key: "user.emailVerified", value: auth.user ? String(auth.user.emailVerified) : "—" },
          ]}
        />
        <Button
          variant="outline"
          size="sm"
          className="mt-3"
          onClick={async () => {
            await refreshProfile();
            rerender();
          }}
        >
          Check the session again
        </Button>
      </DebugSection>

      <DebugSection title="Login redirect-loop guard">
        <KeyValueTable
          rows={[
            { key: STORAGE_KEYS.loginRedirectCount, value: String(redirects.count) },
            { key: STORAGE_KEYS.lastLoginRedirect, value: time(redirects.lastAt) },
          ]}
        />
        <Button
          variant="outline"
          size="sm"
          className="mt-3"
          onClick={() => {
            resetLoginRedirectState(session);
            rerender();
          }}
        >
          Reset redirect counters
        </Button>
      </DebugSection>

      <DebugSection title="Route-loop detector">
        <KeyValueTable
          rows={[
            { key: "looping", value: String(routeLoopDetector.looping) },
            { key: "recording since", value: time(detector.startedAt) },
            ...detector.visits.map((visit, index) => ({
              key: `visit ${index + 1}`,
              value: `${time(visit.time)} ${visit.path}`,
            })),
          ]}
        />
        <Button
          variant="outline"
          size="sm"
          className="mt-3"
          onClick={() => {
            resetRouteLoop();
            rerender();
          }}
        >
          Reset the detector
        </Button>
      </DebugSection>

      <DebugSection title={`Navigation history (${history.length} of 20)`}>
        {history.length === 0 ? (
          <p className="text-ink-500">No entries.</p>
        ) : (
          <ol className="grid gap-1 font-mono text-xs" data-testid="navigation-history">
            {history.map((entry, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a log in order; entries may repeat
              <li key={index}>
                {time(entry.time)} {entry.path}
                {entry.search}
              </li>
            ))}
          </ol>
        )}
        <Button
          variant="outline"
          size="sm"
          className="mt-3"
          onClick={() => {
            removeStorageIfPresent(session, STORAGE_KEYS.navigationHistory);
            rerender();
          }}
        >
          Clear navigation history
        </Button>
      </DebugSection>

      <DebugSection title="localStorage">
        <KeyValueTable rows={describeStorage(browserStorage("localStorage"))} />
      </DebugSection>
      <DebugSection title="sessionStorage">
        <KeyValueTable rows={describeStorage(browserStorage("sessionStorage"))} />
      </DebugSection>
    </DebugFrame>
  );
}

export function DebugAuthPage() {
  return <AuthDiagnostics title="Auth debug" />;
}

export function AuthDebugPage() {
  return <AuthDiagnostics title="Auth state" />;
}

export function AuthDebugPagePage() {
  return <AuthDiagnostics title="Auth debug page" />;
}
