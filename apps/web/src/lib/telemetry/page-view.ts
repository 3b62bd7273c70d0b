import type { PageViewInput } from "./analytics";

const UTM_KEYS = ["source", "medium", "campaign", "term", "content"] as const;

export interface PageContext {
  pathname: string;
  search: string;
  title: string;
  referrer: string;
  userAgent: string;
  platform: string;
  language: string;
  screen: { width: number; height: number };
  pixelRatio: number;
  viewport: { width: number; height: number };
}

function deviceType(viewportWidth: number): "mobile" | "tablet" | "desktop" {
  if (viewportWidth < 768) return "mobile";
  if (viewportWidth < 1024) return "tablet";
  return "desktop";
}

/**
 * The data model page view of one route. The path only, never the query (which may carry a reset
 * token); UTM parameters are read out of it into their own fields.
 */
export function pageViewOf(page: PageContext): PageViewInput {
  const params = new URLSearchParams(page.search);
  const utmParams: PageViewInput["utmParams"] = {};
  for (const key of UTM_KEYS) {
    const value = params.get(`utm_${key}`);
    if (value) utmParams[key] = value.slice(0, 256);
  }
  return {
    pagePath: page.pathname.slice(0, 2_048),
    pageTitle: page.title.slice(0, 512),
    referrer: page.referrer.slice(0, 2_048),
    utmParams,
    deviceInfo: {
      userAgent: page.userAgent.slice(0, 512),
      platform: page.platform.slice(0, 128),
      language: page.language.slice(0, 64),
      deviceType: deviceType(page.viewport.width),
    },
    screenInfo: {
      width: Math.round(page.screen.width),
      height: Math.round(page.screen.height),
      pixelRatio: page.pixelRatio,
      viewportWidth: Math.round(page.viewport.width),
      viewportHeight: Math.round(page.viewport.height),
    },
  };
}

export function browserPageContext(pathname: string, search: string): PageContext {
  return {
    pathname,
    search,
    title: document.title,
    referrer: document.referrer,
    userAgent: navigator.userAgent,
    platform: navigator.platform,
    language: navigator.language,
    screen: { width: window.screen.width, height: window.screen.height },
    pixelRatio: window.devicePixelRatio,
    viewport: { width: window.innerWidth, height: window.innerHeight },
  };
}
