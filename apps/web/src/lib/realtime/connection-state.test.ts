import { describe, expect, it } from "vitest";
import {
  CONNECTION_ANNOUNCEMENTS,
  type ConnectionSnapshot,
  createConnectionMachine,
  type MachineClock,
} from "./connection-state";

/** A clock whose time moves only when the test says so. */
function fakeClock() {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  const clock: MachineClock = {
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { at: now + ms, callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
  };
  const advance = (ms: number) => {
    const target = now + ms;
    for (;;) {
      const due = [...timers.entries()]
        .filter(([, t]) => t.at <= target)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].callback();
    }
    now = target;
  };
  return { clock, advance, pending: () => timers.size };
}

function setup() {
  const { clock, advance, pending } = fakeClock();
  const machine = createConnectionMachine(clock);
  const announcements: string[] = [];
  let last: ConnectionSnapshot = machine.getSnapshot();
  machine.subscribe(() => {
    const next = machine.getSnapshot();
    if (next.announcementId !== last.announcementId) announcements.push(next.announcement);
    last = next;
  });
  return {
    machine,
    advance,
    pending,
    announcements,
    indicator: () => machine.getSnapshot().indicator,
  };
}

describe("connection indicator (the UI states)", () => {
  it("stays hidden while the first connection is made and while connected", () => {
    const { machine, indicator, announcements } = setup();
    expect(indicator()).toBe("hidden");
    machine.connected();
    expect(indicator()).toBe("hidden");
    expect(machine.getSnapshot().connected).toBe(true);
    expect(announcements).toEqual([]);
  });

  it("shows Disconnected at once, Reconnecting after 2 s, Reconnected for 3 s, then hides", () => {
    const { machine, advance, indicator, announcements, pending } = setup();
    machine.connected();

    machine.disconnected();
    expect(indicator()).toBe("disconnected");
    expect(announcements).toEqual([CONNECTION_ANNOUNCEMENTS.lost]);

    advance(1_999);
    expect(indicator()).toBe("disconnected");
    advance(1);
    expect(indicator()).toBe("reconnecting");
    expect(announcements).toEqual([
      CONNECTION_ANNOUNCEMENTS.lost,
      CONNECTION_ANNOUNCEMENTS.reconnecting,
    ]);

    advance(10_000);
    expect(indicator()).toBe("reconnecting");
    machine.connected();
    expect(indicator()).toBe("reconnected");
    expect(announcements.at(-1)).toBe(CONNECTION_ANNOUNCEMENTS.restored);
    advance(2_999);
    expect(indicator()).toBe("reconnected");
    advance(1);
    expect(indicator()).toBe("hidden");
    expect(announcements).toHaveLength(3);
    expect(pending()).toBe(0);
  });

  it("says Reconnected when the connection comes back before the 2 s", () => {
    const { machine, advance, indicator, announcements } = setup();
    machine.connected();
    machine.disconnected();
    advance(500);
    machine.connected();
    expect(indicator()).toBe("reconnected");
    // The pending "Reconnecting" step must not fire afterwards.
    advance(2_000);
    expect(announcements).toEqual([
      CONNECTION_ANNOUNCEMENTS.lost,
      CONNECTION_ANNOUNCEMENTS.restored,
    ]);
    advance(1_000);
    expect(indicator()).toBe("hidden");
  });

  it("counts repeated failure reports of one outage once", () => {
    const { machine, advance, announcements } = setup();
    machine.connected();
    machine.disconnected();
    advance(1_000);
    machine.disconnected();
    advance(1_000);
    machine.disconnected();
    expect(announcements).toEqual([
      CONNECTION_ANNOUNCEMENTS.lost,
      CONNECTION_ANNOUNCEMENTS.reconnecting,
    ]);
  });

  it("a loss during the Reconnected display starts over", () => {
    const { machine, advance, indicator } = setup();
    machine.connected();
    machine.disconnected();
    machine.connected();
    advance(1_000);
    machine.disconnected();
    expect(indicator()).toBe("disconnected");
    advance(5_000);
    expect(indicator()).toBe("reconnecting");
  });

  it("treats a failed first connection as lost", () => {
    const { machine, advance, indicator, announcements } = setup();
    machine.disconnected();
    expect(indicator()).toBe("disconnected");
    advance(2_000);
    expect(indicator()).toBe("reconnecting");
    machine.connected();
    expect(announcements.at(-1)).toBe(CONNECTION_ANNOUNCEMENTS.restored);
  });

  it("shows Disconnected after giving up, and Reconnecting again on a manual retry", () => {
    const { machine, advance, indicator } = setup();
    machine.connected();
    machine.disconnected();
    advance(2_000);
    machine.gaveUp();
    expect(indicator()).toBe("disconnected");
    expect(machine.getSnapshot().gaveUp).toBe(true);
    advance(10_000);
    expect(indicator()).toBe("disconnected");
    machine.retrying();
    expect(indicator()).toBe("reconnecting");
    expect(machine.getSnapshot().gaveUp).toBe(false);
    machine.connected();
    expect(indicator()).toBe("reconnected");
  });

  it("reset clears timers and state", () => {
    const { machine, pending, indicator } = setup();
    machine.connected();
    machine.disconnected();
    machine.reset();
    expect(indicator()).toBe("hidden");
    expect(pending()).toBe(0);
  });
});
