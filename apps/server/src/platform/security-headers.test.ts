import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { registerSecurityHeaders, type SecurityHeaderOptions } from "./security-headers";

async function headersOf(options: SecurityHeaderOptions, url: string) {
  const app = Fastify();
  registerSecurityHeaders(app, options);
  app.get("/ok", async () => ({ ok: true }));
  const response = await app.inject({ method: "GET", url });
  await app.close();
  return response.headers;
}

describe("security headers", () => {
  it("are sent on every answer, a 404 included", async () => {
    for (const url of ["/ok", "/missing"]) {
      const headers = await headersOf({ secure: false, websocket: true }, url);
      expect(headers["content-security-policy"]).toBe(
        "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob: https:;font-src 'self' data:;connect-src 'self' ws: wss:;object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
      );
      expect(headers).toMatchObject({
        "cross-origin-opener-policy": "same-origin",
        "cross-origin-resource-policy": "same-origin",
        "origin-agent-cluster": "?1",
        "referrer-policy": "strict-origin-when-cross-origin",
        "x-content-type-options": "nosniff",
        "x-dns-prefetch-control": "off",
        "x-download-options": "noopen",
        "x-frame-options": "SAMEORIGIN",
        "x-permitted-cross-domain-policies": "none",
        "x-xss-protection": "0",
      });
      expect(headers["strict-transport-security"]).toBeUndefined();
      expect(headers["cross-origin-embedder-policy"]).toBeUndefined();
    }
  });

  it("add HSTS and upgrade-insecure-requests behind HTTPS, and follow the transports", async () => {
    const headers = await headersOf({ secure: true, websocket: false }, "/ok");
    expect(headers["strict-transport-security"]).toBe("max-age=15552000; includeSubDomains");
    expect(headers["content-security-policy"]).toContain("connect-src 'self';");
    expect(headers["content-security-policy"]).toMatch(/;upgrade-insecure-requests$/);
  });

  it("let the identity provider's popup in when Firebase is configured", async () => {
    const headers = await headersOf(
      {
        secure: true,
        websocket: false,
        firebase: { authDomain: "cohort.firebaseapp.com", emulatorUrl: null },
      },
      "/ok",
    );
    const csp = headers["content-security-policy"];
    expect(csp).toContain("script-src 'self' https://apis.google.com;");
    expect(csp).toContain("frame-src 'self' https://cohort.firebaseapp.com;");
    expect(csp).toContain(
      "connect-src 'self' https://identitytoolkit.googleapis.com https://securetoken.googleapis.com;",
    );
    expect(headers["cross-origin-opener-policy"]).toBe("same-origin-allow-popups");
  });
});
