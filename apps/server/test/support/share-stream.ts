import { get, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { parseSse, type SseEvent } from "./sse";

/**
 * A share link's live stream read over real HTTP, frame by frame. Through node:http rather
 * than fetch: closing destroys the connection, as a closed tab does (an aborted fetch can
 * leave it open, and the server then waits for it when it closes).
 */
export interface ShareStreamReader {
  status: number;
  headers: IncomingHttpHeaders;
  received: SseEvent[];
  /** Reads until `until` is true of what arrived, or the stream ends. */
  readUntil(until: (events: SseEvent[]) => boolean): Promise<SseEvent[]>;
  ended(): boolean;
  close(): void;
}

export async function openShareStream(
  baseUrl: string,
  token: string,
  after = 0,
): Promise<ShareStreamReader> {
  const request = get(`${baseUrl}/api/share/${token}/events?after=${after}`);
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request.once("response", resolve);
    request.once("error", reject);
  });
  response.setEncoding("utf8");
  const received: SseEvent[] = [];
  let buffer = "";
  let done = false;
  let notify: (() => void) | null = null;
  response.on("data", (chunk: string) => {
    buffer += chunk;
    const end = buffer.lastIndexOf("\n\n");
    if (end >= 0) {
      received.push(...parseSse(buffer.slice(0, end + 2)));
      buffer = buffer.slice(end + 2);
    }
    notify?.();
  });
  const finish = () => {
    done = true;
    notify?.();
  };
  response.once("end", finish);
  response.once("close", finish);
  request.once("error", finish);
  const readUntil = async (until: (events: SseEvent[]) => boolean) => {
    while (!until(received) && !done) {
      await new Promise<void>((resolve) => {
        notify = resolve;
      });
      notify = null;
    }
    return received;
  };
  return {
    status: response.statusCode ?? 0,
    headers: response.headers,
    received,
    readUntil,
    ended: () => done,
    close: () => request.destroy(),
  };
}
