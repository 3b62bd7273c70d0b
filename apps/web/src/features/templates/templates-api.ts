import {
  type TCreateTemplateRequest,
  TEMPLATE_ROUTES,
  type TStartFromTemplateResponse,
  type TTemplateList,
  type TTemplateResponse,
  type TUpdateTemplateRequest,
} from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api/api";
import { workspaceScope } from "../workspaces/workspace-store";

/**
 * Saved setups' calls (/api/templates…; the client adds the /api prefix). The list is the
 * workspace in view's (workspace-store.ts), under the ["templates"] key a switch resets.
 */
const path = (route: string) => route.replace(/^\/api/, "");

export const templateKeys = {
  all: ["templates"] as const,
  list: ["templates", "list"] as const,
};

export function useTemplates(enabled = true) {
  return useQuery({
    queryKey: templateKeys.list,
    queryFn: ({ signal }) =>
      api.get<TTemplateList>(path(TEMPLATE_ROUTES.list), { query: workspaceScope(), signal }),
    enabled,
    staleTime: 5_000,
  });
}

export function createTemplate(body: TCreateTemplateRequest): Promise<TTemplateResponse> {
  // A template saved from a session goes to that session's workspace (the server decides).
  const scope = body.from_session_id === undefined ? workspaceScope() : {};
  return api.post<TTemplateResponse>(path(TEMPLATE_ROUTES.list), { ...scope, ...body });
}

export function updateTemplate(
  id: string,
  body: TUpdateTemplateRequest,
): Promise<TTemplateResponse> {
  return api.patch<TTemplateResponse>(path(TEMPLATE_ROUTES.one(id)), body);
}

export function deleteTemplate(id: string): Promise<unknown> {
  return api.delete(path(TEMPLATE_ROUTES.one(id)));
}

export function startFromTemplate(id: string, title: string): Promise<TStartFromTemplateResponse> {
  return api.post<TStartFromTemplateResponse>(path(TEMPLATE_ROUTES.sessions(id)), { title });
}
