// Forwards what only the OS knows to the daemon as hints (DESIGN.md §8, §12): powerMonitor's
// suspend / resume / lock-screen / unlock-screen become `hint.power` (a suspend lets the daemon
// checkpoint and log before the machine sleeps), and a change of `net.isOnline()` seen on those
// events becomes `hint.network`. They go to the local daemon only (the app passes its connection's
// request): this machine's sleep says nothing of a remote host, whose agents keep running.
// Electron main process; the Electron objects are parameters.
import type { IpcMethod, IpcParams } from '../../common/ipc.js';
import type { Result } from '../../common/result.js';

export interface PowerSource {
  on(event: 'suspend' | 'resume' | 'lock-screen' | 'unlock-screen', listener: () => void): unknown;
  removeListener(event: 'suspend' | 'resume' | 'lock-screen' | 'unlock-screen', listener: () => void): unknown;
}

type Request = <M extends IpcMethod>(method: M, params: IpcParams<M>) => Promise<Result<unknown>>;

const KINDS = { suspend: 'suspend', resume: 'resume', 'lock-screen': 'lock', 'unlock-screen': 'unlock' } as const;

/** Starts forwarding; returns a function that stops it. `log` hears hints the daemon did not take. */
export function forwardPowerHints(power: PowerSource, request: Request, isOnline: () => boolean, log: (line: string) => void): () => void {
  const deliver = (p: Promise<Result<unknown>>, what: string): void => {
    p.then(
      (r) => !r.ok && log(`${what} not delivered: ${r.message}`),
      (err: unknown) => log(`${what} not delivered: ${String(err)}`),
    );
  };
  let online = isOnline();
  const checkNetwork = (): void => {
    const now = isOnline();
    if (now === online) return;
    online = now;
    deliver(request('hint.network', { state: now ? 'online' : 'offline' }), 'network hint');
  };
  const handlers = (Object.keys(KINDS) as (keyof typeof KINDS)[]).map((event) => {
    const listener = (): void => {
      deliver(request('hint.power', { kind: KINDS[event] }), `${event} hint`);
      if (event !== 'suspend') checkNetwork();
    };
    power.on(event, listener);
    return { event, listener };
  });
  return () => {
    for (const h of handlers) power.removeListener(h.event, h.listener);
  };
}
