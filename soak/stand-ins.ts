// The soak's network: two loopback TCP listeners of the soak's own process that stand in for what a
// real night's agents reach over the network. The probe target is what the daemon's reachability
// probe connects to (MORI_PROBE); the API stand-in is what each soak agent connects to at the start
// of every turn (FAKE_AGENT_SOAK_API). Either is taken away (its listener closed: a connection is
// refused) and brought back on the same port. Only a TCP handshake is asked of either, which the
// kernel completes even while the soak's event loop waits on a `mori ls`. The real Claude Code's
// Messages API stand-in (soak/real-claude.ts), when there is one, is the API too: it goes away and
// comes back with the API listener. Runs in the soak's process.
import { createServer, type Server } from 'node:net';
import type { MessagesApiStandIn } from '../testkit/messages-api.js';

/** A listener taken away is brought back on its port; another process may have taken it meanwhile: tried again this often … */
const RELISTEN_RETRY_MS = 100;
/** … for at most this long (a port freed by a closed listener is taken by a connect's ephemeral port one time in tens of thousands). */
const RELISTEN_BOUND_MS = 10_000;

export type StandIn = 'probe' | 'api';

class Listener {
  private server: Server | null = null;
  port = 0;

  async open(): Promise<void> {
    const deadline = Date.now() + RELISTEN_BOUND_MS;
    for (;;) {
      const server = createServer((socket) => {
        // Nothing is asked but the handshake: the connection is ended at once.
        socket.on('error', () => {});
        socket.destroy();
      });
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(this.port, '127.0.0.1', () => resolve());
        });
      } catch (err) {
        if (this.port === 0 || Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, RELISTEN_RETRY_MS));
        continue;
      }
      this.server = server;
      const address = server.address();
      if (address !== null && typeof address === 'object') this.port = address.port;
      return;
    }
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server !== null) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get up(): boolean {
    return this.server !== null;
  }
}

export class NetStandIns {
  private readonly listeners: Record<StandIn, Listener> = { probe: new Listener(), api: new Listener() };
  private messages: MessagesApiStandIn | null = null;

  /** The real Claude Code's Messages API, taken away and brought back with the API listener from now on. */
  attach(messages: MessagesApiStandIn): void {
    this.messages = messages;
  }

  /** Both listening, on ports of their own. */
  async start(): Promise<void> {
    await this.listeners.probe.open();
    await this.listeners.api.open();
  }

  /** The variables that point the daemon's probe and the soak agents at them. */
  env(): Record<string, string> {
    return { MORI_PROBE: `127.0.0.1:${this.listeners.probe.port}`, FAKE_AGENT_SOAK_API: `127.0.0.1:${this.listeners.api.port}` };
  }

  async away(which: readonly StandIn[]): Promise<void> {
    for (const w of which) await this.listeners[w].close();
    if (which.includes('api')) await this.messages?.stop();
  }

  async back(which: readonly StandIn[]): Promise<void> {
    for (const w of which) if (!this.listeners[w].up) await this.listeners[w].open();
    if (which.includes('api') && this.messages !== null) await restartOnItsPort(this.messages);
  }

  async stop(): Promise<void> {
    await this.away(['probe', 'api']);
  }
}

/** The Messages API stand-in listening again on its port, tried again as a listener is (its port may be taken meanwhile). */
async function restartOnItsPort(messages: MessagesApiStandIn): Promise<void> {
  const deadline = Date.now() + RELISTEN_BOUND_MS;
  for (;;) {
    try {
      await messages.restart();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, RELISTEN_RETRY_MS));
    }
  }
}
