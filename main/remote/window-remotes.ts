// The remotes as the app's window sees them (DESIGN.md §12, the window across hosts): the app's
// standing connection to each remote (remote-hub.ts) seen through common/hosts-api.ts's naming — a
// remote session is `host:<id>`, named `host:<name>`, in the list, the events and every request,
// which goes to its host with the id that host knows. The list is the hub's rows, kept current from
// each remote's events, so a slow or unreachable host never holds the window; a terminal gets an ssh
// login of its own (the shared connection makes it cheap), as a local one gets its own socket.
// Approvals are refused there by the bridge. Runs in the Electron main process (plain Node).
import { callOnHost, prefixedSession, remoteEventAs, routeToHost } from '../../common/hosts-api.js';
import type { DaemonEvent, IpcMethod, IpcParams, IpcResult, LiveSession } from '../../common/ipc.js';
import type { HostStatus } from '../../common/mori-api.js';
import { fail, type Result } from '../../common/result.js';
import { RemoteClient } from './remote-client.js';
import type { RemoteHub } from './remote-hub.js';
import type { RemoteView } from './remote-link.js';

/** A remote as the window's sidebar says it: connected, or why not. */
export function hostStatus(v: RemoteView): HostStatus {
  if (v.status === 'ok') return { name: v.name, state: 'open', detail: '' };
  if (v.status === 'connecting') return { name: v.name, state: 'connecting', detail: '' };
  return { name: v.name, state: 'closed', detail: v.message ?? v.status };
}

export interface WindowRemotesChange {
  /** The remotes' events that name a session, as the window names them. */
  events: DaemonEvent[];
  hosts: HostStatus[];
  /** A remote was listed for the first time since it connected, or one came or went: the window lists again. */
  relist: boolean;
}

export class WindowRemotes {
  private readonly connected = new Set<string>();

  constructor(
    private readonly hub: Pick<RemoteHub, 'views' | 'request' | 'onChange' | 'remote'>,
    private readonly home: string,
  ) {}

  /** The remote and the session it knows, when `session` names one of the hub's remotes; else null. */
  route(session: unknown): { host: string; session: string } | null {
    return routeToHost(this.hub.views().map((v) => v.name), session);
  }

  /** Every remote's sessions as last listed (kept while it is unreachable), named as the window names them. */
  list(): LiveSession[] {
    return this.hub.views().flatMap((v) => v.sessions.map((r) => prefixedSession(v.name, r.info)));
  }

  hosts(): HostStatus[] {
    return this.hub.views().map(hostStatus);
  }

  /** One request naming a remote session, over that remote's standing connection. */
  call<M extends IpcMethod>(host: string, session: string, method: M, params: IpcParams<M>): Promise<Result<IpcResult<M>>> {
    return callOnHost(host, session, method, params, (m, p) => this.hub.request(host, m, p));
  }

  /** A connection of its own to `host`'s daemon, for one terminal. */
  async connect(host: string): Promise<Result<RemoteClient>> {
    const remote = this.hub.remote(host);
    if (!remote) return fail('not-found', `no remote "${host}" (\`mori remote ls\` lists them)`);
    return RemoteClient.connect(remote, { home: this.home });
  }

  onChange(listener: (change: WindowRemotesChange) => void): () => void {
    return this.hub.onChange((host, change) => {
      const views = this.hub.views();
      const view = views.find((v) => v.name === host);
      const wasOk = this.connected.has(host);
      if (view?.status === 'ok') this.connected.add(host);
      else this.connected.delete(host);
      const events = change.events.map((e) => remoteEventAs(host, e)).filter((e): e is DaemonEvent => e !== null);
      listener({ events, hosts: views.map(hostStatus), relist: change.firstListing || view === undefined || wasOk !== this.connected.has(host) });
    });
  }
}
