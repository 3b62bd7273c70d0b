import { type FormEvent, type ReactNode, useState } from "react";
import { useSearchParams } from "react-router";
import { Button } from "../../components/button";
import { Field } from "../../components/form";

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
