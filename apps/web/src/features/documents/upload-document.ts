import {
  CSRF_HEADER,
  DOCUMENT_UPLOAD_FIELD,
  DOCUMENT_WORKSPACE_FIELD,
  ERROR_CODES,
  errorCodeForStatus,
  REQUEST_ID_HEADER,
  type TApiError,
  type TCsrfTokenResponse,
  type TDocument,
  type TDocumentResponse,
} from "@cohort/contracts";
import { api } from "../../lib/api/api";
import { ApiError, CLIENT_ERROR_CODES, FRIENDLY_MESSAGES } from "../../lib/api/api-error";
import { buildApiUrl, randomRequestId } from "../../lib/api/client";
import { getBrowserStorage, readStorage, STORAGE_KEYS } from "../../lib/storage/browser-storage";
import { logger } from "../../lib/telemetry/logger";
import { workspaceScope } from "../workspaces/workspace-store";

/**
 * POST /api/documents, one file per request, through XMLHttpRequest: fetch has no upload
 * progress events. It sends what the app's API client sends (the session cookie, the CSRF
 * token the client keeps, a request id) and fails with the same ApiError, so a refused file
 * shows the server's reason.
 */
export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadOptions {
  onProgress?(progress: UploadProgress): void;
  signal?: AbortSignal;
}

/** An upload of 20 MB on a slow line takes minutes; only a stalled one should fail. */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

let csrfToken: string | null = null;

/** The token the API client stored for this tab, else a fresh one through the client. */
async function currentCsrfToken(): Promise<string> {
  csrfToken ??= readStorage(getBrowserStorage("sessionStorage"), STORAGE_KEYS.csrfToken);
  if (csrfToken !== null) return csrfToken;
  const { csrfToken: fresh } = await api.get<TCsrfTokenResponse>("/csrf-token");
  csrfToken = fresh;
  return fresh;
}

interface RawAnswer {
  status: number;
  text: string;
  requestId: string;
}

function errorBody(text: string): TApiError | null {
  try {
    const value = JSON.parse(text) as Partial<TApiError> | null;
    const error = value?.error;
    return typeof error?.code === "string" && typeof error.message === "string"
      ? (value as TApiError)
      : null;
  } catch {
    return null;
  }
}

function send(url: string, file: File, token: string, options: UploadOptions): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const requestId = randomRequestId();
    const xhr = new XMLHttpRequest();
    const transportFailure = (kind: "network" | "timeout" | "aborted") =>
      new ApiError({
        status: 0,
        code: CLIENT_ERROR_CODES[kind],
        message: FRIENDLY_MESSAGES[kind],
        requestId,
      });
    const onAbort = () => xhr.abort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const done = () => options.signal?.removeEventListener("abort", onAbort);

    xhr.open("POST", url);
    xhr.withCredentials = true;
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    xhr.setRequestHeader("Accept", "application/json");
    xhr.setRequestHeader(CSRF_HEADER, token);
    xhr.setRequestHeader(REQUEST_ID_HEADER, requestId);
    xhr.upload.addEventListener("progress", (event) => {
      options.onProgress?.({
        loaded: event.loaded,
        total: event.lengthComputable ? event.total : file.size,
      });
    });
    xhr.addEventListener("load", () => {
      done();
      resolve({
        status: xhr.status,
        text: xhr.responseText,
        requestId: xhr.getResponseHeader(REQUEST_ID_HEADER) ?? requestId,
      });
    });
    xhr.addEventListener("error", () => {
      done();
      reject(transportFailure("network"));
    });
    xhr.addEventListener("timeout", () => {
      done();
      reject(transportFailure("timeout"));
    });
    xhr.addEventListener("abort", () => {
      done();
      reject(transportFailure("aborted"));
    });

    const form = new FormData();
    // Fields before the file: the server reads them as the stream reaches the file.
    const { workspace_id } = workspaceScope();
    if (workspace_id) form.append(DOCUMENT_WORKSPACE_FIELD, workspace_id);
    form.append(DOCUMENT_UPLOAD_FIELD, file, file.name);
    if (options.signal?.aborted) xhr.abort();
    else xhr.send(form);
  });
}

/** A refused upload as the API client reports any refused call: the server's own message. */
function refusal(raw: RawAnswer): ApiError {
  const body = errorBody(raw.text);
  const code = body?.error.code ?? errorCodeForStatus(raw.status);
  const message =
    raw.status >= 500
      ? FRIENDLY_MESSAGES.server
      : (body?.error.message ?? FRIENDLY_MESSAGES.rejected);
  logger.info("Document upload refused", { status: raw.status, code, requestId: raw.requestId });
  return new ApiError({
    status: raw.status,
    code,
    message,
    details: body?.error.details,
    requestId: raw.requestId,
  });
}

/** Uploads one file; resolves with the new document (usually still `processing`). */
export async function uploadDocument(file: File, options: UploadOptions = {}): Promise<TDocument> {
  const url = buildApiUrl("/documents");
  let raw = await send(url, file, await currentCsrfToken(), options);
  if (raw.status === 403 && errorBody(raw.text)?.error.code === ERROR_CODES.csrfInvalid) {
    // As the API client does: a rejected token is fetched anew, and the call made once more.
    csrfToken = null;
    api.clearCsrfToken();
    const { csrfToken: fresh } = await api.get<TCsrfTokenResponse>("/csrf-token");
    csrfToken = fresh;
    raw = await send(url, file, fresh, options);
  }
  if (raw.status < 200 || raw.status >= 300) throw refusal(raw);
  try {
    return (JSON.parse(raw.text) as TDocumentResponse).document;
  } catch {
    throw new ApiError({
      status: raw.status,
      code: CLIENT_ERROR_CODES.invalidResponse,
      message: FRIENDLY_MESSAGES.invalidResponse,
      requestId: raw.requestId,
    });
  }
}
