import type {
  TAuthResponse,
  TLoginRequest,
  TSignInListResponse,
  TSignupRequest,
  TSuccessResponse,
  TUpdateProfileRequest,
  TUserResponse,
} from "@cohort/contracts";
import { api } from "../lib/api/api";
import { isApiError } from "../lib/api/api-error";

/** The account calls of the API (payload types from contracts). */

export function logIn(body: TLoginRequest): Promise<TAuthResponse> {
  return api.post<TAuthResponse>("/user-auth/login", body);
}

export function signUp(body: TSignupRequest): Promise<TAuthResponse> {
  return api.post<TAuthResponse>("/user-auth/signup", body);
}

export function requestPasswordReset(email: string): Promise<TSuccessResponse> {
  return api.post<TSuccessResponse>("/user-auth/forgot-password", { email });
}

export function resetPassword(token: string, password: string): Promise<TSuccessResponse> {
  return api.post<TSuccessResponse>("/user-auth/reset-password", { token, password });
}

export function verifyEmail(token: string): Promise<TSuccessResponse> {
  return api.post<TSuccessResponse>("/user-auth/verify-email", { token });
}

export function resendVerification(): Promise<TSuccessResponse> {
  return api.post<TSuccessResponse>("/user-auth/resend-verification");
}

export function updateProfile(body: TUpdateProfileRequest): Promise<TUserResponse> {
  return api.put<TUserResponse>("/users/profile", body);
}

export function listSignIns(signal?: AbortSignal): Promise<TSignInListResponse> {
  return api.get<TSignInListResponse>("/auth/sign-ins", { signal });
}

export function revokeSignIn(id: string): Promise<{ success: true }> {
  return api.delete<{ success: true }>(`/auth/sign-ins/${encodeURIComponent(id)}`);
}

/**
 * The text to show for a failed call: the server's own message for a refused request (4xx,
 * which the server words for people), otherwise the caller's fallback.
 */
export function failureMessage(error: unknown, fallback: string): string {
  if (isApiError(error) && error.status >= 400 && error.status < 500 && error.message) {
    return error.message;
  }
  return fallback;
}
