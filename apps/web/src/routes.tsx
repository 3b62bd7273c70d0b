import {
  APP_ROUTES,
  matchAppRoute,
  type TAppRoute,
  type TAppRoutePath,
  type TRouteAccess,
} from "@cohort/contracts";
import { type ComponentType, type LazyExoticComponent, lazy, type ReactNode } from "react";
import { type RouteObject, useParams } from "react-router";
import { MarketingLayout } from "./layouts/marketing-layout";
import { PlainLayout } from "./layouts/plain-layout";
import { RootLayout } from "./layouts/root-layout";

/**
 * The web route table. Paths and their access levels come from APP_ROUTES in contracts (the
 * server answers 200 for exactly those), screens and layouts are chosen here:
 *
 * - `appScreens` maps a path to the module that renders it; every screen is lazy-loaded.
 *   A path without a screen falls through to the 404 page.
 * - A screen is rendered inside the layout its route's access level gets from
 *   `layoutForAccess`, unless the entry names another one.
 * - `layouts` holds each layout and an optional guard that wraps it (e.g. one that sends
 *   signed-out users to /login). Layouts may themselves be lazy components.
 */

/** Loads a screen's module and returns its component (named exports, so no `default`). */
export type LazyScreen = () => Promise<ComponentType>;

export type TLayoutId = "marketing" | "plain" | "app" | "admin";

export interface ScreenEntry {
  load: LazyScreen;
  /** Overrides the layout of the route's access level. */
  layout?: TLayoutId;
}

export interface LayoutEntry {
  /** Renders the page chrome, `<main id="main-content" tabIndex={-1}>` and an `<Outlet />`. */
  Layout: ComponentType;
  /** Wraps the layout: decides whether its routes may render at all. */
  Guard?: ComponentType<{ children: ReactNode }>;
  /** Loads the lazy layout's and guard's modules ahead of their first render (decision 080). */
  preload?: () => Promise<unknown>;
}

/** Named exports as lazy components, so the signed-in code stays off the public pages. */
function lazyNamed<P extends object>(
  load: () => Promise<ComponentType<P>>,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => ({ default: await load() }));
}

const loadAppShell = () => import("./features/shell/app-shell").then((m) => m.AppShell);
const loadRequireAuth = () => import("./auth/require-auth").then((m) => m.RequireAuth);
const loadAdminShell = () => import("./features/admin/admin-shell").then((m) => m.AdminShell);
const loadRequireAdmin = () => import("./auth/require-admin").then((m) => m.RequireAdmin);

export const layouts: Record<TLayoutId, LayoutEntry> = {
  marketing: { Layout: MarketingLayout },
  plain: { Layout: PlainLayout },
  app: {
    Layout: lazyNamed(loadAppShell),
    Guard: lazyNamed(loadRequireAuth),
    preload: () => Promise.all([loadAppShell(), loadRequireAuth()]),
  },
  admin: {
    Layout: lazyNamed(loadAdminShell),
    Guard: lazyNamed(loadRequireAdmin),
    preload: () => Promise.all([loadAdminShell(), loadRequireAdmin()]),
  },
};

/**
 * The default layout per access level. `null` means no layout exists for that level yet, so
 * registering a screen for such a route fails loudly at start-up instead of rendering it
 * without its guard.
 */
export const layoutForAccess: Record<TRouteAccess, TLayoutId | null> = {
  public: "marketing",
  protected: "app",
  admin: "admin",
  debug: "plain",
};

export const appScreens: Partial<Record<TAppRoutePath, ScreenEntry>> = {
  "/": { load: () => import("./features/landing/landing-page").then((m) => m.LandingPage) },
  "/privacy": { load: () => import("./features/legal/privacy-page").then((m) => m.PrivacyPage) },
  "/terms": { load: () => import("./features/legal/terms-page").then((m) => m.TermsPage) },
  "/about": { load: () => import("./features/about/about-page").then((m) => m.AboutPage) },
  "/features": {
    load: () => import("./features/product-features/features-page").then((m) => m.FeaturesPage),
  },
  "/pricing": { load: () => import("./features/pricing/pricing-page").then((m) => m.PricingPage) },
  "/use-cases": {
    load: () => import("./features/use-cases/use-cases-page").then((m) => m.UseCasesPage),
  },
  "/use-cases/:industry": {
    load: () => import("./features/use-cases/industry-page").then((m) => m.IndustryPage),
  },
  "/compare/:model": {
    load: () => import("./features/compare/compare-page").then((m) => m.ComparePage),
  },
  "/solutions/:persona": {
    load: () => import("./features/solutions/persona-page").then((m) => m.PersonaPage),
  },
  "/docs": { load: () => import("./features/docs/docs-page").then((m) => m.DocsPage) },
  "/blog": { load: () => import("./features/blog/blog-page").then((m) => m.BlogPage) },
  "/blog/:slug": {
    load: () => import("./features/blog/blog-post-page").then((m) => m.BlogPostPage),
  },
  "/api": { load: () => import("./features/api-overview/api-page").then((m) => m.ApiPage) },
  "/contact": { load: () => import("./features/contact/contact-page").then((m) => m.ContactPage) },

  // Accounts: sign-in flows own the whole screen.
  "/login": {
    load: () => import("./features/login/login-page").then((m) => m.LoginPage),
    layout: "plain",
  },
  "/forgot-password": {
    load: () => import("./features/account/forgot-password-page").then((m) => m.ForgotPasswordPage),
    layout: "plain",
  },
  "/reset-password": {
    load: () => import("./features/account/reset-password-page").then((m) => m.ResetPasswordPage),
    layout: "plain",
  },
  "/verify-email": {
    load: () => import("./features/account/verify-email-page").then((m) => m.VerifyEmailPage),
    layout: "plain",
  },
  "/admin/login": {
    load: () => import("./features/admin/admin-login-page").then((m) => m.AdminLoginPage),
    layout: "plain",
  },
  // A shared session or run: read-only, for anyone with the link, without the app shell.
  "/share/:token": {
    load: () =>
      import("./features/shared-session/shared-session-page").then((m) => m.SharedSessionPage),
    layout: "plain",
  },

  // The signed-in app (protected) and the admin area.
  "/dashboard": {
    load: () => import("./features/dashboard/dashboard-page").then((m) => m.DashboardPage),
  },
  "/chat/:sessionId?": {
    load: () => import("./features/chat/chat-page").then((m) => m.ChatPage),
  },
  "/cochat": {
    load: () => import("./features/cochat/cochat-page").then((m) => m.CochatPage),
  },
  "/settings": {
    load: () => import("./features/settings/settings-page").then((m) => m.SettingsPage),
  },
  "/team/:tab?": {
    load: () => import("./features/workspaces/team-page").then((m) => m.TeamPage),
  },
  "/billing": {
    load: () => import("./features/billing/billing-page").then((m) => m.BillingPage),
  },
  "/documents": {
    load: () => import("./features/documents/documents-page").then((m) => m.DocumentsPage),
  },
  "/admin/dashboard": {
    load: () => import("./features/admin/admin-dashboard-page").then((m) => m.AdminDashboardPage),
  },
  "/admin/users/:userId": {
    load: () => import("./features/admin/admin-user-page").then((m) => m.AdminUserPage),
  },
  "/admin/:section": {
    load: () => import("./features/admin/admin-section-page").then((m) => m.AdminSectionPage),
  },

  // The route table debug and test routes (not indexed).
  "/debug-auth": {
    load: () => import("./features/debug/auth-diagnostics-page").then((m) => m.DebugAuthPage),
  },
  "/auth-debug": {
    load: () => import("./features/debug/auth-diagnostics-page").then((m) => m.AuthDebugPage),
  },
  "/auth-debug-page": {
    load: () => import("./features/debug/auth-diagnostics-page").then((m) => m.AuthDebugPagePage),
  },
  "/simple-auth": {
    load: () => import("./features/debug/simple-auth-page").then((m) => m.SimpleAuthPage),
  },
  "/test-redirect": {
    load: () => import("./features/debug/test-redirect-page").then((m) => m.TestRedirectPage),
  },
  "/no-router-auth": {
    load: () => import("./features/debug/no-router-auth-page").then((m) => m.NoRouterAuthPage),
  },
  "/isolated-auth": {
    load: () => import("./features/debug/isolated-auth").then((m) => m.IsolatedAuthPage),
  },
  "/isolated-dashboard": {
    load: () => import("./features/debug/isolated-auth").then((m) => m.IsolatedDashboardPage),
  },
};

const loadNotFound: LazyScreen = () =>
  import("./features/errors/not-found-page").then((m) => m.NotFoundPage);

function lazyScreen(load: LazyScreen): LazyExoticComponent<ComponentType> {
  return lazy(async () => ({ default: await load() }));
}

interface AllowedParamsProps {
  allowed: Readonly<Record<string, readonly string[]>>;
  Screen: ComponentType;
  NotFound: ComponentType;
}

/** A parameter outside its allow-list (e.g. /use-cases/astrology) is a 404, as on the server. */
export function AllowedParams({ allowed, Screen, NotFound }: AllowedParamsProps) {
  const params = useParams();
  const valid = Object.entries(allowed).every(([name, values]) => {
    const value = params[name];
    return value === undefined || values.includes(value);
  });
  return valid ? <Screen /> : <NotFound />;
}

/**
 * Starts loading the modules the page at `pathname` renders (its screen, its layout and
 * guard) at once, instead of one after another as each renders (decision 080). Errors are
 * left to the render, which loads the same modules again and shows its error page.
 */
export function preloadRouteModules(pathname: string, screens: typeof appScreens = appScreens) {
  const match = matchAppRoute(pathname);
  if (!match) return;
  const screen = screens[match.route.path as TAppRoutePath];
  if (!screen) return;
  const layoutId = screen.layout ?? layoutForAccess[match.route.access];
  const loads = [screen.load(), layoutId === null ? null : layouts[layoutId].preload?.()];
  for (const load of loads) load?.catch(() => undefined);
}

/** Builds the route objects `main.tsx` renders with `useRoutes`. */
export function buildRouteObjects(screens: typeof appScreens = appScreens): RouteObject[] {
  const NotFound = lazyScreen(loadNotFound);
  const childrenByLayout = new Map<TLayoutId, RouteObject[]>();

  for (const route of APP_ROUTES as readonly TAppRoute[]) {
    const screen = screens[route.path as TAppRoutePath];
    if (!screen) continue;
    const layoutId = screen.layout ?? layoutForAccess[route.access];
    if (layoutId === null) {
      throw new Error(
        `Route ${route.path} has a screen, but ${route.access} routes have no layout yet; add one to \`layouts\` and \`layoutForAccess\` in routes.tsx.`,
      );
    }
    const Screen = lazyScreen(screen.load);
    const element = route.params ? (
      <AllowedParams allowed={route.params} Screen={Screen} NotFound={NotFound} />
    ) : (
      <Screen />
    );
    const siblings = childrenByLayout.get(layoutId) ?? [];
    siblings.push({ path: route.path, element });
    childrenByLayout.set(layoutId, siblings);
  }

  const marketing = childrenByLayout.get("marketing") ?? [];
  marketing.push({ path: "*", element: <NotFound /> });
  childrenByLayout.set("marketing", marketing);

  const layoutRoutes: RouteObject[] = [...childrenByLayout].map(([id, children]) => {
    const { Layout, Guard } = layouts[id];
    return {
      element: Guard ? (
        <Guard>
          <Layout />
        </Guard>
      ) : (
        <Layout />
      ),
      children,
    };
  });

  return [{ element: <RootLayout />, children: layoutRoutes }];
}
