import { DOCUMENT_NAME_MAX, type TDocument } from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { Button, buttonClasses } from "../../components/button";
import { cn } from "../../components/cn";
import { ConfirmButtons } from "../../components/confirm-buttons";
import { inputClasses } from "../../components/form";
import { toast } from "../../components/toast/toast-store";
import { isApiError } from "../../lib/api/api-error";
import { formatDateTime, formatWhen } from "../../lib/format/dates";
import { DocumentStatusBadge } from "./document-status";
import {
  deleteDocument,
  documentDownloadUrl,
  documentViewerPath,
  refreshDocuments,
  renameDocument,
} from "./documents-api";
import { documentFacts } from "./documents-format";

function messageOf(error: unknown, fallback: string): string {
  return isApiError(error) ? error.message : fallback;
}

function RenameForm({ document, onDone }: { document: TDocument; onDone(): void }) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState(document.name);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    input.current?.select();
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === document.name) {
      onDone();
      return;
    }
    if (trimmed.length === 0) {
      setError("Enter a name.");
      return;
    }
    setSaving(true);
    try {
      await renameDocument(document.id, trimmed);
      await refreshDocuments(queryClient);
      toast({ title: "Document renamed", variant: "success" });
      onDone();
    } catch (cause) {
      setError(messageOf(cause, "Could not rename the document."));
      setSaving(false);
    }
  };

  return (
    <form
      onSubmit={submit}
      onKeyDown={(event) => {
        if (event.key === "Escape") onDone();
      }}
      className="grid gap-1.5"
    >
      <label htmlFor={inputId} className="sr-only">
        New name for {document.name}
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={input}
          id={inputId}
          value={name}
          maxLength={DOCUMENT_NAME_MAX}
          onChange={(event) => setName(event.target.value)}
          aria-invalid={error ? true : undefined}
          className={cn(inputClasses, "min-w-0 flex-1 py-1.5 sm:max-w-md")}
        />
        <Button size="sm" type="submit" disabled={saving}>
          {saving ? "Saving…" : "Save"}
        </Button>
        <Button size="sm" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
      {error ? (
        <p role="alert" className="text-xs font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </form>
  );
}

function SessionLinks({ document }: { document: TDocument }) {
  if (document.sessions.length === 0) {
    return <span className="text-ink-500">Not used in a session yet</span>;
  }
  return (
    <span>
      Used in{" "}
      {document.sessions.map((session, index) => (
        <span key={session.id}>
          {index > 0 ? ", " : null}
          <Link
            to={`/chat/${session.id}`}
            className="font-medium text-brand-700 underline-offset-2 hover:underline"
          >
            {session.title}
          </Link>
        </span>
      ))}
    </span>
  );
}

function DocumentRow({ document }: { document: TDocument }) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<"view" | "rename" | "confirm-delete">("view");
  const [deleting, setDeleting] = useState(false);

  const remove = async () => {
    setDeleting(true);
    try {
      await deleteDocument(document.id);
      toast({ title: `Deleted ${document.name}`, variant: "success" });
      await refreshDocuments(queryClient);
    } catch (cause) {
      toast({ title: messageOf(cause, "Could not delete the document."), variant: "error" });
      setDeleting(false);
      setMode("view");
    }
  };

  const facts = documentFacts(document);

  return (
    <li className="grid gap-3 py-4" data-testid="document-row" data-document-id={document.id}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-1.5">
          {mode === "rename" ? (
            <RenameForm document={document} onDone={() => setMode("view")} />
          ) : (
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <Link
                to={documentViewerPath(document.id)}
                className="min-w-0 text-sm font-semibold break-words text-ink-950 underline-offset-2 hover:text-brand-800 hover:underline"
                data-testid="document-name"
              >
                {document.name}
              </Link>
              <DocumentStatusBadge status={document.status} />
            </div>
          )}
          <p className="text-xs text-ink-600" data-testid="document-facts">
            {facts.join(" · ")} · Uploaded{" "}
            <time dateTime={document.created_at} title={formatDateTime(document.created_at)}>
              {formatWhen(document.created_at)}
            </time>
          </p>
          {document.status === "failed" && document.failure_reason ? (
            <p className="text-xs font-medium text-red-700" data-testid="document-failure">
              {document.failure_reason}
            </p>
          ) : null}
          <p className="text-xs text-ink-600">
            <SessionLinks document={document} />
          </p>
        </div>
        {mode === "view" ? (
          <div className="flex shrink-0 flex-wrap items-center gap-2">
            <Button
              size="sm"
              variant="outline"
              onClick={() => setMode("rename")}
              aria-label={`Rename ${document.name}`}
            >
              Rename
            </Button>
            <a
              href={documentDownloadUrl(document.id)}
              download={document.name}
              className={buttonClasses({ variant: "outline", size: "sm" })}
              aria-label={`Download ${document.name}`}
            >
              Download
            </a>
            <Button
              size="sm"
              variant="ghost"
              className="text-red-700 hover:bg-red-50 hover:text-red-800"
              onClick={() => setMode("confirm-delete")}
              aria-label={`Delete ${document.name}`}
            >
              Delete
            </Button>
          </div>
        ) : null}
      </div>
      {mode === "confirm-delete" ? (
        <div
          className="flex flex-wrap items-center gap-2 rounded-lg bg-red-50/60 px-3 py-2"
          data-testid="confirm-delete"
        >
          <span className="text-sm text-ink-800">
            Delete {document.name}? The file and its index go too.
          </span>
          <span className="flex items-center gap-2">
            <ConfirmButtons
              action="Delete"
              pendingAction="Deleting…"
              pending={deleting}
              onConfirm={remove}
              onCancel={() => setMode("view")}
              cancelDisabled={deleting}
            />
          </span>
        </div>
      ) : null}
    </li>
  );
}

/** The user's documents, newest first, each with its facts, sessions and actions. */
export function DocumentList({ documents }: { documents: readonly TDocument[] }) {
  return (
    <ul className="divide-y divide-ink-100" data-testid="document-list">
      {documents.map((document) => (
        <DocumentRow key={document.id} document={document} />
      ))}
    </ul>
  );
}
