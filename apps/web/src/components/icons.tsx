/** Small stroke icons shared by the UI; each inherits the text colour and hides from AT. */

/** One path drawn in the text colour on a 16-unit square, with rounded ends and joins. */
function StrokeIcon({
  d,
  strokeWidth,
  className,
}: {
  d: string;
  strokeWidth: string;
  className: string;
}) {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" className={className}>
      <path
        d={d}
        stroke="currentColor"
        strokeWidth={strokeWidth}
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function CloseIcon({ className = "size-4" }: { className?: string }) {
  return <StrokeIcon d="M4 4l8 8M12 4l-8 8" strokeWidth="1.75" className={className} />;
}

/** A chooser's "opens a list" mark: a small chevron up over one down. */
export function UpDownIcon({ className = "size-4" }: { className?: string }) {
  return <StrokeIcon d="M5 6l3-3 3 3M5 10l3 3 3-3" strokeWidth="1.5" className={className} />;
}

/** The tick beside a chosen item. */
export function CheckIcon({ className = "size-4" }: { className?: string }) {
  return <StrokeIcon d="M3 8.5l3 3 7-7" strokeWidth="2" className={className} />;
}

/** The narrow layouts' menu button: three bars, or a cross while the menu is open. */
export function MenuIcon({ open = false }: { open?: boolean }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-6">
      <path
        d={open ? "M6 6l12 12M18 6L6 18" : "M4 7h16M4 12h16M4 17h16"}
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** A disclosure's mark: points right while closed; the caller's class turns it when open. */
export function ChevronRightIcon({ className = "size-4" }: { className?: string }) {
  return <StrokeIcon d="M6 4l4 4-4 4" strokeWidth="1.75" className={className} />;
}

/** A menu's "opens below" mark; the caller's class turns it while the menu is open. */
export function ChevronDownIcon({ className = "size-4" }: { className?: string }) {
  return <StrokeIcon d="M4 6l4 4 4-4" strokeWidth="1.5" className={className} />;
}
