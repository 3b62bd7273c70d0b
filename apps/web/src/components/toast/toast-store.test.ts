// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  DEFAULT_TOAST_DURATION_MS,
  dismissToast,
  getToasts,
  MAX_VISIBLE_TOASTS,
  subscribeToasts,
  toast,
} from "./toast-store";

afterEach(() => {
  for (const item of getToasts()) dismissToast(item.id);
});

describe("toast store", () => {
  it("queues a toast with defaults and tells subscribers", () => {
    const listener = vi.fn();
    const unsubscribe = subscribeToasts(listener);
    const id = toast({ title: "Welcome back!", variant: "success" });
    unsubscribe();

    expect(listener).toHaveBeenCalledTimes(1);
    expect(getToasts()).toEqual([
      { id, title: "Welcome back!", variant: "success", durationMs: DEFAULT_TOAST_DURATION_MS },
    ]);
  });

  it("keeps a caller's duration and removes a dismissed toast", () => {
    const id = toast({
      title: "Critical: Only 5 credits remaining!",
      variant: "error",
      durationMs: 5_000,
    });
    toast({ title: "Low credits: 20 remaining", variant: "warning", durationMs: 4_000 });
    dismissToast(id);
    expect(getToasts().map((item) => [item.title, item.durationMs])).toEqual([
      ["Low credits: 20 remaining", 4_000],
    ]);
  });

  it("drops the oldest toasts beyond the visible limit", () => {
    for (let i = 1; i <= MAX_VISIBLE_TOASTS + 2; i++) toast({ title: `Message ${i}` });
    const titles = getToasts().map((item) => item.title);
    expect(titles).toHaveLength(MAX_VISIBLE_TOASTS);
    expect(titles[0]).toBe("Message 3");
  });
});
