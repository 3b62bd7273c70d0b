import { Button } from "./button";
import { cn } from "./cn";

/**
 * The second step of a destructive action, shown in place of its first button: the action
 * itself in red, and Cancel. `small` fits a dense list row.
 */
export function ConfirmButtons({
  action,
  pendingAction,
  pending,
  onConfirm,
  onCancel,
  cancelDisabled = false,
  small = false,
}: {
  /** The confirming button's name ("Delete"), and its name while the action runs ("Deleting…"). */
  action: string;
  pendingAction: string;
  pending: boolean;
  onConfirm(): unknown;
  onCancel(): void;
  cancelDisabled?: boolean;
  small?: boolean;
}) {
  const size = small ? "h-7 px-2 text-xs" : undefined;
  return (
    <>
      <Button
        size="sm"
        variant="outline"
        className={cn("border-red-300 text-red-700 hover:bg-red-50", size)}
        onClick={() => void onConfirm()}
        disabled={pending}
      >
        {pending ? pendingAction : action}
      </Button>
      <Button
        size="sm"
        variant="ghost"
        className={size}
        onClick={onCancel}
        disabled={cancelDisabled}
      >
        Cancel
      </Button>
    </>
  );
}
