import type { FastifyInstance } from "fastify";
import { createSsrfGuard, type HostResolver } from "../../platform/ssrf";
import { createWebToolsProvider } from "./web-tools-provider";

/**
 * Adds read_url and web_search to the tool registry (decision 061). read_url has its own
 * SSRF guard: the same checks as users' base URLs, with the operator's READ_URL_ALLOWED_NETWORKS
 * instead of USER_BASE_URL_ALLOWED_NETWORKS (a LAN model server is no reason to let pages
 * be read from the LAN), redirects followed by read_url itself, each hop checked.
 */
export function registerWebTools(app: FastifyInstance, deps: { resolveHost?: HostResolver }): void {
  const guard = createSsrfGuard({
    ...(deps.resolveHost ? { resolve: deps.resolveHost } : {}),
    allowedNetworks: app.config.webTools.readUrl.allowedNetworks,
  });
  app.tools.addProvider(createWebToolsProvider(guard, app.config.webTools));
}
