/**
 * A tiny toast queue with no UI dependency, so any module can call `toast()` without pulling
 * the Radix Toast code into the first page load. `<ToastHost />` loads the renderer the first
 * time a toast is queued; toasts queued before it arrives are shown once it does.
 */
export type ToastVariant = "success" | "error" | "info" | "warning";

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** How long the toast stays; defaults to 5 s. */
  durationMs?: number;
}

export interface ToastItem {
  id: string;
  title: string;
  description?: string;
  variant: ToastVariant;
  durationMs: number;
  /** The control the user last used before this toast: the toasts keep clear of it. */
  trigger?: Element;
}

export const DEFAULT_TOAST_DURATION_MS = 5_000;
/** More than this many at once would bury the page; the oldest go first. */
export const MAX_VISIBLE_TOASTS = 4;

type Listener = () => void;

let items: readonly ToastItem[] = [];
let counter = 0;
const listeners = new Set<Listener>();
let lastTrigger: Element | null = null;

/**
 * Records the control the user just used (a click, a key press, a form's submit button),
 * so a toast it causes later — after a call answers — can be kept from covering it.
 */
export function noteToastTrigger(element: Element | null): void {
  lastTrigger = element;
}

function emit(): void {
  for (const listener of listeners) listener();
}

export function toast(options: ToastOptions): string {
  counter += 1;
  const item: ToastItem = {
    id: `toast-${counter}`,
    title: options.title,
    variant: options.variant ?? "info",
    durationMs: options.durationMs ?? DEFAULT_TOAST_DURATION_MS,
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(lastTrigger?.isConnected ? { trigger: lastTrigger } : {}),
  };
  items = [...items, item].slice(-MAX_VISIBLE_TOASTS);
  emit();
  return item.id;
}

export function dismissToast(id: string): void {
  const next = items.filter((item) => item.id !== id);
  if (next.length === items.length) return;
  items = next;
  emit();
}

export function getToasts(): readonly ToastItem[] {
  return items;
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
