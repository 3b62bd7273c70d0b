import { SERVER_EVENTS, SIGN_IN_COOKIE, type TSocketReady } from "@cohort/contracts";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkToken, logIn, signUp, TEST_PASSWORD, waitForMail } from "./support/accounts";
import { createTestApp, listenLocally, type TestApp } from "./support/app";
import { TestClient } from "./support/client";

let t: TestApp;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  url = await listenLocally(t.app);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t.close();
});

interface OpenOptions {
  transports?: ("polling" | "websocket")[];
  token?: string;
  cookie?: string;
}

function open(options: OpenOptions = {}): Socket {
  const socket = connect(url, {
    transports: options.transports ?? ["polling"],
    reconnection: false,
    timeout: 5_000,
    ...(options.token ? { auth: { token: options.token } } : {}),
    ...(options.cookie ? { extraHeaders: { cookie: options.cookie } } : {}),
  });
  sockets.push(socket);
  return socket;
}

function ready(socket: Socket): Promise<TSocketReady> {
  return new Promise((resolve, reject) => {
    socket.on(SERVER_EVENTS.ready, resolve);
    socket.on("connect_error", reject);
  });
}

function refusal(socket: Socket): Promise<{ message: string; data?: { code?: string } }> {
  return new Promise((resolve, reject) => {
    socket.on("connect", () => reject(new Error("connected")));
    socket.on("connect_error", (error) => resolve(error as Error & { data?: { code?: string } }));
  });
}

function disconnected(socket: Socket): Promise<string> {
  return new Promise((resolve) => socket.on("disconnect", (reason) => resolve(reason)));
}

describe("realtime", () => {
  it("completes the handshake over polling with a token and says it is ready", async () => {
    const { token } = await signUp(t.app);
    const socket = open({ token });
    const hello = await ready(socket);
    expect(hello.transport).toBe("polling");
    expect(hello.socketId).toBe(socket.id);
  });

  it("refuses the websocket transport unless REALTIME_TRANSPORTS allows it", async () => {
    const { token } = await signUp(t.app);
    const socket = open({ transports: ["websocket"], token });
    const outcome = await new Promise<string>((resolve) => {
      socket.on("connect", () => resolve("connected"));
      socket.on("connect_error", () => resolve("refused"));
    });
    expect(outcome).toBe("refused");
  });
});

describe("socket authentication", () => {
  it("refuses a connection without a sign-in, with data.code 'unauthorized'", async () => {
    const error = await refusal(open());
    expect(error.message).toBe("Please sign in to continue.");
    expect(error.data?.code).toBe("unauthorized");
  });

  it("refuses a forged token", async () => {
    const error = await refusal(open({ token: "A".repeat(43) }));
    expect(error.data?.code).toBe("unauthorized");
  });

  it("accepts the sign-in cookie, puts the user on socket.data and joins its rooms", async () => {
    const { token, user } = await signUp(t.app);
    const socket = open({ cookie: `${SIGN_IN_COOKIE}=${token}` });
    await ready(socket);
    const [server] = await t.app.realtime.io.in(`user:${user.id}`).fetchSockets();
    expect(server?.id).toBe(socket.id);
    expect(server?.data.user).toMatchObject({ id: user.id, email: user.email, role: "user" });
    const signInRooms = [...(server?.rooms ?? [])].filter((room) => room.startsWith("session:"));
    expect(signInRooms).toHaveLength(1);
  });

  it("disconnects a sign-in's sockets at once when it is revoked, and only those", async () => {
    const { email, client, token } = await signUp(t.app);
    const { response } = await logIn(t.app, email, TEST_PASSWORD);
    const otherToken = response.json().token as string;
    const revokedSocket = open({ token });
    const keptSocket = open({ token: otherToken });
    await Promise.all([ready(revokedSocket), ready(keptSocket)]);

    const signIns = (await client.get("/api/auth/sign-ins")).json().sign_ins;
    const current = signIns.find((s: { current: boolean }) => s.current);
    const gone = disconnected(revokedSocket);
    const api = new TestClient(t.app);
    api.bearer = otherToken;
    expect((await api.delete(`/api/auth/sign-ins/${current.id}`)).statusCode).toBe(200);
    expect(await gone).toBe("io server disconnect");
    expect(keptSocket.connected).toBe(true);

    // A revoked sign-in cannot come back either.
    expect((await refusal(open({ token }))).data?.code).toBe("unauthorized");
  });

  it("disconnects the socket on logout", async () => {
    const { client, token } = await signUp(t.app);
    const socket = open({ token });
    await ready(socket);
    const gone = disconnected(socket);
    expect((await client.post("/api/auth/logout")).statusCode).toBe(200);
    expect(await gone).toBe("io server disconnect");
  });

  it("disconnects every socket of the account when its password is reset", async () => {
    const { email, token } = await signUp(t.app);
    const { response } = await logIn(t.app, email, TEST_PASSWORD);
    const first = open({ token });
    const second = open({ token: response.json().token });
    await Promise.all([ready(first), ready(second)]);
    const gone = Promise.all([disconnected(first), disconnected(second)]);

    await new TestClient(t.app).post("/api/user-auth/forgot-password", { email });
    const resetToken = linkToken(
      await waitForMail(t.app, email, (m) => m.subject.includes("Reset")),
      "/reset-password",
    );
    const reset = await new TestClient(t.app).post("/api/user-auth/reset-password", {
      token: resetToken,
      password: "a fresh secret phrase",
    });
    expect(reset.statusCode).toBe(200);
    expect(await gone).toEqual(["io server disconnect", "io server disconnect"]);
  });
});
