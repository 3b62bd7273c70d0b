/** The web tools' part of AppConfig (read_url, web_search), parsed by config.ts (decision 061). */
export interface WebToolsConfig {
  readonly readUrl: {
    /** READ_URL_ENABLED: off removes the tool (and says so where tools are listed). */
    readonly enabled: boolean;
    /**
     * Networks read_url may reach besides public addresses (READ_URL_ALLOWED_NETWORKS), e.g.
     * an intranet wiki; cloud metadata stays refused whatever this says.
     */
    readonly allowedNetworks: readonly string[];
    /** Bytes of one answer read at most; the rest is not downloaded. */
    readonly maxBytes: number;
    /** Bound on one fetch, redirects and body included. */
    readonly timeoutMs: number;
    /** Characters of extracted text handed back at most. */
    readonly maxChars: number;
  };
  readonly webSearch: {
    /** The configured provider, or none (then the tool is absent, with the reason). */
    readonly provider: WebSearchProviderConfig | undefined;
    /** Results asked for per search. */
    readonly results: number;
    readonly timeoutMs: number;
    /** Price of one search in hundredths of a credit (WEB_SEARCH_CREDITS). */
    readonly price: number;
  };
}

export type WebSearchProviderConfig =
  | { readonly kind: "searxng"; readonly url: string }
  | { readonly kind: "brave"; readonly url: string; readonly apiKey: string }
  | { readonly kind: "tavily"; readonly url: string; readonly apiKey: string };

export const BRAVE_SEARCH_URL = "https://api.search.brave.com/res/v1/web/search";
export const TAVILY_SEARCH_URL = "https://api.tavily.com/search";
/**
 * A search's price when WEB_SEARCH_CREDITS is unset, in hundredths of a credit: the paid APIs
 * bill the operator about half a US cent a query (a quarter of a credit); a self-hosted
 * SearXNG bills nothing, so neither does Cohort (decision 061).
 */
export const DEFAULT_SEARCH_PRICE: Record<WebSearchProviderConfig["kind"], number> = {
  searxng: 0,
  brave: 25,
  tavily: 25,
};
