import { FOOTER_LINKS } from "@cohort/contracts";
import { Suspense, useEffect, useId, useState } from "react";
import { Link, NavLink, Outlet, useLocation } from "react-router";
import { useAuth } from "../auth/use-auth";
import { ButtonLink } from "../components/button";
import { cn } from "../components/cn";
import { Container } from "../components/container";
import { MenuIcon } from "../components/icons";
import { Logo } from "../components/logo";
import { MAIN_CONTENT_ID } from "../components/skip-link";
import { PageSpinner } from "../components/spinner";
import { SIGN_UP_PATH } from "../lib/site";

/** What the header offers: the app to someone signed in, sign-in and sign-up to a visitor. */
function HeaderActions({ mobile = false }: { mobile?: boolean }) {
  const { status } = useAuth();
  if (status === "authenticated") {
    return (
      <ButtonLink
        to="/dashboard"
        size={mobile ? "md" : "sm"}
        className={mobile ? "col-span-2" : undefined}
      >
        Open app
      </ButtonLink>
    );
  }
  return (
    <>
      {mobile ? (
        <ButtonLink to="/login" variant="outline">
          Sign in
        </ButtonLink>
      ) : (
        <Link
          to="/login"
          className="rounded-md px-3 py-2 text-sm font-medium text-ink-700 hover:bg-ink-100 hover:text-ink-950"
        >
          Sign in
        </Link>
      )}
      <ButtonLink to={SIGN_UP_PATH} size={mobile ? "md" : "sm"}>
        Get Started
      </ButtonLink>
    </>
  );
}

const NAV_LINKS = [
  { to: "/features", label: "Features" },
  { to: "/pricing", label: "Pricing" },
  { to: "/use-cases", label: "Use cases" },
  { to: "/docs", label: "Docs" },
] as const;

function navLinkClass({ isActive }: { isActive: boolean }) {
  return cn(
    "rounded-md px-3 py-2 text-sm font-medium transition-colors",
    isActive ? "text-brand-700" : "text-ink-700 hover:bg-ink-100 hover:text-ink-950",
  );
}

function SiteHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const { pathname } = useLocation();

  // A new page closes the mobile menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger, not an input
  useEffect(() => setMenuOpen(false), [pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") setMenuOpen(false);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [menuOpen]);

  return (
    <header className="sticky top-0 z-40 border-b border-ink-200/80 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75">
      <Container className="flex h-16 items-center justify-between gap-4">
        <Link to="/" className="rounded-lg" aria-label="Cohort home">
          <Logo />
        </Link>
        <nav aria-label="Main" className="hidden md:block">
          <ul className="flex items-center gap-1">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} className={navLinkClass}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="hidden items-center gap-2 md:flex">
          <HeaderActions />
        </div>
        <button
          type="button"
          className="inline-flex size-10 items-center justify-center rounded-lg text-ink-800 hover:bg-ink-100 md:hidden"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span className="sr-only">{menuOpen ? "Close menu" : "Open menu"}</span>
          <MenuIcon open={menuOpen} />
        </button>
      </Container>
      <div id={menuId} hidden={!menuOpen} className="border-t border-ink-200 bg-white md:hidden">
        <Container className="py-4">
          <nav aria-label="Main (mobile)">
            <ul className="grid gap-1">
              {NAV_LINKS.map((link) => (
                <li key={link.to}>
                  <NavLink
                    to={link.to}
                    className={(state) => cn(navLinkClass(state), "block py-3 text-base")}
                  >
                    {link.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="mt-4 grid grid-cols-2 gap-3">
            <HeaderActions mobile />
          </div>
        </Container>
      </div>
    </header>
  );
}

function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-ink-800 bg-ink-950 text-ink-300">
      <Container className="grid gap-10 py-12 md:grid-cols-[1fr_2fr] md:py-16">
        <div className="max-w-xs">
          <Logo inverse />
          <p className="mt-4 text-sm leading-6 text-ink-400">
            A coordinator and four specialist agents, each on the model that suits it, working live
            on your task.
          </p>
        </div>
        <nav aria-label="Footer">
          <ul className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
            {FOOTER_LINKS.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className="rounded text-ink-300 hover:text-white hover:underline"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </Container>
      <div className="border-t border-ink-800">
        <Container className="flex flex-col gap-2 py-6 text-xs text-ink-400 sm:flex-row sm:items-center sm:justify-between">
          <p>© {year} Cohort. All rights reserved.</p>
          <p>Built for teams who want more than one opinion.</p>
        </Container>
      </div>
    </footer>
  );
}

/** Header, content and footer for every public page. */
export function MarketingLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 outline-none">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
    </div>
  );
}
