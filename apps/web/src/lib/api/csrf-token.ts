import {
  readStorage,
  removeStorageIfPresent,
  STORAGE_KEYS,
  type StorageLike,
  writeStorage,
} from "../storage/browser-storage";

/** The CSRF token the API client sends with every mutation, kept for the tab's session. */
export interface CsrfToken {
  /** The token, fetched once however many mutations wait for it. */
  ensure(): Promise<string>;
  /** Forget it (sign-in, sign-out, or the server rejected it). */
  drop(): void;
}

export function createCsrfToken(
  storage: StorageLike | null,
  fetchToken: () => Promise<string>,
): CsrfToken {
  let token: string | null = readStorage(storage, STORAGE_KEYS.csrfToken);
  let pending: Promise<string> | null = null;
  return {
    ensure() {
      if (token !== null) return Promise.resolve(token);
      pending ??= fetchToken()
        .then((fresh) => {
          token = fresh;
          writeStorage(storage, STORAGE_KEYS.csrfToken, fresh);
          return fresh;
        })
        .finally(() => {
          pending = null;
        });
      return pending;
    },
    drop() {
      token = null;
      removeStorageIfPresent(storage, STORAGE_KEYS.csrfToken);
    },
  };
}
