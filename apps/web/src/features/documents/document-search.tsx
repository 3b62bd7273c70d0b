import { DOCUMENT_SEARCH_QUERY_MAX, type TSearchMode } from "@cohort/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Link } from "react-router";
import { Button } from "../../components/button";
import { cn } from "../../components/cn";
import { inputClasses } from "../../components/form";
import { Spinner } from "../../components/spinner";
import { isApiError } from "../../lib/api/api-error";
import { formatCount } from "../../lib/format/numbers";
import { documentKeys, documentViewerPath, searchDocuments } from "./documents-api";
import { passageLocation, searchModeText } from "./documents-format";
import { HighlightedSnippet } from "./highlighted-snippet";

/** Search across all the user's documents; a result opens the viewer at its passage. */
export function DocumentSearch({
  mode,
  embeddingModel,
}: {
  mode: TSearchMode;
  embeddingModel?: string | null;
}) {
  const inputId = useId();
  const hintId = useId();
  const [draft, setDraft] = useState("");
  const [query, setQuery] = useState("");
  const { data, isFetching, isError, error } = useQuery({
    queryKey: documentKeys.search(query, []),
    queryFn: ({ signal }) => searchDocuments(query, { limit: 20, signal }),
    enabled: query.length > 0,
    placeholderData: keepPreviousData,
  });
  const shownMode = data?.mode ?? mode;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQuery(draft.trim());
  };

  return (
    <div className="grid gap-3">
      <search>
        <form onSubmit={submit} className="grid gap-1.5">
          <label htmlFor={inputId} className="text-sm font-medium text-ink-800">
            Search your documents
          </label>
          <div className="flex gap-2">
            <input
              id={inputId}
              type="search"
              value={draft}
              maxLength={DOCUMENT_SEARCH_QUERY_MAX}
              onChange={(event) => setDraft(event.target.value)}
              placeholder="A word or phrase"
              aria-describedby={hintId}
              className={cn(inputClasses, "min-w-0 flex-1")}
            />
            <Button type="submit" variant="outline" disabled={draft.trim().length === 0}>
              Search
            </Button>
          </div>
          <p id={hintId} className="text-xs text-ink-500" data-testid="search-mode">
            {searchModeText(shownMode, embeddingModel)}
          </p>
        </form>
      </search>

      <div aria-live="polite" aria-busy={isFetching || undefined}>
        {query.length === 0 ? null : isError ? (
          <p className="text-sm text-red-700">
            {isApiError(error) ? error.message : "The search failed. Please try again."}
          </p>
        ) : !data ? (
          <Spinner label="Searching…" />
        ) : data.passages.length === 0 ? (
          <p className="text-sm text-ink-600">No passage matches “{data.query}”.</p>
        ) : (
          <div className="grid gap-2">
            <p className="text-xs text-ink-600">
              {formatCount(data.passages.length, "passage")} for “{data.query}”
              {isFetching ? " (updating…)" : ""}
            </p>
            <ol className="grid gap-2" data-testid="search-results">
              {data.passages.map((passage) => (
                <li key={passage.chunk_id}>
                  <Link
                    to={documentViewerPath(passage.document_id, passage.chunk_id)}
                    className="block rounded-xl border border-ink-200 bg-white px-4 py-3 transition-colors hover:border-brand-300 hover:bg-brand-50/40 focus-visible:outline-2 focus-visible:outline-brand-600"
                    data-testid="search-result"
                  >
                    <span className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
                      <span className="min-w-0 truncate text-sm font-semibold text-ink-950">
                        {passage.document_name}
                      </span>
                      <span className="shrink-0 text-xs text-ink-500">
                        {passageLocation(passage)}
                      </span>
                    </span>
                    <span className="mt-1 block text-sm leading-6 text-ink-700">
                      <HighlightedSnippet snippet={passage.snippet} />
                    </span>
                  </Link>
                </li>
              ))}
            </ol>
          </div>
        )}
      </div>
    </div>
  );
}
