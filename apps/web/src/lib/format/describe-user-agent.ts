/** Programs that call the API rather than browse: their user agent names the tool. */
const API_CLIENTS =
  /^(?:node|undici|curl|wget|python-requests|python-urllib|python-httpx|aiohttp|axios|got|okhttp|go-http-client|java|apache-httpclient|postmanruntime|insomnia|httpie|ruby|php|dart)\b/i;

/**
 * "Chrome on macOS" from a user-agent string; good enough to tell one's devices apart. A
 * program (Node's fetch sends "node", curl its name) reads "API client", not its tool's name.
 */
export function describeUserAgent(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  if (API_CLIENTS.test(userAgent.trim())) return "API client";
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /OPR\//.test(userAgent)
      ? "Opera"
      : /Firefox\//.test(userAgent)
        ? "Firefox"
        : /Chrome\/|Chromium\//.test(userAgent)
          ? "Chrome"
          : /Safari\//.test(userAgent)
            ? "Safari"
            : null;
  const os = /Windows/.test(userAgent)
    ? "Windows"
    : /iPhone|iPad|iPod/.test(userAgent)
      ? "iOS"
      : /Android/.test(userAgent)
        ? "Android"
        : /CrOS/.test(userAgent)
          ? "ChromeOS"
          : /Mac OS X|Macintosh/.test(userAgent)
            ? "macOS"
            : /Linux/.test(userAgent)
              ? "Linux"
              : null;
  if (browser && os) return `${browser} on ${os}`;
  if (browser ?? os) return (browser ?? os) as string;
  return "Other client";
}
