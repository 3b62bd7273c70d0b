import { CLIENT_EVENTS, type TJoinSessionAck } from "@cohort/contracts";
import { io as connect, type Socket } from "socket.io-client";

export interface SocketOptions {
  token?: string;
  cookie?: string;
  transports?: ("polling" | "websocket")[];
}

/**
 * Opens real socket.io clients against a listening test app, as the web app does (polling,
 * no reconnection), and closes every one of them at the end of the file.
 */
export function socketOpener(url: () => string) {
  const opened: Socket[] = [];
  return {
    open(options: SocketOptions = {}): Socket {
      const socket = connect(url(), {
        transports: options.transports ?? ["polling"],
        reconnection: false,
        timeout: 5_000,
        ...(options.token ? { auth: { token: options.token } } : {}),
        ...(options.cookie ? { extraHeaders: { cookie: options.cookie } } : {}),
      });
      opened.push(socket);
      return socket;
    },
    closeAll(): void {
      for (const socket of opened) socket.close();
    },
  };
}

/** Until the socket is connected (at once when it is); a refused connection rejects. */
export function connected(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.connected) return resolve();
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
}

/** Joins a session's room as the web app does, from the last event it has (if any). */
export function joinSession(
  socket: Socket,
  sessionId: unknown,
  lastSeq?: number,
): Promise<TJoinSessionAck> {
  return socket
    .timeout(5_000)
    .emitWithAck(
      CLIENT_EVENTS.joinSession,
      lastSeq === undefined ? { sessionId } : { sessionId, lastSeq },
    );
}
