import {
  getBrowserStorage,
  readStorage,
  removeStorageIfPresent,
  writeStorage,
} from "../../lib/storage/browser-storage";
import { type ToastOptions, toast } from "./toast-store";

/** sessionStorage key of toasts that must survive the page reload that follows them. */
export const FLASH_TOAST_KEY = "flashToasts";

/** Shows `options` after the next page load (e.g. "Agreement accepted successfully" + reload). */
export function queueFlashToast(options: ToastOptions): void {
  const session = getBrowserStorage("sessionStorage");
  const queued = readFlashToasts();
  writeStorage(session, FLASH_TOAST_KEY, JSON.stringify([...queued, options]));
}

function readFlashToasts(): ToastOptions[] {
  const raw = readStorage(getBrowserStorage("sessionStorage"), FLASH_TOAST_KEY);
  if (raw === null) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed)
      ? parsed.filter(
          (item): item is ToastOptions =>
            typeof item === "object" && item !== null && typeof item.title === "string",
        )
      : [];
  } catch {
    return [];
  }
}

/** Shows and forgets the toasts queued before the last reload. */
export function showFlashToasts(): void {
  const queued = readFlashToasts();
  removeStorageIfPresent(getBrowserStorage("sessionStorage"), FLASH_TOAST_KEY);
  for (const options of queued) toast(options);
}
