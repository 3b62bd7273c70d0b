import { AGENT_ROLE_NAMES, STEER_NOTE_MAX, STEERING_MESSAGES } from "@cohort/contracts";
import { useContext, useEffect, useId, useRef, useState } from "react";
import { Button } from "../../components/button";
import { isApiError } from "../../lib/api/api-error";
import { ApprovalActionsContext, useLanesRun } from "./lane-tools";
import type { LaneView } from "./run-state";
import { steerLane } from "./steering-api";

/**
 * Steer and Skip on a streaming agent lane (decision 069), and the notes it was steered with.
 * Steer opens a short note; sending it stops the lane's call (its text is kept) and the lane
 * goes on with the note. Skip ends the lane; the run goes on without it.
 */
export function LaneSteer({ lane }: { lane: LaneView }) {
  const run = useLanesRun();
  const actions = useContext(ApprovalActionsContext);
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const noteId = useId();
  const steerButton = useRef<HTMLButtonElement>(null);
  const skippedNote = useRef<HTMLParagraphElement>(null);
  /** Skip took its button away: the focus goes to the note that says so once it shows. */
  const [skipping, setSkipping] = useState(false);
  useEffect(() => {
    if (skipping && lane.skipped) {
      skippedNote.current?.focus();
      setSkipping(false);
    }
  }, [skipping, lane.skipped]);
  const notes = lane.steerNotes ?? [];
  const live =
    run !== null &&
    actions?.canDecide === true &&
    run.status === "running" &&
    lane.kind === "agent" &&
    lane.rerunOf === null &&
    lane.status === "running" &&
    !lane.skipped;
  if (notes.length === 0 && !lane.skipped && !live) return null;

  /** Closes the note and puts focus back on Steer, where the keyboard left off. */
  const close = () => {
    setOpen(false);
    requestAnimationFrame(() => steerButton.current?.focus());
  };

  const send = async (action: "steer" | "skip") => {
    if (!run || !actions) return;
    setBusy(true);
    setError(null);
    try {
      await steerLane(actions.sessionId, run.id, lane.stepId, {
        action,
        note: action === "steer" ? note.trim() : "",
      });
      if (action === "skip") setSkipping(true);
      else close();
      setNote("");
    } catch (failure) {
      setError(isApiError(failure) ? failure.message : "The lane could not be steered.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="grid gap-2 border-t border-ink-100 px-3 py-2 text-xs" data-testid="lane-steer">
      {notes.map((text, i) => (
        <p
          // biome-ignore lint/suspicious/noArrayIndexKey: notes are only ever appended
          key={i}
          className="rounded-lg border border-brand-200 bg-brand-50 px-2.5 py-1.5 text-brand-900"
          data-testid="lane-steer-note"
        >
          Steered: {text}
        </p>
      ))}
      {lane.skipped ? (
        <p
          ref={skippedNote}
          tabIndex={-1}
          className="rounded text-ink-600 focus-visible:outline-2 focus-visible:outline-brand-500"
          data-testid="lane-skipped"
        >
          {STEERING_MESSAGES.skipped(AGENT_ROLE_NAMES[lane.role])}
        </p>
      ) : null}
      {live && !open ? (
        <div className="flex gap-2">
          <Button
            ref={steerButton}
            size="sm"
            variant="outline"
            onClick={() => setOpen(true)}
            aria-label={`${STEERING_MESSAGES.steer} this lane`}
          >
            {STEERING_MESSAGES.steer}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={busy}
            onClick={() => void send("skip")}
            aria-label={`${STEERING_MESSAGES.skip} this lane`}
          >
            {STEERING_MESSAGES.skip}
          </Button>
        </div>
      ) : null}
      {live && open ? (
        <form
          className="grid gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (note.trim()) void send("steer");
          }}
          onKeyDown={(event) => {
            if (event.key === "Escape") close();
          }}
        >
          <label htmlFor={noteId} className="font-medium text-ink-800">
            A note for this lane
          </label>
          <input
            id={noteId}
            // biome-ignore lint/a11y/noAutofocus: the note is what Steer opened
            autoFocus
            maxLength={STEER_NOTE_MAX}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            placeholder={STEERING_MESSAGES.steerPlaceholder}
            className="w-full rounded-lg border border-ink-300 px-2 py-1.5 text-sm focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-brand-500"
            data-testid="lane-steer-input"
          />
          <div className="flex gap-2">
            <Button size="sm" type="submit" disabled={busy || note.trim() === ""}>
              {busy ? "Steering…" : STEERING_MESSAGES.steer}
            </Button>
            <Button size="sm" variant="ghost" onClick={close}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
      {error ? (
        <p role="alert" className="text-red-800">
          {error}
        </p>
      ) : null}
    </div>
  );
}
