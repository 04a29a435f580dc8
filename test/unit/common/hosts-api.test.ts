// The window's API over several daemons (common/hosts-api.ts), over in-memory daemons that record
// what they were asked: a remote session is `host:<id>` both ways, a request reaches the host that
// holds its session with that host's id, a slow or away remote never holds the list, and a remote's
// events that name no session stay its own.
import { describe, expect, it } from 'vitest';
import { createHostsApi } from '../../../common/hosts-api.js';
import type { DaemonEvent, LiveSession } from '../../../common/ipc.js';
import type { ConnectionState, MoriApi, TerminalView } from '../../../common/mori-api.js';
import { ok } from '../../../common/result.js';

const info = (id: string, name: string): LiveSession =>
  ({ id, name, stateDir: `/p/.mori/${name}`, state: 'running', activity: 'waiting', backend: 'direct', pid: 1, intent: { kind: 'running' }, nextAttemptAt: null }) as LiveSession;

class Daemon {
  asked: { method: string; params: Record<string, unknown> }[] = [];
  sessions: LiveSession[];
  /** A list that never answers (a hung host). */
  hang = false;
  private events = new Set<(e: DaemonEvent) => void>();
  private states = new Set<(s: ConnectionState, d: string) => void>();
  constructor(...sessions: LiveSession[]) {
    this.sessions = sessions;
  }
  emit(e: DaemonEvent): void {
    for (const l of this.events) l(e);
  }
  state(s: ConnectionState): void {
    this.stateWith(s, '');
  }
  stateWith(s: ConnectionState, detail: string): void {
    for (const l of this.states) l(s, detail);
  }
  readonly api: MoriApi = {
    call: (method, params) => {
      this.asked.push({ method, params: params as Record<string, unknown> });
      if (method === 'list') return this.hang ? new Promise(() => undefined) : Promise.resolve(ok(this.sessions) as never);
      const s = this.sessions.find((x) => x.id === (params as { session?: string }).session);
      return Promise.resolve(ok((s ?? { text: 'x', version: 'v' }) as never));
    },
    onEvent: (l) => {
      this.events.add(l);
      return () => this.events.delete(l);
    },
    onConnection: (l) => {
      this.states.add(l);
      return () => this.states.delete(l);
    },
    attach: (session) => Promise.resolve(ok({ info: this.sessions.find((x) => x.id === session) as LiveSession, input: () => undefined, resize: () => undefined, ack: () => undefined, hold: () => undefined, detach: () => undefined })),
    close: () => undefined,
  };
}

describe('the window API over this host and its remotes', () => {
  it('lists every host, remote sessions as host:<id> named host:<name>', async () => {
    const here = new Daemon(info('a1', 'mine'));
    const box = new Daemon(info('b1', 'work'));
    const api = createHostsApi(here.api, [{ name: 'box', api: box.api }]);
    const listed = await api.call('list', {});
    expect(listed.ok && listed.value.map((s) => [s.id, s.name])).toEqual([['a1', 'mine'], ['box:b1', 'box:work']]);
  });

  it("sends a request to the host that holds its session, with that host's id, and prefixes what comes back", async () => {
    const here = new Daemon(info('a1', 'mine'));
    const box = new Daemon(info('b1', 'work'));
    const api = createHostsApi(here.api, [{ name: 'box', api: box.api }]);
    const started = await api.call('start', { session: 'box:b1' });
    expect(started.ok && [started.value.id, started.value.name]).toEqual(['box:b1', 'box:work']);
    await api.call('state.read', { session: 'box:b1', file: 'session_state.md' });
    await api.call('state.read', { session: 'a1', file: 'session_state.md' });
    // A name with a colon that is no remote's stays this host's.
    await api.call('state.read', { session: 'other:x', file: 'session_state.md' });
    expect(box.asked.map((a) => [a.method, a.params['session']])).toEqual([['start', 'b1'], ['state.read', 'b1']]);
    expect(here.asked.map((a) => a.params['session'])).toEqual(['a1', 'other:x']);
    await api.call('session.rename', { session: 'box:b1', name: 'box:work2' });
    await api.call('session.rename', { session: 'box:b1', name: 'work3' });
    expect(box.asked.slice(-2).map((a) => a.params['name'])).toEqual(['work2', 'work3']);
    const attached = await api.attach('box:b1', { cols: 80, rows: 24 }, {} as TerminalView);
    expect(attached.ok && attached.value.info.id).toBe('box:b1');
  });

  it('hands on a remote session event with its prefixed id, and none that names no session', () => {
    const here = new Daemon();
    const box = new Daemon();
    const api = createHostsApi(here.api, [{ name: 'box', api: box.api }]);
    const seen: DaemonEvent[] = [];
    api.onEvent((e) => seen.push(e));
    box.emit({ type: 'session.activity', at: 1, sessionId: 'b1', name: 'work', from: 'working', to: 'waiting' });
    box.emit({ type: 'power.suspend', at: 1, source: 'os' } as unknown as DaemonEvent);
    here.emit({ type: 'session.activity', at: 1, sessionId: 'a1', name: 'mine', from: 'working', to: 'waiting' });
    expect(seen.map((e) => ('sessionId' in e ? [e.sessionId, e.name] : e.type))).toEqual([['box:b1', 'box:work'], ['a1', 'mine']]);
  });

  it('lists without a hung remote after the wait (its last rows), and without waiting for one that is away', async () => {
    const here = new Daemon(info('a1', 'mine'));
    const box = new Daemon(info('b1', 'work'));
    const api = createHostsApi(here.api, [{ name: 'box', api: box.api }], 100);
    await api.call('list', {});
    box.hang = true;
    let t = Date.now();
    const slow = await api.call('list', {});
    expect(Date.now() - t).toBeGreaterThanOrEqual(90);
    expect(slow.ok && slow.value.map((s) => s.id)).toEqual(['a1', 'box:b1']);
    box.state('closed');
    t = Date.now();
    const away = await api.call('list', {});
    expect(Date.now() - t).toBeLessThan(90);
    expect(away.ok && away.value.map((s) => s.id)).toEqual(['a1', 'box:b1']);
  });

  it("says this host's connection, and says it again when a remote opens so the window lists again", () => {
    const here = new Daemon();
    const box = new Daemon();
    const api = createHostsApi(here.api, [{ name: 'box', api: box.api }]);
    const states: string[] = [];
    api.onConnection((s) => states.push(s));
    // Told at once: the connection is not open yet.
    expect(states).toEqual(['connecting']);
    here.state('open');
    box.state('connecting');
    box.state('open');
    expect(states).toEqual(['connecting', 'open', 'open']);
    // A listener that comes after it opened learns so at once.
    const late: string[] = [];
    api.onConnection((s) => late.push(s));
    expect(late).toEqual(['open']);
  });

  it("tells each remote's connection, keeping why it closed while it tries again", () => {
    const here = new Daemon();
    const box = new Daemon();
    const api = createHostsApi(here.api, [{ name: 'box', api: box.api }]);
    const told: string[][] = [];
    api.onHosts?.((hosts) => told.push(hosts.map((h) => `${h.name} ${h.state} ${h.detail}`.trim())));
    box.stateWith('closed', 'ssh: connect to host 127.0.0.1 port 9: Connection refused');
    box.stateWith('connecting', '');
    box.stateWith('open', '');
    expect(told).toEqual([['box connecting'], ['box closed ssh: connect to host 127.0.0.1 port 9: Connection refused'], ['box connecting ssh: connect to host 127.0.0.1 port 9: Connection refused'], ['box open']]);
  });
});
