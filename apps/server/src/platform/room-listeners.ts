import type { Namespace } from "socket.io";

type Adapter = Namespace["adapter"];
type BroadcastOptions = Parameters<Adapter["broadcast"]>[1];

/** What a server-side listener hears of a room: the event's name and its first argument. */
export type RoomListener = (event: string, payload: unknown) => void;

/**
 * Messages the socket.io Redis adapter publishes for one room, from every instance: the
 * channel and the decoder are the adapter's own (decision 051). Absent without Redis.
 */
export interface RemoteRoomFeed {
  /** Resolves once the subscription is active; the returned function ends it. */
  subscribe(channel: string, onMessage: (message: Buffer) => void): Promise<() => void>;
}

/** A socket.io packet as adapters broadcast it: `data` is `[event, ...args]`. */
interface BroadcastPacket {
  type?: number;
  data?: unknown;
}

/** The Redis adapter's public surface that a listener needs (socket.io-adapter's base lacks it). */
interface RedisAdapterLike {
  uid: string;
  parser: { decode(message: Buffer): unknown };
}

const isRedisAdapter = (adapter: Adapter): adapter is Adapter & RedisAdapterLike =>
  "uid" in adapter && "parser" in adapter;

/**
 * Server-side listeners of socket.io rooms, fed by the very fan-out that carries room events
 * to sockets (decision 051): a process's own broadcasts as they are made, and (with Redis)
 * the other instances' broadcasts from the adapter's channel for the room, subscribed only
 * while someone here listens. Share streams use it to follow a chat room without a socket
 * and without reading the database in a loop.
 */
export function createRoomListeners(
  adapterOf: () => Adapter,
  options: { remote?: RemoteRoomFeed | undefined; channelKey: string },
) {
  const listeners = new Map<string, Set<RoomListener>>();
  const remote = new Map<string, Promise<() => void>>();
  let tapped: Adapter | null = null;

  const notify = (rooms: Iterable<string>, packet: BroadcastPacket) => {
    if (!Array.isArray(packet.data) || typeof packet.data[0] !== "string") return;
    const [event, payload] = packet.data as [string, unknown];
    for (const room of rooms) {
      for (const listener of listeners.get(room) ?? []) listener(event, payload);
    }
  };

  /** The namespace's adapter, with its broadcasts of this process heard (once per adapter). */
  const tap = (): Adapter => {
    const adapter = adapterOf();
    if (tapped === adapter) return adapter;
    const broadcast = adapter.broadcast.bind(adapter);
    adapter.broadcast = (packet: BroadcastPacket, opts: BroadcastOptions) => {
      if (listeners.size > 0) notify(opts.rooms, packet);
      broadcast(packet, opts);
    };
    tapped = adapter;
    return adapter;
  };

  const subscribeRemote = (adapter: Adapter, room: string) => {
    const feed = options.remote;
    if (!feed || !isRedisAdapter(adapter) || remote.has(room)) return remote.get(room);
    // The adapter publishes a one-room broadcast on `<key>#<namespace>#<room>#` as
    // [sender uid, packet, options], encoded with its parser.
    const channel = `${options.channelKey}#/#${room}#`;
    const subscribed = feed.subscribe(channel, (message) => {
      const decoded = adapter.parser.decode(message);
      if (!Array.isArray(decoded)) return;
      const [uid, packet] = decoded as [unknown, BroadcastPacket | undefined];
      // This process's own broadcasts were heard as they were made.
      if (uid === adapter.uid || !packet) return;
      notify([room], packet);
    });
    remote.set(room, subscribed);
    subscribed.catch(() => remote.delete(room));
    return subscribed;
  };

  return {
    /** Hears the room's events until the returned function is called. */
    async listen(room: string, listener: RoomListener): Promise<() => void> {
      const adapter = tap();
      let set = listeners.get(room);
      if (!set) {
        set = new Set();
        listeners.set(room, set);
      }
      set.add(listener);
      const stop = () => {
        const current = listeners.get(room);
        if (!current?.delete(listener) || current.size > 0) return;
        listeners.delete(room);
        const unsubscribe = remote.get(room);
        remote.delete(room);
        void unsubscribe?.then((end) => end()).catch(() => {});
      };
      try {
        await subscribeRemote(adapter, room);
      } catch (error) {
        stop();
        throw error;
      }
      return stop;
    },
  };
}
