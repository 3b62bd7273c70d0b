/** A responsibility note for regulated or high-stakes fields. */
export function CautionNote({ children }: { children: string }) {
  return (
    <aside
      aria-label="Before you start"
      className="rounded-2xl border border-amber-200 bg-amber-50 p-5 text-sm leading-6 text-amber-950"
    >
      <p>
        <strong className="font-semibold">Before you start: </strong>
        {children}
      </p>
    </aside>
  );
}
