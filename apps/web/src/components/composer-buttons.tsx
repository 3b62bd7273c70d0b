import type { ReactNode } from "react";
import { Button } from "./button";

/** A message box's submit button, with its arrow; `children` say what it does now ("Send"). */
export function SendButton({ disabled, children }: { disabled: boolean; children: ReactNode }) {
  return (
    <Button type="submit" disabled={disabled}>
      {children}
      <svg viewBox="0 0 16 16" aria-hidden="true" className="size-4" fill="none">
        <path
          d="M2.5 8h10m0 0L8.5 4m4 4l-4 4"
          stroke="currentColor"
          strokeWidth="1.75"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </Button>
  );
}

/** Stops what is answering, in a message box's place of Send. */
export function StopButton({
  onClick,
  disabled,
  children,
}: {
  onClick(): void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Button
      type="button"
      variant="outline"
      onClick={onClick}
      disabled={disabled}
      className="border-red-300 text-red-700 hover:border-red-400 hover:bg-red-50"
    >
      <span aria-hidden="true" className="size-2.5 rounded-[2px] bg-current" />
      {children}
    </Button>
  );
}
