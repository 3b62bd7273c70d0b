import { Button } from "./button";
import { Card } from "./card";

const ROW = "flex flex-wrap items-center gap-3 text-sm text-ink-700";

/**
 * A read that failed: what could not be loaded and a "Try again" that reads it again; `card`
 * sets it in a card of its own, where it stands for a whole section.
 */
export function LoadFailed({
  message,
  retry,
  card = false,
}: {
  message: string;
  retry(): unknown;
  card?: boolean;
}) {
  const content = (
    <>
      <p>{message}</p>
      <Button variant="outline" size="sm" onClick={() => void retry()}>
        Try again
      </Button>
    </>
  );
  return card ? (
    <Card className={`${ROW} p-5`}>{content}</Card>
  ) : (
    <div className={ROW}>{content}</div>
  );
}
