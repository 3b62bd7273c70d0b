/** Where the toast list sits: at the bottom, unless it would cover the control that caused it. */
export type ToastPlacement = "bottom" | "top";

export interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * `list` is the toast list as laid out now (its width and height hold in either place);
 * `triggers` are the controls the shown toasts came from. Bottom is the default; top is
 * chosen when the bottom band would cover a trigger and the top band would not.
 */
export function toastPlacement(
  list: Box,
  triggers: readonly Box[],
  viewportHeight: number,
): ToastPlacement {
  const height = list.bottom - list.top;
  const bottom = {
    left: list.left,
    right: list.right,
    top: viewportHeight - height,
    bottom: viewportHeight,
  };
  const top = { left: list.left, right: list.right, top: 0, bottom: height };
  const coversAtBottom = triggers.some((trigger) => overlaps(bottom, trigger));
  const coversAtTop = triggers.some((trigger) => overlaps(top, trigger));
  return coversAtBottom && !coversAtTop ? "top" : "bottom";
}
