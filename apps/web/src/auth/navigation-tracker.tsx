import { useEffect, useRef, useSyncExternalStore } from "react";
import { useLocation, useNavigationType } from "react-router";
import { getBrowserStorage } from "../lib/storage/browser-storage";
import { logger } from "../lib/telemetry/logger";
import { recordNavigation } from "./navigation-history";
import { createRouteLoopDetector } from "./route-loop-detector";

/** The page load's one detector; the debug pages read and reset it. */
export const routeLoopDetector = createRouteLoopDetector();

const loopListeners = new Set<() => void>();

function subscribeLoop(listener: () => void): () => void {
  loopListeners.add(listener);
  return () => {
    loopListeners.delete(listener);
  };
}

const isLooping = () => routeLoopDetector.looping;

/** True once the route-loop detector has flagged this page load. */
export function useRouteLoop(): boolean {
  return useSyncExternalStore(subscribeLoop, isLooping, () => false);
}

export function resetRouteLoop(): void {
  routeLoopDetector.reset();
  for (const listener of loopListeners) listener();
}

/**
 * Feeds every navigation into the navigation history (sessionStorage, the data model) and every
 * in-app move to another path into the route-loop detector (the UI states). Back and forward are
 * left out of the detector: a person paging through history is not a redirect loop.
 */
export function NavigationTracker() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const lastKey = useRef<string | null>(null);
  const lastPath = useRef<string | null>(null);

  useEffect(() => {
    // StrictMode runs effects twice in development; one navigation is one entry.
    if (lastKey.current === location.key) return;
    const first = lastKey.current === null;
    lastKey.current = location.key;
    recordNavigation(getBrowserStorage("sessionStorage"), {
      path: location.pathname,
      time: Date.now(),
      search: location.search,
      state: location.state,
    });
    if (location.pathname === lastPath.current) return;
    lastPath.current = location.pathname;
    if (!first && navigationType === "POP") return;
    const wasLooping = routeLoopDetector.looping;
    if (routeLoopDetector.visit(location.pathname) && !wasLooping) {
      logger.warn("Route loop detected", { path: location.pathname });
      for (const listener of loopListeners) listener();
    }
  }, [location, navigationType]);

  return null;
}
