import { useEffect } from "react";
import { buttonClasses } from "../../components/button";
import { MAIN_CONTENT_ID } from "../../components/skip-link";

/** A page's code failed to load (often a new release replaced it) or the page crashed. */
function describeError(error: unknown): { title: string; text: string } {
  const message = error instanceof Error ? error.message : "";
  if (
    /dynamically imported module|Importing a module script failed|Failed to fetch/i.test(message)
  ) {
    return {
      title: "This page couldn't load",
      text: "You may be offline, or Cohort was updated since you opened this tab. Reload to try again.",
    };
  }
  return {
    title: "Something went wrong",
    text: "This page hit an unexpected error. Reloading usually fixes it; if it keeps happening, please let us know.",
  };
}

/** Replaces the whole page, layout included, when a page throws or its code fails to load. */
export function RouteErrorPage({ error }: { error: unknown }) {
  useEffect(() => {
    document.title = "Something went wrong — Cohort";
  }, []);
  const { title, text } = describeError(error);
  return (
    <main
      id={MAIN_CONTENT_ID}
      tabIndex={-1}
      className="flex min-h-dvh items-center justify-center bg-ink-50 px-4 outline-none"
    >
      <div className="max-w-md text-center">
        <p className="text-sm font-semibold text-brand-700">Cohort</p>
        <h1 className="mt-2 text-2xl font-bold tracking-tight text-ink-950">{title}</h1>
        <p className="mt-3 text-ink-600">{text}</p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <button
            type="button"
            className={buttonClasses()}
            onClick={() => window.location.reload()}
          >
            Reload page
          </button>
          <a href="/" className={buttonClasses({ variant: "outline" })}>
            Go to Homepage
          </a>
          <a href="/contact" className={buttonClasses({ variant: "ghost" })}>
            Contact us
          </a>
        </div>
      </div>
    </main>
  );
}
