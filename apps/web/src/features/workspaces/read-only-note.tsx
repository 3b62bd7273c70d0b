/** The reason beside a disabled action (a viewer's "New session"), named by the button. */
export function ReadOnlyNote({ id, reason }: { id: string; reason: string | null }) {
  if (reason === null) return null;
  return (
    <p id={id} className="text-xs text-amber-900" data-testid="read-only-note">
      {reason}
    </p>
  );
}
