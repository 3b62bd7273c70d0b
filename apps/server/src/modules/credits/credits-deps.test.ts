import type { FastifyBaseLogger } from "fastify";
import { describe, expect, it } from "vitest";
import type { Realtime } from "../../platform/realtime";
import { userRoom } from "../../platform/realtime-rooms";
import { type CreditChange, publishToSockets } from "./credits-deps";

/** A realtime server that records what it emits to which rooms. */
function recordingRealtime() {
  const emitted: { rooms: string[]; reason: string }[] = [];
  const io = {
    to: (rooms: string | string[]) => ({
      emit: (_event: string, change: CreditChange) => {
        emitted.push({ rooms: [rooms].flat(), reason: change.reason });
        return true;
      },
    }),
  };
  return { realtime: { io } as unknown as Realtime, emitted };
}

const pooled = (reason: CreditChange["reason"]): CreditChange => ({
  userId: "pool",
  workspace_id: "w1",
  balance: 1,
  available: 1,
  delta: 0,
  reason,
});

describe("publishToSockets", () => {
  it("keeps a pool's changes in order across publishers of the same server", async () => {
    const { realtime, emitted } = recordingRealtime();
    let lookups = 0;
    const audience = {
      // The first lookup is the slowest: a chain per publisher would let the second overtake.
      members: async () => {
        const wait = lookups++ === 0 ? 30 : 0;
        await new Promise((resolve) => setTimeout(resolve, wait));
        return ["m1", "m2"];
      },
      log: { warn: () => undefined } as unknown as FastifyBaseLogger,
    };
    const adminRoute = publishToSockets(realtime, audience);
    const runSettlement = publishToSockets(realtime, audience);
    adminRoute([pooled("admin_adjustment")]);
    runSettlement([pooled("hold")]);
    runSettlement([pooled("usage")]);
    while (emitted.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(emitted.map((e) => e.reason)).toEqual(["admin_adjustment", "hold", "usage"]);
    expect(emitted[0]?.rooms).toEqual([userRoom("m1"), userRoom("m2")]);
  });
});
