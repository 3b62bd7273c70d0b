// @vitest-environment node
import { describe, expect, it } from "vitest";
import { toastPlacement } from "./toast-placement";

/** A phone: 360 × 640, the list spans the width and is 120 px tall. */
const list = { left: 0, right: 360, top: 520, bottom: 640 };
const box = (top: number, bottom: number) => ({ left: 20, right: 340, top, bottom });

describe("toast placement", () => {
  it("stays at the bottom when nothing it would cover caused a toast", () => {
    expect(toastPlacement(list, [], 640)).toBe("bottom");
    expect(toastPlacement(list, [box(300, 340)], 640)).toBe("bottom");
  });

  it("moves to the top when the causing button is in the bottom band", () => {
    expect(toastPlacement(list, [box(580, 620)], 640)).toBe("top");
  });

  it("measures the band from the list's own size, wherever it is now", () => {
    const shownAtTop = { left: 0, right: 360, top: 0, bottom: 120 };
    expect(toastPlacement(shownAtTop, [box(580, 620)], 640)).toBe("top");
    expect(toastPlacement(shownAtTop, [box(300, 340)], 640)).toBe("bottom");
  });

  it("keeps the bottom when both bands would cover a trigger", () => {
    expect(toastPlacement(list, [box(580, 620), box(10, 50)], 640)).toBe("bottom");
  });

  it("ignores a trigger beside a narrow list (desktop, bottom right)", () => {
    const desktop = { left: 896, right: 1280, top: 700, bottom: 800 };
    expect(toastPlacement(desktop, [{ left: 100, right: 300, top: 720, bottom: 760 }], 800)).toBe(
      "bottom",
    );
  });
});
