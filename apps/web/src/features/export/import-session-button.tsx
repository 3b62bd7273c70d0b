import {
  SESSION_EXPORT_ROUTES,
  SESSION_IMPORT_MAX_BYTES,
  type TSessionImportResponse,
} from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { type ChangeEvent, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "../../components/button";
import { toast } from "../../components/toast/toast-store";
import { api } from "../../lib/api/api";
import { isApiError } from "../../lib/api/api-error";
import { useReadOnlyReason } from "../workspaces/use-read-only-reason";
import { workspaceScope } from "../workspaces/workspace-store";

const MAX_MB = SESSION_IMPORT_MAX_BYTES / (1024 * 1024);

/** Reads the chosen file as JSON, or says plainly why it cannot be imported. */
async function readExport(file: File): Promise<unknown> {
  if (file.size > SESSION_IMPORT_MAX_BYTES) {
    throw new Error(`This file is larger than ${MAX_MB} MB, the most an import takes.`);
  }
  try {
    return JSON.parse(await file.text());
  } catch {
    throw new Error("This file is not a JSON export of a Cohort session.");
  }
}

/**
 * "Import session…" on the dashboard: a JSON export (from Export → JSON) becomes a new
 * session in the workspace in view, and opens. Its runs are marked imported and cost
 * nothing. Hidden for a viewer, who cannot add sessions.
 */
export function ImportSessionButton() {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const readOnly = useReadOnlyReason();
  if (readOnly !== null) return null;

  const chosen = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    setBusy(true);
    try {
      const body = await readExport(file);
      const imported = await api.post<TSessionImportResponse>(SESSION_EXPORT_ROUTES.import, body, {
        query: workspaceScope(),
      });
      void queryClient.invalidateQueries({ queryKey: ["sessions"] });
      toast({ title: `Imported “${imported.title}”.`, variant: "success" });
      navigate(`/chat/${imported.session_id}`);
    } catch (cause) {
      const message =
        isApiError(cause) || cause instanceof Error
          ? cause.message
          : "The session could not be imported.";
      toast({ title: message, variant: "error" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => void chosen(event)}
        data-testid="import-session-file"
      />
      <Button
        variant="outline"
        size="lg"
        disabled={busy}
        onClick={() => input.current?.click()}
        aria-describedby="import-session-hint"
      >
        {busy ? "Importing…" : "Import session…"}
      </Button>
      <span id="import-session-hint" className="sr-only">
        Choose a JSON export of a session (up to {MAX_MB} MB). Imported runs cost nothing.
      </span>
    </>
  );
}
