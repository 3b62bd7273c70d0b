// @vitest-environment node
import { describe, expect, it } from "vitest";
import { INITIAL_CONNECTION_SNAPSHOT } from "../../lib/realtime/connection-state";
import { shownIndicator } from "./connection-status";

describe("the connection indicator's text (the UI states)", () => {
  it("says Disconnected before the first connection", () => {
    expect(shownIndicator(INITIAL_CONNECTION_SNAPSHOT)).toBe("disconnected");
  });

  it("is hidden while connected and follows the machine otherwise", () => {
    const connected = { ...INITIAL_CONNECTION_SNAPSHOT, connected: true };
    expect(shownIndicator(connected)).toBe("hidden");
    expect(shownIndicator({ ...connected, indicator: "reconnected" })).toBe("reconnected");
    expect(shownIndicator({ ...INITIAL_CONNECTION_SNAPSHOT, indicator: "reconnecting" })).toBe(
      "reconnecting",
    );
  });
});
