import {
  ROUTE_LOOP_ENTRIES,
  ROUTE_LOOP_MAX_VISITS,
  ROUTE_LOOP_RESET_MS,
  ROUTE_LOOP_WINDOW_MS,
} from "@cohort/contracts";

/**
 * The route-loop detector: keeps the last 10 visits, flags a path visited more than 3
 * times within 5 s, and starts over 10 s after it started recording.
 */
export interface RouteVisit {
  path: string;
  time: number;
}

export interface RouteLoopState {
  visits: readonly RouteVisit[];
  /** When the current recording began; null before the first visit. */
  startedAt: number | null;
}

export interface RouteLoopResult {
  state: RouteLoopState;
  loop: boolean;
}

export const INITIAL_ROUTE_LOOP_STATE: RouteLoopState = { visits: [], startedAt: null };

export function recordRouteVisit(
  state: RouteLoopState,
  path: string,
  now: number,
): RouteLoopResult {
  const expired = state.startedAt === null || now - state.startedAt >= ROUTE_LOOP_RESET_MS;
  const startedAt = expired ? now : (state.startedAt ?? now);
  const previous = expired ? [] : state.visits;
  const visits = [...previous, { path, time: now }].slice(-ROUTE_LOOP_ENTRIES);
  const recent = visits.filter(
    (visit) => visit.path === path && now - visit.time < ROUTE_LOOP_WINDOW_MS,
  ).length;
  return { state: { visits, startedAt }, loop: recent > ROUTE_LOOP_MAX_VISITS };
}

export interface RouteLoopDetector {
  /** Records a visit; true once a loop has been seen (and from then on). */
  visit(path: string): boolean;
  readonly looping: boolean;
  snapshot(): RouteLoopState;
  reset(): void;
}

/** The in-memory detector the root layout feeds with every in-app navigation. */
export function createRouteLoopDetector(now: () => number = Date.now): RouteLoopDetector {
  let state = INITIAL_ROUTE_LOOP_STATE;
  let looping = false;
  return {
    visit(path) {
      const result = recordRouteVisit(state, path, now());
      state = result.state;
      looping ||= result.loop;
      return looping;
    },
    get looping() {
      return looping;
    },
    snapshot: () => state,
    reset() {
      state = INITIAL_ROUTE_LOOP_STATE;
      looping = false;
    },
  };
}
