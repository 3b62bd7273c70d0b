import { SESSION_EXPORT_ROUTES, type TExportFormat } from "@cohort/contracts";
import { DropdownMenu } from "radix-ui";

const FORMATS: { format: TExportFormat; label: string }[] = [
  { format: "markdown", label: "Markdown (.md)" },
  { format: "json", label: "JSON (.json, can be imported)" },
  { format: "pdf", label: "PDF (.pdf)" },
];

/**
 * The "Export" group of the session header's Session actions menu: each item is a plain
 * link, so the browser downloads the file with the sign-in cookie (the server sends it as
 * an attachment with a name made from the title).
 */
export function ExportMenuItems({
  sessionId,
  className,
}: {
  sessionId: string;
  className: string;
}) {
  return (
    <DropdownMenu.Group aria-label="Export">
      <DropdownMenu.Separator className="my-1 h-px bg-ink-100" />
      <DropdownMenu.Label className="px-3 pt-1.5 pb-1 text-xs font-semibold tracking-wide text-ink-500 uppercase">
        Export
      </DropdownMenu.Label>
      {FORMATS.map(({ format, label }) => (
        <DropdownMenu.Item key={format} asChild className={className}>
          <a href={SESSION_EXPORT_ROUTES.export(sessionId, format)} download>
            {label}
          </a>
        </DropdownMenu.Item>
      ))}
      <DropdownMenu.Separator className="my-1 h-px bg-ink-100" />
    </DropdownMenu.Group>
  );
}
