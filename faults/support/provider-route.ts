import {
  createServer,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

/**
 * One instance's way to the fake provider: a pass-through HTTP proxy in front of it, one per
 * instance, so a test sees which instance makes a model call (`inFlight`, `count`), can hold
 * new calls at the door until it lets them through (`hold` / `release`: all of them, or those
 * whose request contains a text), and can reset the next connections before any byte of an
 * answer (`resetNext`).
 */
export class ProviderRoute {
  /** Calls that came through and have not ended yet. */
  inFlight = 0;
  /** Calls that came through in all. */
  count = 0;
  /** The next this many calls get their connection reset instead of an answer. */
  resetNext = 0;
  private held: (() => void)[] = [];
  /** While set, calls whose request body contains it wait ("" holds every call). */
  private holding: string | null = null;

  private constructor(
    private readonly server: Server,
    readonly name: string,
    readonly url: string,
  ) {}

  static async start(name: string, target: string): Promise<ProviderRoute> {
    let route: ProviderRoute | undefined;
    const server = createServer((req, res) => void route?.pass(req, res, new URL(target)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    route = new ProviderRoute(server, name, `http://127.0.0.1:${port}`);
    return route;
  }

  /** The base URL each provider's SDK is given (OPENAI_BASE_URL, ANTHROPIC_BASE_URL, ...). */
  get env(): Record<string, string> {
    return {
      OPENAI_BASE_URL: `${this.url}/v1`,
      ANTHROPIC_BASE_URL: `${this.url}/v1`,
      GOOGLE_BASE_URL: `${this.url}/v1beta`,
    };
  }

  /** New calls whose request contains `text` (every call without it) wait for release(). */
  hold(text = ""): void {
    this.holding = text;
  }

  release(): void {
    this.holding = null;
    for (const go of this.held.splice(0)) go();
  }

  /** Calls waiting at the door. */
  get waiting(): number {
    return this.held.length;
  }

  async close(): Promise<void> {
    this.held = [];
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async pass(req: IncomingMessage, res: ServerResponse, target: URL): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    this.count += 1;
    this.inFlight += 1;
    res.once("close", () => {
      this.inFlight -= 1;
    });
    if (this.resetNext > 0) {
      this.resetNext -= 1;
      req.socket.destroy();
      return;
    }
    const forward = () => {
      const upstream = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          // The fake cut its stream: cut ours too, as the provider's connection would be.
          answer.once("aborted", () => res.socket?.destroy());
          answer.once("error", () => res.socket?.destroy());
        },
      );
      upstream.once("error", () => res.socket?.destroy());
      res.once("close", () => upstream.destroy());
      upstream.end(body);
    };
    if (this.holding !== null && body.includes(this.holding)) this.held.push(forward);
    else forward();
  }
}
