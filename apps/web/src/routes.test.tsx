// @vitest-environment node
import { APP_ROUTES, INDUSTRIES, type TAppRoutePath } from "@cohort/contracts";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter, matchRoutes, Route, type RouteObject, Routes } from "react-router";
import { describe, expect, it } from "vitest";
import { AllowedParams, appScreens, buildRouteObjects, layoutForAccess } from "./routes";

function matchedPath(routes: RouteObject[], url: string): string | undefined {
  const matches = matchRoutes(routes, url) ?? [];
  return matches.at(-1)?.route.path;
}

describe("route table", () => {
  const routes = buildRouteObjects();

  it("mounts every registered screen at its contracts path", () => {
    const registered = APP_ROUTES.filter((route) => appScreens[route.path as TAppRoutePath]);
    expect(registered.length).toBeGreaterThan(10);
    for (const route of registered) {
      const url = route.path
        .replace(":industry", "software")
        .replace(":model", "gpt")
        .replace(":persona", "founders");
      expect(matchedPath(routes, url), url).toBe(route.path);
    }
  });

  it("registers every public marketing page", () => {
    for (const path of [
      "/",
      "/privacy",
      "/terms",
      "/pricing",
      "/use-cases",
      "/docs",
      "/api",
      "/contact",
    ] as const) {
      expect(appScreens[path], path).toBeDefined();
    }
  });

  it("sends paths outside APP_ROUTES to the 404 route", () => {
    expect(matchedPath(routes, "/no-such-page")).toBe("*");
    expect(matchedPath(routes, "/privacy/extra")).toBe("*");
  });

  it("sends routes without a screen to the 404 route", () => {
    const unregistered = APP_ROUTES.filter((route) => !appScreens[route.path as TAppRoutePath]);
    for (const route of unregistered) {
      const url = route.path.replace("/:sessionId?", "");
      expect(matchedPath(routes, url), url).toBe("*");
    }
  });

  it("refuses a screen for an access level that has no layout yet", () => {
    const unguarded = (Object.keys(layoutForAccess) as (keyof typeof layoutForAccess)[]).find(
      (access) => layoutForAccess[access] === null,
    );
    const route = APP_ROUTES.find((candidate) => candidate.access === unguarded);
    if (!route) return;
    expect(() => buildRouteObjects({ [route.path]: { load: async () => () => null } })).toThrow(
      /no layout yet/,
    );
  });

  it("renders the 404 page for a parameter outside its allow-list", () => {
    const render = (url: string) =>
      renderToStaticMarkup(
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route
              path="/use-cases/:industry"
              element={
                <AllowedParams
                  allowed={{ industry: INDUSTRIES }}
                  Screen={() => <p>industry page</p>}
                  NotFound={() => <p>page not found</p>}
                />
              }
            />
          </Routes>
        </MemoryRouter>,
      );
    expect(render("/use-cases/legal")).toBe("<p>industry page</p>");
    expect(render("/use-cases/astrology")).toBe("<p>page not found</p>");
  });
});
