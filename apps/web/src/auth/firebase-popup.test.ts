import { describe, expect, it } from "vitest";
import { firebaseErrorCode, isPopupDismissed, popupFailureDetail } from "./firebase-popup";

/** A Firebase error as the SDK throws it (FirebaseError: name, code, message). */
function firebaseError(code: string) {
  return Object.assign(new Error(`Firebase: Error (${code}).`), { name: "FirebaseError", code });
}

describe("the identity provider's popup errors", () => {
  it("treats a closed or replaced popup as no failure at all (the error texts)", () => {
    expect(isPopupDismissed(firebaseError("auth/popup-closed-by-user"))).toBe(true);
    expect(isPopupDismissed(firebaseError("auth/cancelled-popup-request"))).toBe(true);
    expect(isPopupDismissed(firebaseError("auth/popup-blocked"))).toBe(false);
    expect(isPopupDismissed(new Error("boom"))).toBe(false);
  });

  it.each([
    ["auth/network-request-failed", "Could not reach Google. Check your connection and try again."],
    [
      "auth/user-disabled",
      "This Google sign-in has been disabled. Sign in another way or contact support.",
    ],
    ["auth/user-token-expired", "Your Google sign-in has expired. Please sign in again."],
    [
      "auth/popup-blocked",
      "Your browser blocked the sign-in window. Allow pop-ups for this site and try again.",
    ],
    [
      "auth/account-exists-with-different-credential",
      "An account with this email already signs in another way. Sign in that way first, then link Google in Settings.",
    ],
  ])("explains %s", (code, message) => {
    expect(popupFailureDetail(firebaseError(code), "google")).toBe(message);
  });

  it("names the provider, and says nothing more for codes it does not know", () => {
    expect(popupFailureDetail(firebaseError("auth/network-request-failed"), "github")).toBe(
      "Could not reach GitHub. Check your connection and try again.",
    );
    expect(popupFailureDetail(firebaseError("auth/something-new"), "google")).toBeNull();
    expect(firebaseErrorCode(new Error("no code"))).toBeNull();
    expect(firebaseErrorCode({ code: "not-auth" })).toBeNull();
  });
});
