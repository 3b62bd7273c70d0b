import { ADMIN_SECTIONS } from "./admin";

/**
 * The web app's route table (the route table). The server answers 200 for these paths and 404 for
 * any other, and the web router is built from the same list, so the two never disagree.
 */
export type TRouteAccess = "public" | "protected" | "admin" | "debug";

export interface TAppRoute {
  /** React Router pattern; `:name?` marks an optional trailing parameter. */
  readonly path: string;
  readonly access: TRouteAccess;
  /** Allowed values per parameter; a path whose value is not listed is a 404. */
  readonly params?: Readonly<Record<string, readonly string[]>>;
  /** Served with noindex (meta tag and X-Robots-Tag), e.g. shared sessions. */
  readonly noindex?: boolean;
  /**
   * Images only from this site or inline (CSP `img-src` without `https:`): a page strangers
   * open shows model output, whose remote images would tell their hosts who looked (051).
   */
  readonly localImagesOnly?: boolean;
}

export const INDUSTRIES = [
  "software",
  "marketing",
  "finance",
  "healthcare",
  "education",
  "legal",
] as const;
export const COMPARED_MODELS = ["gpt", "claude", "gemini"] as const;
export const PERSONAS = [
  "developers",
  "product-managers",
  "designers",
  "researchers",
  "founders",
] as const;

/** The team screen's tabs (decision 057): /team/members, /team/credits, … */
export const TEAM_TABS = ["members", "credits", "usage", "audit", "settings"] as const;
export type TTeamTab = (typeof TEAM_TABS)[number];

export const APP_ROUTES = [
  { path: "/", access: "public" },
  { path: "/login", access: "public" },
  { path: "/forgot-password", access: "public" },
  { path: "/reset-password", access: "public" },
  { path: "/verify-email", access: "public" },
  { path: "/privacy", access: "public" },
  { path: "/terms", access: "public" },
  { path: "/about", access: "public" },
  { path: "/features", access: "public" },
  { path: "/pricing", access: "public" },
  { path: "/use-cases", access: "public" },
  { path: "/use-cases/:industry", access: "public", params: { industry: INDUSTRIES } },
  { path: "/compare/:model", access: "public", params: { model: COMPARED_MODELS } },
  { path: "/solutions/:persona", access: "public", params: { persona: PERSONAS } },
  { path: "/docs", access: "public" },
  { path: "/blog", access: "public" },
  { path: "/blog/:slug", access: "public" },
  { path: "/api", access: "public" },
  { path: "/contact", access: "public" },
  { path: "/admin/login", access: "public" },
  { path: "/share/:token", access: "public", noindex: true, localImagesOnly: true },
  { path: "/dashboard", access: "protected" },
  { path: "/chat/:sessionId?", access: "protected" },
  { path: "/cochat", access: "protected" },
  { path: "/billing", access: "protected" },
  { path: "/documents", access: "protected" },
  { path: "/settings", access: "protected" },
  { path: "/team/:tab?", access: "protected", params: { tab: TEAM_TABS } },
  { path: "/admin/dashboard", access: "admin" },
  { path: "/admin/users/:userId", access: "admin" },
  { path: "/admin/:section", access: "admin", params: { section: ADMIN_SECTIONS } },
  { path: "/debug-auth", access: "debug" },
  { path: "/simple-auth", access: "debug" },
  { path: "/test-redirect", access: "debug" },
  { path: "/isolated-auth", access: "debug" },
  { path: "/isolated-dashboard", access: "debug" },
  { path: "/no-router-auth", access: "debug" },
  { path: "/auth-debug", access: "debug" },
  { path: "/auth-debug-page", access: "debug" },
] as const satisfies readonly TAppRoute[];

export type TAppRoutePath = (typeof APP_ROUTES)[number]["path"];

/** The route table: the landing page footer links, in order. */
export const FOOTER_LINKS = [
  { to: "/features", label: "Features" },
  { to: "/pricing", label: "Pricing" },
  { to: "/use-cases", label: "Use cases" },
  { to: "/docs", label: "Docs" },
  { to: "/blog", label: "Blog" },
  { to: "/api", label: "API" },
  { to: "/about", label: "About" },
  { to: "/contact", label: "Contact" },
  { to: "/privacy", label: "Privacy" },
] as const;

export interface TRouteMatch {
  route: TAppRoute;
  params: Record<string, string>;
}

function splitPath(path: string): string[] {
  return path.split("/").filter((segment) => segment.length > 0);
}

function matchOne(route: TAppRoute, segments: string[]): TRouteMatch | null {
  const pattern = splitPath(route.path);
  const params: Record<string, string> = {};
  for (let i = 0; i < Math.max(pattern.length, segments.length); i++) {
    const part = pattern[i];
    const segment = segments[i];
    if (part === undefined) return null;
    if (part.startsWith(":")) {
      const optional = part.endsWith("?");
      const name = part.slice(1, optional ? -1 : undefined);
      if (segment === undefined) {
        if (optional) continue;
        return null;
      }
      let value: string;
      try {
        value = decodeURIComponent(segment);
      } catch {
        return null;
      }
      const allowed = route.params?.[name];
      if (allowed && !allowed.includes(value)) return null;
      params[name] = value;
    } else if (part !== segment) {
      return null;
    }
  }
  return { route, params };
}

/** Finds the app route a URL path belongs to (query and hash ignored), or null for a 404. */
export function matchAppRoute(urlPath: string): TRouteMatch | null {
  const pathOnly = urlPath.split(/[?#]/, 1)[0] ?? "/";
  const normalized = pathOnly.length > 1 ? pathOnly.replace(/\/+$/, "") : pathOnly;
  const segments = splitPath(normalized);
  for (const route of APP_ROUTES as readonly TAppRoute[]) {
    const match = matchOne(route, segments);
    if (match) return match;
  }
  return null;
}

/** The route table: a sidebar link is highlighted when the path equals it or starts with it and a slash. */
export function isNavLinkActive(linkPath: string, currentPath: string): boolean {
  return currentPath === linkPath || currentPath.startsWith(`${linkPath}/`);
}
