import { Link, useNavigate } from "react-router";
import { Button, ButtonLink } from "../../components/button";
import { Container } from "../../components/container";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";

const HELPFUL_LINKS = [
  { to: "/login", label: "Sign in", text: "Pick up your sessions where you left them." },
  { to: "/use-cases", label: "Use cases", text: "See how teams put Cohort to work." },
  { to: "/pricing", label: "Pricing", text: "Plans, credits and what each one includes." },
  { to: "/docs", label: "Documentation", text: "Set up Cohort and learn how runs work." },
  { to: "/contact", label: "Contact", text: "Tell us what you were looking for." },
] as const;

/** The route table: any unknown path. Not indexed; offers a way home, a way back and the main doors. */
export function NotFoundPage() {
  useDocumentMeta({ title: "Page not found", noindex: true });
  const navigate = useNavigate();

  const goBack = () => {
    // A tab opened straight on a dead link has nowhere to go back to.
    if (window.history.length > 1) window.history.back();
    else navigate("/");
  };

  return (
    <Container size="prose" className="py-20 sm:py-28">
      <p className="text-sm font-semibold tracking-wide text-brand-700">404</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight text-ink-950 sm:text-5xl">
        Page not found
      </h1>
      <p className="mt-4 text-lg text-ink-600">
        We couldn't find the page you asked for. It may have moved, or the link may be mistyped.
      </p>
      <div className="mt-8 flex flex-wrap gap-3">
        <ButtonLink to="/" size="lg">
          Go to Homepage
        </ButtonLink>
        <Button variant="outline" size="lg" onClick={goBack}>
          Go Back
        </Button>
      </div>
      <nav aria-labelledby="not-found-links" className="mt-14 border-t border-ink-200 pt-8">
        <h2 id="not-found-links" className="text-sm font-semibold text-ink-900">
          Popular places
        </h2>
        <ul className="mt-4 grid gap-3 sm:grid-cols-2">
          {HELPFUL_LINKS.map((link) => (
            <li key={link.to}>
              <LinkCard {...link} />
            </li>
          ))}
        </ul>
      </nav>
    </Container>
  );
}

function LinkCard({ to, label, text }: { to: string; label: string; text: string }) {
  return (
    <Link
      to={to}
      className="block rounded-xl border border-ink-200 p-4 transition-colors hover:border-brand-300 hover:bg-brand-50"
    >
      <span className="font-semibold text-brand-700">{label}</span>
      <span className="mt-1 block text-sm text-ink-600">{text}</span>
    </Link>
  );
}
