import { importedFromLabel } from "@cohort/contracts";

/** The "Imported" mark of a run that came in with a session import. */
export function ImportedBadge() {
  return (
    <span
      className="inline-flex items-center rounded-full bg-ink-100 px-2 py-0.5 text-xs font-medium text-ink-700 ring-1 ring-ink-200 ring-inset"
      title="This run came in with an imported session: it ran elsewhere and cost nothing here."
      data-testid="run-imported"
    >
      Imported
    </span>
  );
}

/** The mark of a whole session that came in with an import: which export it is a copy of. */
export function ImportedSessionMark({ exportedAt }: { exportedAt: string }) {
  return (
    <span
      className="inline-flex items-center rounded-full bg-ink-100 px-2 py-0.5 text-xs font-medium text-ink-700 ring-1 ring-ink-200 ring-inset"
      data-testid="session-imported"
    >
      {importedFromLabel(exportedAt)}
    </span>
  );
}
