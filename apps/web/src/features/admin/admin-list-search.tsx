import { type FormEvent, type ReactNode, type SelectHTMLAttributes, useState } from "react";
import { useSearchParams } from "react-router";
import { Button } from "../../components/button";
import { Field, inputClasses } from "../../components/form";
import { QueryState } from "./admin-page";
import { Pager } from "./pager";

/**
 * An admin list's search, sort and page, kept in the address so that Back from a row's page
 * returns to the same list. `update` sets the named parameters and drops the empty ones.
 */
export function useAdminListSearch() {
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const page = Math.max(1, Number(params.get("page")) || 1);
  const [draft, setDraft] = useState(q);
  const update = (next: Record<string, string>) => {
    const merged = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value) merged.set(key, value);
      else merged.delete(key);
    }
    setParams(merged);
  };
  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    update({ q: draft.trim(), page: "" });
  };
  return { params, q, page, draft, setDraft, update, onSearch };
}

/** The search form above an admin list; `children` stand between the field and the button. */
export function AdminSearchForm({
  label,
  fieldLabel,
  placeholder,
  search,
  children,
}: {
  label: string;
  fieldLabel: string;
  placeholder: string;
  search: Pick<ReturnType<typeof useAdminListSearch>, "draft" | "setDraft" | "onSearch">;
  children?: ReactNode;
}) {
  return (
    <form onSubmit={search.onSearch} aria-label={label} className="flex flex-wrap items-end gap-3">
      <Field
        label={fieldLabel}
        type="search"
        className="min-w-64 flex-1"
        placeholder={placeholder}
        value={search.draft}
        onChange={(e) => search.setDraft(e.target.value)}
      />
      {children}
      <Button type="submit">Search</Button>
    </form>
  );
}

/**
 * An admin list's page of results: the loading or error state, `empty` when the page holds
 * nothing, else the rows and the pager (which moves the address's page).
 */
export function AdminListResults<Page extends { page: number; pageSize: number; total: number }>({
  result,
  label,
  empty,
  isEmpty,
  search,
  children,
}: {
  result: { data: Page | undefined; isPending: boolean; isError: boolean };
  /** What the list holds, for the loading and error states: "users". */
  label: string;
  empty: string;
  isEmpty(page: Page): boolean;
  search: Pick<ReturnType<typeof useAdminListSearch>, "update">;
  children(page: Page): ReactNode;
}) {
  const { data, isPending, isError } = result;
  if (isPending || isError || data === undefined) {
    return <QueryState isError={isError} label={label} />;
  }
  if (isEmpty(data)) return <p className="text-sm text-ink-600">{empty}</p>;
  return (
    <>
      {children(data)}
      <Pager
        page={data.page}
        pageSize={data.pageSize}
        total={data.total}
        onPage={(next) => search.update({ page: String(next) })}
      />
    </>
  );
}

/** A filter or sort choice of an admin list: its name above a select wrapped in one label. */
export function AdminSelect({
  label,
  children,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; children: ReactNode }) {
  return (
    <label className="grid gap-1.5 text-sm font-medium text-ink-800">
      {label}
      <select className={inputClasses} {...props}>
        {children}
      </select>
    </label>
  );
}
