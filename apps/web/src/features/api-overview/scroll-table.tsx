import type { ReactNode } from "react";

/** A table that scrolls inside the text column on a phone instead of widening the page. */
export function ScrollTable({ children }: { children: ReactNode }) {
  return (
    <div className="overflow-x-auto">
      <table>{children}</table>
    </div>
  );
}
