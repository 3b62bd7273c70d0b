import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A minimal OAuth 2.1 authorization server for tests of MCP clients (decision 060): RFC 8414
 * metadata, dynamic client registration (RFC 7591), an authorization endpoint that consents
 * at once (the person is "already signed in"), and a token endpoint that checks PKCE (S256),
 * the redirect URI and the client, and refreshes tokens. Tokens it issued are `accepts`-able.
 */
export interface AuthorizationServer {
  issuer: string;
  /** Whether a bearer token is one this server issued (and has not expired or been refused). */
  accepts(token: string): boolean;
  /** Registered clients, by id. */
  clients: Map<string, { redirect_uris: string[] }>;
  /** Token requests received, in order (grant types). */
  tokenRequests: string[];
  close(): Promise<void>;
}

async function form(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

async function json(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  response.end(JSON.stringify(body));
}

export async function startAuthorizationServer(): Promise<AuthorizationServer> {
  const clients = new Map<string, { redirect_uris: string[] }>();
  const codes = new Map<
    string,
    { clientId: string; redirectUri: string; challenge: string; resource: string | null }
  >();
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  const tokenRequests: string[] = [];
  let issuer = "";

  const issue = (response: ServerResponse) => {
    const access = randomBytes(16).toString("hex");
    const refresh = randomBytes(16).toString("hex");
    accessTokens.add(access);
    refreshTokens.add(refresh);
    send(response, 200, {
      access_token: access,
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: refresh,
    });
  };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", issuer);
    if (url.pathname.startsWith("/.well-known/oauth-authorization-server")) {
      send(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
      return;
    }
    if (url.pathname === "/register" && request.method === "POST") {
      const body = await json(request);
      const redirectUris = Array.isArray(body.redirect_uris)
        ? (body.redirect_uris as string[])
        : [];
      if (redirectUris.length === 0) {
        send(response, 400, { error: "invalid_redirect_uri" });
        return;
      }
      const clientId = `client-${randomBytes(6).toString("hex")}`;
      clients.set(clientId, { redirect_uris: redirectUris });
      send(response, 201, {
        ...body,
        client_id: clientId,
        client_id_issued_at: Math.floor(Date.now() / 1000),
        token_endpoint_auth_method: "none",
      });
      return;
    }
    if (url.pathname === "/authorize" && request.method === "GET") {
      const q = url.searchParams;
      const client = clients.get(q.get("client_id") ?? "");
      const redirectUri = q.get("redirect_uri") ?? "";
      if (!client?.redirect_uris.includes(redirectUri)) {
        send(response, 400, { error: "invalid_client" });
        return;
      }
      if (q.get("response_type") !== "code" || q.get("code_challenge_method") !== "S256") {
        send(response, 400, { error: "invalid_request" });
        return;
      }
      const code = randomBytes(16).toString("hex");
      codes.set(code, {
        clientId: q.get("client_id") ?? "",
        redirectUri,
        challenge: q.get("code_challenge") ?? "",
        resource: q.get("resource"),
      });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      const state = q.get("state");
      if (state) back.searchParams.set("state", state);
      response.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (url.pathname === "/token" && request.method === "POST") {
      const body = await form(request);
      const grant = body.get("grant_type") ?? "";
      tokenRequests.push(grant);
      if (grant === "authorization_code") {
        const entry = codes.get(body.get("code") ?? "");
        codes.delete(body.get("code") ?? "");
        const verifier = body.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (
          !entry ||
          entry.clientId !== body.get("client_id") ||
          entry.redirectUri !== body.get("redirect_uri") ||
          entry.challenge !== challenge
        ) {
          send(response, 400, { error: "invalid_grant" });
          return;
        }
        issue(response);
        return;
      }
      if (grant === "refresh_token" && refreshTokens.delete(body.get("refresh_token") ?? "")) {
        issue(response);
        return;
      }
      send(response, 400, { error: "invalid_grant" });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    accepts: (token) => accessTokens.has(token),
    clients,
    tokenRequests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
