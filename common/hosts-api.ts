// The window's one MoriApi over several daemons (DESIGN.md §12, §13): this host's, and each remote's
// (the web host relays `/api?host=NAME` to it over ssh). A remote session is `host:<id>`, named
// `host:<name>`, as `mori ls` and the tray name it: a request naming one goes to its host with the
// id that host knows, and what comes back (a session, a list, an event, an attachment) carries the
// prefixed id again. `list` is every host's, each remote given a short deadline and, past it, its last
// rows (an unreachable host never holds the window's list; one whose connection failed is not
// waited for at all until it opens again, and its opening has the window list again). Requests
// naming no session, the connection state and the settings are this host's; a remote's events that name no session (its
// power, its settings) are its own business and not handed on. Each remote's connection (and why it
// is not open) is told to `onHosts`, for the window to say which host it cannot reach. Pure TypeScript.
import type { DaemonEvent, IpcMethod, IpcParams, IpcResult, LiveSession } from './ipc.js';
import type { AttachedTerminal, ConnectionState, HostStatus, MoriApi } from './mori-api.js';
import { ok, type Result } from './result.js';

/** How long `list` waits for a remote before using its last rows: a login over ssh is ~0.3 s, a listing a few ms. */
export const REMOTE_LIST_WAIT_MS = 3_000;

export interface HostApi {
  /** The remote's name in remotes.json (the `host` of `host:session`). */
  name: string;
  api: MoriApi;
}

/** Methods whose value is one session: its id and name get the host's prefix. */
const SESSION_VALUED = new Set<IpcMethod>(['start', 'stop', 'limit.resume-now', 'limit.dont-resume', 'session.rename', 'session.handoff', 'attach']);

/** A remote's session as the window names it: `host:<id>`, `host:<name>`. */
export const prefixedSession = (host: string, info: LiveSession): LiveSession => ({ ...info, id: `${host}:${info.id}`, name: `${host}:${info.name}` });

/** The remote host a session reference names (one of `hosts`), and the reference that host knows; null: this host's. */
export function routeToHost(hosts: readonly string[], session: unknown): { host: string; session: string } | null {
  if (typeof session !== 'string') return null;
  const colon = session.indexOf(':');
  if (colon <= 0) return null;
  const host = session.slice(0, colon);
  return hosts.includes(host) ? { host, session: session.slice(colon + 1) } : null;
}

/** A remote's event as the window sees it, or null when it names no session. */
export function remoteEventAs(host: string, e: DaemonEvent): DaemonEvent | null {
  if (!('sessionId' in e)) return null;
  return { ...e, sessionId: `${host}:${e.sessionId}`, name: `${host}:${e.name}` } as DaemonEvent;
}

/**
 * One request naming remote session `session` (as that host knows it), sent with `send` to `host`:
 * a new name typed as the list shows it (`box:work2`) is `work2` there, and what comes back naming a
 * session carries the host's prefix again.
 */
export async function callOnHost<M extends IpcMethod>(
  host: string,
  session: string,
  method: M,
  params: IpcParams<M>,
  send: (method: M, params: IpcParams<M>) => Promise<Result<IpcResult<M>>>,
): Promise<Result<IpcResult<M>>> {
  const sent: Record<string, unknown> = { ...params, session };
  const name = sent['name'];
  if (method === 'session.rename' && typeof name === 'string' && name.startsWith(`${host}:`)) sent['name'] = name.slice(host.length + 1);
  const r = await send(method, sent as IpcParams<M>);
  if (!r.ok) return r;
  if (SESSION_VALUED.has(method)) return ok(prefixedSession(host, r.value as LiveSession) as IpcResult<M>);
  if (method === 'session.remove') {
    const v = r.value as IpcResult<'session.remove'>;
    return ok({ ...v, id: `${host}:${v.id}`, name: `${host}:${v.name}` } as IpcResult<M>);
  }
  return r;
}

const within = <T>(p: Promise<T>, ms: number): Promise<T | null> =>
  Promise.race([p, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);

export function createHostsApi(local: MoriApi, remotes: readonly HostApi[], listWaitMs = REMOTE_LIST_WAIT_MS): MoriApi {
  if (remotes.length === 0) return local;
  const names = remotes.map((r) => r.name);
  const byName = new Map(remotes.map((r) => [r.name, r]));
  /** Each remote's last listed sessions (prefixed), shown while it is slow or away. */
  const lastRows = new Map<string, LiveSession[]>();
  /** Remotes whose connection failed and has not opened since: a list does not wait for them. */
  const away = new Set<string>();
  let local_: { state: ConnectionState; detail: string } = { state: 'connecting', detail: '' };
  const stateListeners = new Set<(state: ConnectionState, detail: string) => void>();
  local.onConnection((state, detail) => {
    local_ = { state, detail };
    for (const l of stateListeners) l(state, detail);
  });
  const hosts = new Map<string, HostStatus>(remotes.map((r) => [r.name, { name: r.name, state: 'connecting', detail: '' }]));
  const hostListeners = new Set<(hosts: readonly HostStatus[]) => void>();
  for (const r of remotes) {
    r.api.onConnection((state, detail) => {
      // A closing socket's reason (ssh's words) stays with the host until it opens again.
      const was = hosts.get(r.name);
      hosts.set(r.name, { name: r.name, state, detail: state === 'connecting' && was?.state === 'closed' ? was.detail : detail });
      for (const l of hostListeners) l([...hosts.values()]);
      if (state === 'closed') away.add(r.name);
      if (state !== 'open') return;
      away.delete(r.name);
      // A remote that came (back): the window reads the list again, as on its own connection's opening.
      if (local_.state === 'open') for (const l of stateListeners) l(local_.state, local_.detail);
    });
  }

  async function remoteList(r: HostApi): Promise<LiveSession[]> {
    const listed = away.has(r.name) ? null : await within(r.api.call('list', {}), listWaitMs);
    if (listed?.ok) lastRows.set(r.name, listed.value.map((s) => prefixedSession(r.name, s)));
    return lastRows.get(r.name) ?? [];
  }

  async function call<M extends IpcMethod>(method: M, params: IpcParams<M>): Promise<Result<IpcResult<M>>> {
    if (method === 'list') {
      const [mine, ...theirs] = await Promise.all([local.call('list', {}), ...remotes.map(remoteList)]);
      if (!mine.ok) return mine as Result<IpcResult<M>>;
      return ok([...mine.value, ...theirs.flat()] as IpcResult<M>);
    }
    const to = routeToHost(names, (params as { session?: unknown }).session);
    if (to === null) return local.call(method, params);
    const remote = byName.get(to.host)!;
    return callOnHost(to.host, to.session, method, params, (m, p) => remote.api.call(m, p));
  }

  return {
    call,
    onEvent(listener) {
      const offs = [local.onEvent(listener), ...remotes.map((r) => r.api.onEvent((e) => {
        const seen = remoteEventAs(r.name, e);
        if (seen !== null) listener(seen);
      }))];
      return () => offs.forEach((off) => off());
    },
    onConnection(listener) {
      stateListeners.add(listener);
      listener(local_.state, local_.detail);
      return () => stateListeners.delete(listener);
    },
    onHosts(listener) {
      hostListeners.add(listener);
      listener([...hosts.values()]);
      return () => hostListeners.delete(listener);
    },
    async attach(session, size, view): Promise<Result<AttachedTerminal>> {
      const to = routeToHost(names, session);
      if (to === null) return local.attach(session, size, view);
      const r = await byName.get(to.host)!.api.attach(to.session, size, view);
      if (!r.ok) return r;
      const t = r.value;
      const info = prefixedSession(to.host, t.info);
      return ok({ info, input: (d) => t.input(d), resize: (c, rows) => t.resize(c, rows), ack: (n) => t.ack(n), hold: (h) => t.hold(h), detach: () => t.detach() });
    },
    ...(local.openLink ? { openLink: local.openLink.bind(local) } : {}),
    close() {
      local.close();
      for (const r of remotes) r.api.close();
    },
  };
}
