import type { TSessionDocument } from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/button";
import { DialogFrame } from "../../components/dialog-frame";
import { FormMessage } from "../../components/form";
import { toast } from "../../components/toast/toast-store";
import { formatCount } from "../../lib/format/numbers";
import { apiMessage, usePendingAction } from "../../lib/ui/use-pending-action";
import { DocumentPicker } from "../documents/document-picker";
import { chatKeys, putSessionDocuments, useSessionDocuments } from "./chat-api";

function DocumentsIcon() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" className="size-4" fill="none">
      <path
        d="M4 1.75h5.5L12.5 4.75v9.5H4z"
        stroke="currentColor"
        strokeWidth="1.4"
        strokeLinejoin="round"
      />
      <path d="M6 8h4.5M6 10.5h4.5" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" />
    </svg>
  );
}

function AttachDialog({
  sessionId,
  attached,
  open,
  onOpenChange,
}: {
  sessionId: string;
  attached: readonly TSessionDocument[];
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<string[]>(() => attached.map((d) => d.id));
  const {
    pending: busy,
    error,
    run,
  } = usePendingAction(apiMessage("The documents could not be attached."));
  const save = () =>
    run(async () => {
      const saved = await putSessionDocuments(sessionId, selected);
      queryClient.setQueryData(chatKeys.documents(sessionId), saved);
      toast({
        title:
          saved.documents.length === 0
            ? "No documents attached"
            : `${formatCount(saved.documents.length, "document")} attached`,
        variant: "success",
      });
      onOpenChange(false);
    });
  return (
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      title="Session documents"
      description="The team searches these in this session's next runs and cites what it uses."
      testId="session-documents-dialog"
    >
      <div className="grid grid-cols-1 gap-4 px-5 py-5 sm:px-6">
        <DocumentPicker selected={selected} onChange={setSelected} label="Attached documents" />
        <FormMessage>{error}</FormMessage>
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button onClick={() => void save()} disabled={busy}>
            {busy ? "Saving…" : "Save"}
          </Button>
        </div>
      </div>
    </DialogFrame>
  );
}

/** The header's "Documents (n)" control: which documents the session's runs work from. */
export function SessionDocumentsButton({ sessionId }: { sessionId: string }) {
  const documents = useSessionDocuments(sessionId);
  const [open, setOpen] = useState(false);
  const attached = documents.data ?? [];
  const names = attached.map((d) => d.name).join(", ");
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        onClick={() => setOpen(true)}
        disabled={documents.isPending}
        title={names ? `Attached: ${names}` : "No documents attached"}
        aria-label={`Documents (${attached.length})`}
        data-testid="session-documents"
      >
        <DocumentsIcon />
        <span className="hidden sm:inline">Documents</span> ({attached.length})
      </Button>
      {open ? (
        <AttachDialog sessionId={sessionId} attached={attached} open onOpenChange={setOpen} />
      ) : null}
    </>
  );
}
