import { isNavLinkActive, TIER_LABELS, type TUserProfile } from "@cohort/contracts";
import { Dialog } from "radix-ui";
import { Suspense, useEffect, useRef, useState } from "react";
import { Link, Outlet, useLocation, useNavigate } from "react-router";
import { announceGoogleSignIn } from "../../auth/google-sign-in";
import { useAuth } from "../../auth/use-auth";
import { usePendingWelcomeCredits } from "../../auth/use-pending-welcome-credits";
import { useSignOut } from "../../auth/use-sign-out";
import { Badge } from "../../components/badge";
import { Button } from "../../components/button";
import { cn } from "../../components/cn";
import { CloseIcon, MenuIcon } from "../../components/icons";
import { Logo } from "../../components/logo";
import { MAIN_CONTENT_ID } from "../../components/skip-link";
import { PageSpinner } from "../../components/spinner";
import { showFlashToasts } from "../../components/toast/flash-toast";
import { AgreementGate, useAgreementState } from "../agreement/agreement-gate";
import { CurrentWorkspaceProvider, useCurrentWorkspace } from "../workspaces/current-workspace";
import { InvitationDialog } from "../workspaces/invitation-dialog";
import { ShellCredits, useLiveTeamCredits, useShownWallet } from "../workspaces/team-credits";
import { WorkspaceSwitcher } from "../workspaces/workspace-switcher";
import { CoChatBadge } from "./cochat-badge";
import { ConnectionStatusSlot } from "./connection-status";
import { CreditAnnouncer, useCreditWatch, useLiveCredits } from "./credit-watch";
import { displayNameOf } from "./display-name";
import { APP_NAV_ITEMS } from "./nav-items";

function NavList({ onNavigate }: { onNavigate?: () => void }) {
  const { pathname } = useLocation();
  return (
    <ul className="grid gap-1">
      {APP_NAV_ITEMS.map((item) => {
        const active = isNavLinkActive(item.to, pathname);
        return (
          <li key={item.to}>
            <Link
              to={item.to}
              onClick={onNavigate}
              aria-current={active ? "page" : undefined}
              className={cn(
                "flex items-center rounded-lg px-3 py-2 text-sm font-medium transition-colors",
                active
                  ? "bg-brand-50 text-brand-800 ring-1 ring-brand-200 ring-inset"
                  : "text-ink-700 hover:bg-ink-100 hover:text-ink-950",
              )}
            >
              {item.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** The user's photo (photoURL, e.g. from the identity provider), else their initial. */
function Avatar({ user }: { user: TUserProfile | null }) {
  const [broken, setBroken] = useState(false);
  const name = displayNameOf(user);
  if (user?.photoURL && !broken) {
    return (
      <img
        src={user.photoURL}
        alt=""
        referrerPolicy="no-referrer"
        onError={() => setBroken(true)}
        className="size-9 shrink-0 rounded-full bg-ink-100 object-cover"
        data-testid="shell-avatar"
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-100 text-sm font-semibold text-brand-800"
    >
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}

function AccountPanel({ user }: { user: TUserProfile | null }) {
  const { signOut, pending } = useSignOut();
  const pendingWelcome = usePendingWelcomeCredits(user);
  const tier = user?.subscription_tier ?? "free";
  return (
    <div className="grid gap-3 border-t border-ink-200 pt-4">
      <div className="flex min-w-0 items-center gap-3">
        <Avatar user={user} />
        <div className="min-w-0">
          <p
            className="truncate text-sm font-semibold text-ink-950"
            data-testid="shell-display-name"
          >
            {displayNameOf(user)}
          </p>
          {user ? <p className="truncate text-xs text-ink-500">{user.email}</p> : null}
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone="brand" data-testid="shell-tier">
          {TIER_LABELS[tier]}
        </Badge>
        <CoChatBadge tier={tier} />
      </div>
      {user ? <ShellCredits user={user} pendingWelcome={pendingWelcome} /> : null}
      <Button variant="outline" size="sm" onClick={signOut} disabled={pending}>
        Sign out
      </Button>
    </div>
  );
}

function SidebarContent({
  user,
  onNavigate,
}: {
  user: TUserProfile | null;
  onNavigate?: () => void;
}) {
  return (
    <div className="flex h-full flex-col gap-6 p-4">
      <Link
        to="/dashboard"
        onClick={onNavigate}
        className="rounded-lg px-1"
        aria-label="Cohort dashboard"
      >
        <Logo />
      </Link>
      <ConnectionStatusSlot />
      <WorkspaceSwitcher />
      <nav aria-label="App" className="flex-1">
        <NavList onNavigate={onNavigate} />
      </nav>
      <AccountPanel user={user} />
    </div>
  );
}

/** Greets arrivals from a reload (flash toasts) or from Google, once per mount. */
function useArrivalNotices() {
  const location = useLocation();
  const navigate = useNavigate();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    showFlashToasts();
    announceGoogleSignIn(location.search);
    const params = new URLSearchParams(location.search);
    if (params.has("login")) {
      params.delete("login");
      const search = params.toString();
      navigate(
        { pathname: location.pathname, search: search ? `?${search}` : "" },
        { replace: true },
      );
    }
  }, [location, navigate]);
}

/** Announces and toasts the drops of the wallet that pays for what is on screen. */
function ShellCreditWatch({ user }: { user: TUserProfile | null }) {
  const { balance } = useShownWallet(user);
  return <CreditAnnouncer text={useCreditWatch(balance?.walletId, balance?.credits)} />;
}

/** The route table App shell: sidebar (a drawer on small screens), account facts and the content. */
export function AppShell() {
  const { user } = useAuth();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { pathname } = useLocation();
  useArrivalNotices();
  const pendingWelcome = usePendingWelcomeCredits(user);
  useLiveCredits();
  useLiveTeamCredits(user?.id);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page closes the drawer
  useEffect(() => setDrawerOpen(false), [pathname]);

  return (
    <AgreementGate>
      <CurrentWorkspaceProvider>
        <ShellCreditWatch user={user} />
        <div className="min-h-dvh bg-ink-50 lg:grid lg:grid-cols-[16rem_minmax(0,1fr)]">
          <aside
            aria-label="Sidebar"
            className="sticky top-0 hidden h-dvh border-r border-ink-200 bg-white lg:block"
          >
            <SidebarContent user={user} />
          </aside>

          <Dialog.Root open={drawerOpen} onOpenChange={setDrawerOpen}>
            <header className="sticky top-0 z-30 flex h-14 items-center justify-between gap-3 border-b border-ink-200 bg-white/95 px-3 backdrop-blur lg:hidden">
              <Dialog.Trigger asChild>
                <Button variant="ghost" size="sm" aria-label="Open navigation">
                  <MenuIcon />
                </Button>
              </Dialog.Trigger>
              <Link to="/dashboard" aria-label="Cohort dashboard" className="rounded-lg">
                <Logo />
              </Link>
              {user ? <ShellCredits user={user} pendingWelcome={pendingWelcome} chip /> : null}
            </header>
            <Dialog.Portal>
              <Dialog.Overlay className="fixed inset-0 z-40 bg-ink-950/40 lg:hidden" />
              <Dialog.Content
                aria-describedby={undefined}
                className="fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] overflow-y-auto bg-white shadow-2xl outline-none lg:hidden"
              >
                <Dialog.Title className="sr-only">Navigation</Dialog.Title>
                <Dialog.Close
                  aria-label="Close navigation"
                  className="absolute top-3 right-3 rounded-md p-1.5 text-ink-500 hover:bg-ink-100 hover:text-ink-900"
                >
                  <CloseIcon />
                </Dialog.Close>
                <SidebarContent user={user} onNavigate={() => setDrawerOpen(false)} />
              </Dialog.Content>
            </Dialog.Portal>
          </Dialog.Root>

          <main id={MAIN_CONTENT_ID} tabIndex={-1} className="min-w-0 outline-none">
            <GatedPage />
          </main>
        </div>
      </CurrentWorkspaceProvider>
    </AgreementGate>
  );
}

/**
 * The page itself mounts only once the agreement check says the product may be used, so it
 * never fires calls that can only answer 403 agreement_required; behind the overlay the
 * shell stays visible, blurred.
 */
function GatedPage() {
  const state = useAgreementState();
  const { ready } = useCurrentWorkspace();
  if (state === "pending") return <PageSpinner />;
  if (state === "required") {
    return (
      <p className="p-8 text-sm text-ink-500">
        Your workspace opens as soon as you accept the updated agreement.
      </p>
    );
  }
  // Pages wait for the workspace in view, so their lists load once, for the right one.
  if (!ready) return <PageSpinner />;
  return (
    <Suspense fallback={<PageSpinner />}>
      <Outlet />
      <InvitationDialog />
    </Suspense>
  );
}
