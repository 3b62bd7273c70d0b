import type { SsrfGuard } from "../../platform/ssrf";
import type { ToolDefinition, ToolProvider } from "../tools/tool-definition";
import { createReadUrlTool } from "./read-url-tool";
import { createSearchProvider } from "./search-providers";
import { createWebSearchTool } from "./web-search-tool";
import type { WebToolsConfig } from "./web-tools-config";

/**
 * The web tools as one tool provider ("web"): read_url unless READ_URL_ENABLED is off, and
 * web_search when a search provider is configured; an absent tool says why (decision 061).
 */
export function createWebToolsProvider(guard: SsrfGuard, config: WebToolsConfig): ToolProvider {
  const tools: ToolDefinition[] = [];
  const absent: { name: string; reason: string }[] = [];
  if (config.readUrl.enabled) {
    tools.push(createReadUrlTool(guard, config.readUrl) as unknown as ToolDefinition);
  } else {
    absent.push({
      name: "read_url",
      reason: "read_url: turned off by the operator (READ_URL_ENABLED=0)",
    });
  }
  if (config.webSearch.provider) {
    const provider = createSearchProvider(config.webSearch.provider);
    tools.push(createWebSearchTool(provider, config.webSearch) as unknown as ToolDefinition);
  } else {
    absent.push({
      name: "web_search",
      reason:
        "web_search: no search provider configured — set SEARXNG_URL, BRAVE_API_KEY or TAVILY_API_KEY",
    });
  }
  return {
    id: "web",
    tools: async () => tools,
    unavailable: () => absent,
  };
}
