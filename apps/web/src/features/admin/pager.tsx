import { PageNav } from "../../components/page-nav";
import { formatNumber } from "../../lib/format/numbers";

/** Previous / next for the admin lists, with where the reader is. */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <PageNav
      label="Pages"
      page={page}
      pages={pages}
      onPage={onPage}
      className="text-sm text-ink-600"
    >
      <span>
        Page {formatNumber(page)} of {formatNumber(pages)} · {formatNumber(total)} in all
      </span>
    </PageNav>
  );
}
