import { DOCUMENT_KIND_LABELS } from "@cohort/contracts";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Spinner } from "../../components/spinner";
import { formatCount } from "../../lib/format/numbers";
import { useDocuments } from "./documents-api";

export interface DocumentPickerProps {
  /** Ids of the chosen documents. */
  selected: string[];
  onChange(ids: string[]): void;
  /** The group's visible name; defaults to "Documents". */
  label?: string;
}

/**
 * Checkboxes of the user's ready documents, for the new-session dialog and a session's attach
 * control. Documents still being read are counted, not offered: they cannot be searched yet.
 * A selected id that is no longer ready stays selected until the user unticks it elsewhere.
 */
export function DocumentPicker({ selected, onChange, label = "Documents" }: DocumentPickerProps) {
  const { data, isPending, isError, refetch } = useDocuments();

  const toggle = (id: string, checked: boolean) => {
    onChange(checked ? [...selected, id] : selected.filter((other) => other !== id));
  };

  let body: ReactNode;
  if (isPending) body = <Spinner size="sm" label="Loading your documents…" />;
  else if (isError) {
    body = (
      <p className="text-sm text-ink-700">
        Your documents could not be loaded.{" "}
        <button
          type="button"
          className="font-medium text-brand-700 hover:underline"
          onClick={() => void refetch()}
        >
          Try again
        </button>
      </p>
    );
  } else {
    const ready = data.documents.filter((document) => document.status === "ready");
    const reading = data.documents.filter((document) => document.status === "processing").length;
    body = (
      <>
        {ready.length === 0 ? (
          <p className="text-sm text-ink-600">
            No documents ready yet.{" "}
            <Link to="/documents" className="font-medium text-brand-700 hover:underline">
              Upload some on the Documents page
            </Link>
            .
          </p>
        ) : (
          <ul className="grid max-h-60 gap-1 overflow-y-auto" data-testid="document-picker-list">
            {ready.map((document) => (
              <li key={document.id}>
                <label className="flex cursor-pointer items-start gap-2.5 rounded-lg px-2 py-1.5 hover:bg-ink-50">
                  <input
                    type="checkbox"
                    checked={selected.includes(document.id)}
                    onChange={(event) => toggle(document.id, event.target.checked)}
                    className="mt-0.5 size-4 shrink-0 accent-brand-600"
                  />
                  <span className="min-w-0">
                    <span className="block truncate text-sm font-medium text-ink-900">
                      {document.name}
                    </span>
                    <span className="block text-xs text-ink-500">
                      {DOCUMENT_KIND_LABELS[document.kind]}
                      {document.pages === null ? "" : ` · ${formatCount(document.pages, "page")}`}
                    </span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {reading > 0 ? (
          <p className="mt-1 text-xs text-ink-500">
            {formatCount(reading, "more document")} still being read.
          </p>
        ) : null}
      </>
    );
  }

  return (
    <fieldset className="grid min-w-0 gap-1.5" data-testid="document-picker">
      <legend className="mb-1.5 text-sm font-medium text-ink-800">{label}</legend>
      {body}
    </fieldset>
  );
}
