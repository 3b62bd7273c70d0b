import type { AddressInfo } from "node:net";
import { SERVER_EVENTS, type TSocketReady } from "@cohort/contracts";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./support/app";

let t: TestApp;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t.close();
});

function open(transports: ("polling" | "websocket")[]): Socket {
  const socket = connect(url, { transports, reconnection: false, timeout: 5_000 });
  sockets.push(socket);
  return socket;
}

describe("realtime", () => {
  it("completes the handshake over polling and says it is ready", async () => {
    const socket = open(["polling"]);
    const ready = await new Promise<TSocketReady>((resolve, reject) => {
      socket.on(SERVER_EVENTS.ready, resolve);
      socket.on("connect_error", reject);
    });
    expect(ready.transport).toBe("polling");
    expect(ready.socketId).toBe(socket.id);
  });

  it("refuses the websocket transport unless REALTIME_TRANSPORTS allows it", async () => {
    const socket = open(["websocket"]);
    const outcome = await new Promise<string>((resolve) => {
      socket.on("connect", () => resolve("connected"));
      socket.on("connect_error", () => resolve("refused"));
    });
    expect(outcome).toBe("refused");
  });
});
