import type * as Argon2 from "@node-rs/argon2";
import { lazyModule } from "../../platform/lazy-module";

/**
 * argon2 (a native module, ~9 MB resident with its first hash) loads at the first password
 * hashed or checked, not at start-up (decision 085).
 */
export const argon2 = lazyModule<typeof Argon2>("@node-rs/argon2");

/**
 * argon2id at OWASP's minimum (19 MiB, 2 passes, 1 lane): @node-rs/argon2 defaults to the
 * argon2id variant, so only the costs are named.
 */
export const PASSWORD_HASH_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2().hash(password, PASSWORD_HASH_OPTIONS);
}

/** True when a stored hash was made with other costs, so a successful login upgrades it. */
export function needsRehash(stored: string): boolean {
  try {
    const used = argon2().parseOptions(stored);
    return (
      !stored.startsWith("$argon2id$") ||
      used.memoryCost !== PASSWORD_HASH_OPTIONS.memoryCost ||
      used.timeCost !== PASSWORD_HASH_OPTIONS.timeCost ||
      used.parallelism !== PASSWORD_HASH_OPTIONS.parallelism
    );
  } catch {
    return true;
  }
}
