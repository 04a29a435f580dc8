// The desktop app's tray and notifications across machines (DESIGN.md §12, §13), for real: the app's
// main process in Node against the fake `electron` module, its own daemon with a local session, and a
// remote added while it runs — a second Mori home behind a real sshd on a loopback port, reached
// through `mori bridge`, with a fake agent's session, and one nothing answers for (shown unreachable,
// then removed). The tray lists `box:work` under box; the remote
// agent asking for input makes one notification naming box; ssh killed (and logins hung) marks box
// unreachable in one quiet line, and it comes back ok without the notification again; a suspend
// reaches the local daemon only, the remote's agent going on as it was. The app's window (its IPC
// router, driven as its page would) lists box:work beside the local session and works it: its state
// file, its terminal (typed into on box), its events named box:…, an approval refused by box's bridge,
// and the hosts told to the page, box closed with ssh's reason when it is lost.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
vi.mock('electron', () => import('../../support/fakes/electron.js'));
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { app as fakeApp, fake, invokeFrom, powerMonitor, sendFrom, type BrowserWindow, type FakeNotification, type Tray } from '../../support/fakes/electron.js';
import { IPC } from '../../../common/electron-ipc.js';
import type { HostStatus } from '../../../common/mori-api.js';
import type { Result } from '../../../common/result.js';
import type { LiveSession } from '../../../common/ipc.js';
import { stopDaemon } from '../../../main/daemon-client/daemon-process.js';
import type { DaemonEvent } from '../../../common/ipc.js';
import { client } from '../../support/daemon.js';
import { APP_PAGE, startTestApp, type TestApp } from '../../support/electron-app.js';
import { MORI_BIN } from '../../../testkit/mori-cli.js';
import { UpHarness } from '../../support/mori-up.js';
import { freePort, shq, SKIP_REASON, SKIP_WITHOUT_SSHD, SshServer } from '../../../testkit/sshd.js';
import { until, untilValue } from '../../../testkit/until.js';
import type { ControlClient } from '../../../main/daemon-client/control-client.js';

if (SKIP_WITHOUT_SSHD) console.warn(SKIP_REASON);

describe.skipIf(SKIP_WITHOUT_SSHD)('the desktop app with a remote host', () => {
  let sshd: SshServer;
  let remote: UpHarness;
  let local: UpHarness;
  let t: TestApp | null = null;
  /** The remote's daemon, reached directly: what it publishes, to see what the app caused there. */
  let direct: { c: ControlClient; events: DaemonEvent[] } | null = null;

  const tray = (): Tray => {
    const last = fake.trays.at(-1);
    if (!last) throw new Error('no tray');
    return last;
  };
  const icon = (): string => (tray().image as unknown as { path: string }).path;
  const menuLabels = (): string[] => (tray().menu?.items ?? []).map((i) => String(i.label ?? ''));
  const titles = (): string[] => fake.notifications.map((n: FakeNotification) => n.options.title ?? '');
  const box = () => t?.app.state.remotes.get('box');
  const shown = (): string => `${icon()} | ${menuLabels().join(' | ')} | ${box()?.status ?? '-'} ${box()?.message ?? ''}`;
  const settle = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

  /** The shared ssh connections (ControlPersist masters) of the local home, killed: every session over them ends at once. */
  const killSshMasters = (): number => {
    let killed = 0;
    for (const f of readdirSync(path.join(local.home, 'ssh'))) {
      const check = spawnSync('ssh', ['-o', `ControlPath=${path.join(local.home, 'ssh', f)}`, '-O', 'check', 'shared'], { encoding: 'utf8', timeout: 10_000 });
      const pid = /pid=(\d+)/.exec(check.stderr)?.[1];
      if (!pid) continue;
      process.kill(Number(pid), 'SIGKILL');
      killed++;
    }
    return killed;
  };

  beforeAll(async () => {
    fake.notifications.length = 0;
    fake.trays.length = 0;
    fake.windows.length = 0;
    fake.singleInstance = true;
    sshd = new SshServer();
    await sshd.start();
    remote = new UpHarness('remote-box');
    remote.init('work', 'direct');
    local = new UpHarness('app-remote');
    local.init('here', 'direct');
  }, 120_000);

  afterAll(async () => {
    direct?.c.close();
    if (t) await t.app.act({ kind: 'quit' });
    await stopDaemon(local.home, false);
    const shared = path.join(local.home, 'ssh');
    if (existsSync(shared)) for (const f of readdirSync(shared)) spawnSync('ssh', ['-o', `ControlPath=${path.join(shared, f)}`, '-O', 'exit', 'shared'], { stdio: 'ignore', timeout: 10_000 });
    sshd?.stop();
    remote?.cleanup();
    local?.cleanup();
  }, 60_000);

  it('lists box:work under box once the remote is added; its needs-input notifies once naming box; ssh lost shows box unreachable, then ok with no repeat; a suspend reaches the local daemon only; Stop and Resume in the tray act on box', { timeout: 300_000 }, async () => {
    // Short waits: the reconnect itself is what is tested, not the backoff's length.
    t = await startTestApp(local, { remotes: { rereadMs: 300, reconnectFirstMs: 300, reconnectMaxMs: 1_500, connectTimeoutMs: 20_000 } });
    await until('the local session', () => menuLabels().some((l) => l.startsWith('here — ')), shown);

    // A remote nothing answers for: one quiet line with ssh's reason, the local part untouched.
    const nobody = local.mori('remote', 'add', 'gone', sshd.destination, ...sshd.optionFlags(await freePort()));
    expect(nobody.code, nobody.stderr).toBe(0);
    await until('gone unreachable', () => menuLabels().includes('gone — unreachable'), shown, 60_000);
    expect(t.app.state.remotes.get('gone')?.message).toMatch(/gone \(.*\) cannot be reached through ssh: .*refused/);
    expect(menuLabels().some((l) => l.startsWith('here — '))).toBe(true);
    expect(t.app.state.daemon.state).toBe('open');

    // Added while the app runs: picked up from remotes.json. No daemon runs there: the bridge starts one.
    const env = { ...remote.env, MORI_HOME: remote.home, PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
    const bridge = ['env', ...Object.entries(env).map(([k, v]) => shq(`${k}=${v ?? ''}`)), shq(process.execPath), shq(MORI_BIN), 'bridge'].join(' ');
    const add = local.mori('remote', 'add', 'box', sshd.destination, ...sshd.optionFlags(), '--remote-command', bridge);
    expect(add.code, add.stderr).toBe(0);
    await until('box:work waiting under box', () => {
      const labels = menuLabels();
      const at = labels.indexOf('box');
      return at > labels.findIndex((l) => l.startsWith('here — ')) && labels[at + 1] === 'box:work — waiting';
    }, shown, 90_000);
    const row = (tray().menu?.items ?? []).find((i) => i.label === 'box:work — waiting');
    expect((row?.submenu as { label?: string }[] | undefined)?.map((i) => i.label)).toEqual(['Open', 'Verify now', 'Stop', 'mori attach box:work', 'Mute notifications']);
    expect(titles()).toEqual([]); // what was so when box was first listed is no news
    // Removed while the app runs: its line goes.
    expect(local.mori('remote', 'rm', 'gone').code).toBe(0);
    await until('gone removed', () => !menuLabels().some((l) => l.startsWith('gone')), shown);
    direct = await client(remote.home, true);

    // The remote agent asks: one notification, naming the host; the tray's icon is the worst across machines.
    const ask = remote.mori('send', 'work', 'ask');
    expect(ask.code, ask.stderr).toBe(0);
    await until('the notification naming box', () => titles().includes('box:work needs input'), () => `${titles().join(' | ')} || ${shown()}`);
    expect(menuLabels()).toContain('box:work — needs input');
    expect(icon()).toMatch(/needs-you\.png$/);
    expect(t.app.state.sessions().map((r) => r.info.name)).toEqual(['here']);

    // ssh lost, and logins hang: box is one quiet line, its sessions out of the icon.
    sshd.pause();
    try {
      expect(killSshMasters()).toBeGreaterThan(0);
      await until('box unreachable', () => menuLabels().includes('box — unreachable'), shown);
      expect(menuLabels().some((l) => l.startsWith('box:'))).toBe(false);
      expect(menuLabels().some((l) => l.startsWith('here — '))).toBe(true); // the local part goes on
      expect(icon()).not.toMatch(/needs-you\.png$/);
      expect(box()?.message).toMatch(/box/);
      expect(titles().filter((x) => /box/.test(x))).toEqual(['box:work needs input']);
    } finally {
      sshd.resume();
    }
    await until('box back', () => box()?.status === 'ok' && menuLabels().includes('box:work — needs input'), shown, 90_000);
    expect(icon()).toMatch(/needs-you\.png$/);
    await settle(2_000); // past the app's coalescing window (500 ms in tests)
    expect(titles().filter((x) => x === 'box:work needs input')).toHaveLength(1);

    // The laptop sleeps: the local daemon hears it and interrupts its own session; box hears nothing.
    const before = direct.events.length;
    powerMonitor.emit('suspend');
    await until('the local interruption logged', () => /SESSION INTERRUPTED - system sleep/.test(local.workLog('here')));
    powerMonitor.emit('resume');
    await settle(2_000); // time for a stray hint to have reached box, were one sent
    // The template's own comment names the entry: an entry is a line of its own.
    expect(remote.workLog('work')).not.toMatch(/^- SESSION INTERRUPTED/m);
    expect(direct.events.slice(before).filter((e) => e.type === 'session.interrupted' || e.type === 'session.resumed')).toEqual([]);
    const listed = await direct.c.request('list', {});
    expect(listed.ok && listed.value.map((s) => [s.name, s.state, s.activity])).toEqual([['work', 'running', 'needs-input']]);

    // The tray acts on box:work through box's daemon: Stop stops it there, Resume starts it again.
    const remoteState = async (): Promise<string> => {
      const l = await direct!.c.request('list', {});
      return l.ok ? (l.value[0]?.state ?? 'none') : l.message;
    };
    const click = (prefix: string, label: string): void => {
      const item = (tray().menu?.items ?? []).find((i) => String(i.label ?? '').startsWith(prefix));
      const sub = (item?.submenu as { label?: string; click?: () => void }[] | undefined)?.find((i) => i.label === label);
      if (!sub?.click) throw new Error(`no "${label}" under ${prefix}: ${shown()}`);
      sub.click();
    };
    click('box:work — ', 'Stop');
    await untilValue('box:work stopped on box', () => remoteState(), (x) => x === 'stopped', 60_000, (x) => `${x} | ${shown()}`);
    await until('the tray showing box:work stopped', () => menuLabels().includes('box:work — stopped'), shown);
    expect(local.workLog('here')).not.toMatch(/SESSION STOPPED/); // the local session was not the one asked
    click('box:work — ', 'Resume');
    await untilValue('box:work running again on box', () => remoteState(), (x) => x === 'running', 60_000, (x) => `${x} | ${shown()}`);
  });
  it("the app's window lists box:work beside here and works it through box: its state file, its terminal, its events; an approval is refused there; box lost is told to the page", { timeout: 240_000 }, async () => {
    if (!t) throw new Error('the app did not start');
    await until('box connected', () => box()?.status === 'ok', shown, 90_000);
    fakeApp.emit('second-instance');
    const wc = (fake.windows.at(-1) as BrowserWindow).webContents;
    const own = pathToFileURL(APP_PAGE).href;
    sendFrom(wc, own, IPC.subscribe);
    const told = (channel: string): unknown[][] => wc.sent.filter((m) => m.channel === channel).map((m) => m.args);
    const lastHosts = (): HostStatus[] | undefined => told(IPC.hosts).at(-1)?.[0] as HostStatus[] | undefined;
    expect(lastHosts()).toEqual([{ name: 'box', state: 'open', detail: '' }]);

    const listed = (await invokeFrom(wc, own, IPC.call, 'list', {})) as Result<LiveSession[]>;
    if (!listed.ok) throw new Error(listed.message);
    expect(listed.value.map((s) => s.name).sort()).toEqual(['box:work', 'here']);
    const work = listed.value.find((s) => s.name === 'box:work');
    const onBox = await direct!.c.request('list', {});
    expect(work?.id).toBe(`box:${onBox.ok ? onBox.value[0]?.id : '?'}`);

    // Its state file is box's, read through box's daemon.
    const read = await invokeFrom(wc, own, IPC.call, 'state.read', { session: 'box:work', file: 'session_state.md' });
    expect(read).toMatchObject({ ok: true, value: { text: readFileSync(path.join(remote.stateDir('work'), 'session_state.md'), 'utf8') } });

    // Its terminal: a login of its own to box, the snapshot, typing reaching box's agent, its output back.
    const attached = (await invokeFrom(wc, own, IPC.attach, 'box:work', { cols: 100, rows: 30 })) as Result<{ id: number; info: LiveSession }>;
    if (!attached.ok) throw new Error(attached.message);
    expect(attached.value.info.name).toBe('box:work');
    const id = attached.value.id;
    const frames = (): { kind: string; data: string }[] => told(IPC.frame).filter((a) => a[0] === id).map((a) => a[1] as { kind: string; data: string });
    await until('the snapshot', () => frames()[0]?.kind === 'snapshot');
    expect(await invokeFrom(wc, own, IPC.attachInput, id, 'print:typed-from-the-app\r')).toMatchObject({ ok: true });
    await until('box\'s agent to print it', () => frames().some((f) => f.kind === 'output' && f.data.includes('typed-from-the-app')), () => JSON.stringify(frames().slice(-3)));
    await until('the agent\'s record on box', () => readFileSync(remote.record, 'utf8').includes('typed-from-the-app'));

    // box's events reach the page named as the list names them.
    const ask = remote.mori('send', 'work', 'ask');
    expect(ask.code, ask.stderr).toBe(0);
    await until('box:work needs input, told to the page', () =>
      told(IPC.event).some(([e]) => (e as { sessionId?: string; name?: string; activity?: string }).sessionId === work?.id && (e as { name?: string }).name === 'box:work'),
    );

    // An approval is made on box by the person there: its bridge refuses it, and says so.
    const trust = await invokeFrom(wc, own, IPC.call, 'checks.trust', { session: 'box:work', hash: 'x' });
    expect(trust).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await invokeFrom(wc, own, IPC.attachDetach, id)).toMatchObject({ ok: true });

    // box lost: the page is told it is closed, with ssh's reason; its rows stay listed as last seen.
    sshd.pause();
    try {
      expect(killSshMasters()).toBeGreaterThan(0);
      await until('box closed, told to the page', () => lastHosts()?.[0]?.state === 'closed', () => JSON.stringify(lastHosts()));
      expect(lastHosts()?.[0]?.detail).toMatch(/box/);
    } finally {
      sshd.resume();
    }
    await until('box open again, told to the page', () => lastHosts()?.[0]?.state === 'open', () => JSON.stringify(lastHosts()), 90_000);
  });
});
