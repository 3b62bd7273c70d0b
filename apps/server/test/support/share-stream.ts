import { parseSse, type SseEvent } from "./sse";

/** A share link's live stream read over real HTTP, frame by frame. */
export interface ShareStreamReader {
  response: Response;
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
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/share/${token}/events?after=${after}`, {
    signal: controller.signal,
  });
  const received: SseEvent[] = [];
  let done = response.status !== 200;
  const reader = done ? null : (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const readUntil = async (until: (events: SseEvent[]) => boolean) => {
    while (!until(received) && !done && reader) {
      const chunk = await reader.read();
      if (chunk.done) {
        done = true;
        break;
      }
      buffer += decoder.decode(chunk.value, { stream: true });
      const end = buffer.lastIndexOf("\n\n");
      if (end >= 0) {
        received.push(...parseSse(buffer.slice(0, end + 2)));
        buffer = buffer.slice(end + 2);
      }
    }
    return received;
  };
  return {
    response,
    received,
    readUntil,
    ended: () => done,
    close: () => controller.abort(),
  };
}
