/**
 * Advisory class: sockets outliving their sign-in (decision 018, finding 7). Revocation (sign-out,
 * revoke from the sign-ins list, password reset) has always dropped a sign-in's sockets at
 * once; a sign-in that simply ran out of time kept its open socket — and its live stream of
 * the user's runs and credits — until the socket closed by itself. Both must end.
 */
import { SERVER_EVENTS } from "@cohort/contracts";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "../support/accounts";
import { createTestApp, listenLocally, type TestApp } from "../support/app";
import { socketOpener } from "../support/sockets";

let t: TestApp;
let url: string;
const sockets = socketOpener(() => url);

beforeAll(async () => {
  t = await createTestApp({ SOCKET_SIGN_IN_CHECK_MS: "200" });
  url = await listenLocally(t.app);
});
afterAll(async () => {
  sockets.closeAll();
  await t.close();
});

async function openSocket(token: string): Promise<Socket> {
  const socket = sockets.open({ token });
  await new Promise((resolve, reject) => {
    socket.on(SERVER_EVENTS.ready, resolve);
    socket.on("connect_error", reject);
  });
  return socket;
}

function disconnected(socket: Socket, withinMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), withinMs);
    socket.on("disconnect", (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}

async function signInIdOf(token: string): Promise<string> {
  const response = await t.app.inject({
    method: "GET",
    url: "/api/auth/sign-ins",
    headers: { authorization: `Bearer ${token}` },
  });
  const current = response.json().sign_ins.find((s: { current: boolean }) => s.current);
  return current.id as string;
}

describe("a socket whose sign-in ends", () => {
  it.each([
    ["absolute", "expires_at"],
    ["idle", "idle_expires_at"],
  ])("is dropped when the sign-in passes its %s expiry", async (_, column) => {
    const { token } = await signUp(t.app);
    const bystander = await signUp(t.app);
    const socket = await openSocket(token);
    const other = await openSocket(bystander.token);
    const id = await signInIdOf(token);
    // Time passes for this sign-in only (the database's clock decides expiry).
    await t.db.query(`UPDATE sign_ins SET ${column} = now() - interval '1 second' WHERE id = $1`, [
      id,
    ]);
    expect(await disconnected(socket, 3_000)).toBe("io server disconnect");
    expect(other.connected).toBe(true);
    // And it cannot come back with the same token.
    await expect(openSocket(token)).rejects.toMatchObject({ data: { code: "unauthorized" } });
  });

  it("is dropped at once when the sign-in is revoked from another device", async () => {
    const { token, client } = await signUp(t.app);
    const phone = await openSocket(token);
    const id = await signInIdOf(token);
    const ended = disconnected(phone, 1_000);
    expect((await client.delete(`/api/auth/sign-ins/${id}`)).statusCode).toBe(200);
    expect(await ended).toBe("io server disconnect");
  });

  it("stays connected while its sign-in is valid", async () => {
    const { token } = await signUp(t.app);
    const socket = await openSocket(token);
    expect(await disconnected(socket, 800)).toBeNull();
    expect(socket.connected).toBe(true);
  });
});
