/** The MCP SDK's client side: what a conversation with a user's MCP server needs. */
export interface McpClientSdk {
  Client: typeof import("@modelcontextprotocol/sdk/client/index.js").Client;
  SSEClientTransport: typeof import("@modelcontextprotocol/sdk/client/sse.js").SSEClientTransport;
  StdioClientTransport: typeof import("@modelcontextprotocol/sdk/client/stdio.js").StdioClientTransport;
  StreamableHTTPClientTransport: typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js").StreamableHTTPClientTransport;
  auth: typeof import("@modelcontextprotocol/sdk/client/auth.js").auth;
}

let loading: Promise<McpClientSdk> | undefined;

/**
 * Loads the client side at its first use (a run's first call to an MCP server, a test or a
 * sign-in from the settings page), not at start: the SDK is ~25 MB of an embedded instance's
 * RSS (decision 082). Concurrent first uses share one load; a failed load rejects each use.
 */
export function loadMcpClientSdk(): Promise<McpClientSdk> {
  loading ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/client/auth.js"),
  ]).then(([index, sse, stdio, streamableHttp, auth]) => ({
    Client: index.Client,
    SSEClientTransport: sse.SSEClientTransport,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: streamableHttp.StreamableHTTPClientTransport,
    auth: auth.auth,
  }));
  return loading;
}
