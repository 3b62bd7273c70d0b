import { Spinner } from "../components/spinner";

/** The UI states: what a screen that needs the sign-in state shows while it is still loading. */
export function FullScreenSpinner({ label = "Checking your sign-in…" }: { label?: string }) {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-ink-50">
      <Spinner size="lg" label={label} />
    </div>
  );
}
