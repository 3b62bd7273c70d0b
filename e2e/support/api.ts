import type { TDocumentResponse, TDocumentsResponse } from "@cohort/contracts";
import { expect } from "vitest";
import { apiCall, type HttpMethod } from "../../test-support/api-client.mjs";
import type { TestUser } from "./accounts";
import { baseURL } from "./browser";

/** A JSON call of the API with the user's bearer token; a non-2xx answer throws ApiError. */
export function api<T>(
  method: HttpMethod,
  path: string,
  bearer: string,
  body?: unknown,
): Promise<T> {
  return apiCall<T>(baseURL(), method, path, { bearer, body, timeoutMs: 60_000 });
}

/** A text document uploaded through the API, read and ready; its id. */
export async function uploadReadyText(
  user: TestUser,
  name: string,
  text: string,
  timeout = 60_000,
): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([text], { type: "text/plain" }), name);
  const response = await fetch(`${baseURL()}/api/documents`, {
    method: "POST",
    headers: { authorization: `Bearer ${user.token}` },
    body: form,
  });
  expect(response.status).toBe(201);
  const { document } = (await response.json()) as TDocumentResponse;
  await expect
    .poll(
      async () =>
        (await api<TDocumentsResponse>("GET", "/api/documents", user.token)).documents.find(
          (d) => d.id === document.id,
        )?.status,
      { timeout },
    )
    .toBe("ready");
  return document.id;
}
