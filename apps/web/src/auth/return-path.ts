/**
 * Where the login page sends someone after signing in: back to the protected page that sent
 * them there (with its query, e.g. an invitation link's `?invite=`), else the dashboard. Only
 * an in-app path counts: a crafted `from` must not make the login page an open redirect.
 */
export const DEFAULT_RETURN_PATH = "/dashboard";

export function returnPathFrom(state: unknown): string {
  const from =
    typeof state === "object" && state !== null && "from" in state ? state.from : undefined;
  if (typeof from !== "string" || !from.startsWith("/") || from.startsWith("//")) {
    return DEFAULT_RETURN_PATH;
  }
  if (from.startsWith("/login") || from.includes("\\")) return DEFAULT_RETURN_PATH;
  return from;
}
