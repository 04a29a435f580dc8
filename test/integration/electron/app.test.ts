// The desktop app's main process, in Node against the fake `electron` module with a real daemon and
// fake agents (DESIGN.md §13, §14): the tray follows sessions through working, needs input, a failed
// verification and a crash loop; each transition notifies once and a click opens the window on the
// session; a wake of several sessions makes one notification; a powerMonitor suspend reaches the
// daemon, which logs the interruption before anything else happens; a killed daemon is restarted
// while the tray says so; Quit leaves agents running and "Quit and stop agents" stops them; a second
// instance focuses the first; the IPC router refuses foreign frames and payloads failing their schema,
// and the daemon counts the page's acknowledgements of terminal output (the router sends none itself).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
vi.mock('electron', () => import('../../support/fakes/electron.js'));
import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { app as fakeApp, fake, FakeWebContents, invokeFrom, nativeTheme, powerMonitor, type BrowserWindow, type FakeNotification } from '../../support/fakes/electron.js';
import { IPC } from '../../../common/electron-ipc.js';
import { startApp, type AppOptions } from '../../../main/electron/app-main.js';
import { memorySettings } from '../../../main/electron/settings.js';
import { pidAlive } from '../../../main/os/pid-alive.js';
import { daemonAnswering } from '../../../main/daemon-client/daemon-process.js';
import { call, client } from '../../support/daemon.js';
import { APP_PAGE, endTestApp, lastTray, resetElectronFakes, startTestApp, type TestApp } from '../../support/electron-app.js';
import { UpHarness } from '../../support/mori-up.js';
import { until, untilValue } from '../../../testkit/until.js';

let h: UpHarness;
let t: TestApp | null = null;
beforeEach(resetElectronFakes);
afterEach(async () => {
  await endTestApp(t, h);
  t = null;
});

const tray = lastTray;
const icon = (): string => (tray().image as unknown as { path: string }).path;
const menuLabels = (): string[] => (tray().menu?.items ?? []).map((i) => String(i.label ?? ''));
const titles = (): string[] => fake.notifications.map((n: FakeNotification) => n.options.title ?? '');
const sessionId = (name: string): string => t?.app.state.sessions().find((r) => r.info.name === name)?.info.id ?? '';
const settle = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** A change that leaves the session's condition as it is: a work-log entry, seen by the app, then time to decide on it. */
async function otherChange(name: string): Promise<void> {
  const { c, events } = await client(h.home, true);
  await call(c, 'log.append', { session: name, text: 'a note from another client' });
  await until('the log event', () => events.some((e) => e.type === 'log.appended'));
  c.close();
  await settle(1_500); // past the app's coalescing window (500 ms in tests)
}

describe('the desktop app', () => {
  it('follows a session through working, needs input and a failed verification in the tray; notifies once per transition; a click opens the window on it', { timeout: 120_000 }, async () => {
    h = new UpHarness('app-tray');
    h.init('alpha', 'direct');
    t = await startTestApp(h);
    // Input is typed only into an agent at its prompt, as a person would.
    const waiting = (): Promise<void> => until('alpha waiting', () => menuLabels().includes('alpha — waiting'), () => menuLabels().join(' | '));
    await waiting();
    const setsBefore = tray().menuSets;
    tray().emit('click');
    expect((fake.windows.at(-1) as BrowserWindow).isVisible()).toBe(true);
    (fake.windows.at(-1) as BrowserWindow).hide();

    const work = h.mori('send', 'alpha', 'work:3000');
    expect(work.code, work.stderr).toBe(0);
    await until('working', () => icon().endsWith('working.png'), () => icon());
    expect(menuLabels()).toContain('alpha — working');
    await waiting();
    expect(tray().menuSets).toBeGreaterThan(setsBefore); // set again on each change (Linux)

    const ask = h.mori('send', 'alpha', 'ask');
    expect(ask.code, ask.stderr).toBe(0);
    await until('needs you', () => icon().endsWith('needs-you.png'), () => `${icon()} ${menuLabels().join(' | ')}`);
    expect(menuLabels()[0]).toBe('alpha — needs input');
    await until('the needs-input notification', () => titles().includes('alpha needs input'), () => titles().join(' | '));
    // Unchanged state, more changes (a work-log entry from another client): no second notification.
    await otherChange('alpha');
    expect(titles().filter((x) => x === 'alpha needs input')).toHaveLength(1);

    // A click opens the window on that session.
    const n = fake.notifications.find((x) => x.options.title === 'alpha needs input');
    n?.emit('click');
    const win = fake.windows.at(-1) as BrowserWindow;
    expect(win.isVisible()).toBe(true);
    expect(win.webContents.executed.at(-1)).toBe(`history.replaceState(null, '', '#'); location.hash = ${JSON.stringify(`#session=${sessionId('alpha')}`)}`);

    const answered = h.mori('send', 'alpha', 'y');
    expect(answered.code, answered.stderr).toBe(0);
    await waiting();

    // Muted from the tray: the daemon keeps it (so `mori ui`'s page mutes it too), and alpha's next
    // question makes no notification (the window hidden: not because the person is looking at it).
    win.hide();
    const muteBox = (): { checked?: boolean } | undefined =>
      (tray().menu?.items.find((i) => String(i.label ?? '').startsWith('alpha —'))?.submenu as { label?: string; checked?: boolean }[] | undefined)?.find((i) => i.label === 'Mute notifications');
    await t.app.act({ kind: 'toggle-mute', session: sessionId('alpha') });
    expect(muteBox()?.checked).toBe(true);
    const { c: other } = await client(h.home);
    const stored = (await call(other, 'settings.get', {})) as { notifications: { muted: string[] } };
    expect(stored.notifications.muted).toEqual([sessionId('alpha')]);
    const activity = (): string | undefined => t?.app.state.sessions().find((r) => r.info.name === 'alpha')?.info.activity;
    expect(h.mori('send', 'alpha', 'ask').code).toBe(0);
    await until('alpha to ask again', () => activity() === 'needs-input', () => String(activity()));
    await otherChange('alpha');
    expect(titles().filter((x) => x === 'alpha needs input')).toHaveLength(1);
    expect(h.mori('send', 'alpha', 'y').code).toBe(0);
    await waiting();
    // Unmuted where the page would do it (the daemon's settings): the tray's box follows.
    await call(other, 'settings.set', { settings: { ...stored, notifications: { ...stored.notifications, muted: [] } } as never });
    await until('the tray to show alpha unmuted', () => muteBox()?.checked === false);
    other.close();

    // A failing check, approved, then verified from the tray's "Verify now".
    const { c } = await client(h.home);
    const env = await call(c, 'state.read', { session: 'alpha', file: 'environment.md' });
    await call(c, 'state.write', { session: 'alpha', file: 'environment.md', text: `${String(env.text)}\n- command: \`echo the widget test broke; false\`\n`, baseVersion: String(env.version) });
    const listed = await call(c, 'checks.list', { session: 'alpha' });
    await call(c, 'checks.trust', { session: 'alpha', hash: (listed.trust as { hash: string }).hash });
    c.close();
    win.hide(); // not looking at it: the notification is for the person
    await t.app.act({ kind: 'verify', session: sessionId('alpha') });
    await until('failing', () => icon().endsWith('failing.png'), () => `${icon()} ${menuLabels().join(' | ')}`);
    expect(menuLabels()[0]).toBe('alpha — verification failed');
    await until('the verification notification', () => titles().includes('alpha: verification failed'), () => titles().join(' | '));
    expect(titles().filter((x) => x === 'alpha: verification failed')).toHaveLength(1);

  });

  it('starts a daemon for a fresh home with no sessions, which stays up', { timeout: 60_000 }, async () => {
    h = new UpHarness('app-fresh');
    t = await startTestApp(h);
    await until('connected', () => t?.app.state.daemon.state === 'open', () => tray().tooltip);
    await settle(1_500);
    expect(t.app.state.daemon.state).toBe('open');
    expect(tray().tooltip).toBe('Mori — no sessions');
    expect(menuLabels()[0]).toBe('No sessions');
    expect(t.logs.filter((l) => /did not start|started the Mori daemon/.test(l))).toHaveLength(1);
  });

  it('shows a crash loop in the tray and notifies it once', { timeout: 120_000 }, async () => {
    h = new UpHarness('app-loop', { FAKE_AGENT_SCRIPT: 'exit:1' });
    h.init('loopy', 'direct');
    t = await startTestApp(h);
    await until('the crash loop', () => menuLabels().includes('loopy — crash loop'), () => menuLabels().join(' | '));
    expect(icon()).toMatch(/failing\.png$/);
    await until('its notification', () => titles().includes('loopy is in a crash loop'), () => titles().join(' | '));
    await otherChange('loopy');
    expect(titles()).toEqual(['loopy is in a crash loop']);
  });

  it('does not notify what was already so when the app started', { timeout: 120_000 }, async () => {
    h = new UpHarness('app-before', { FAKE_AGENT_SCRIPT: 'exit:1' });
    h.init('old', 'direct');
    const { c, events } = await (async () => {
      expect(h.mori('up', '--daemon').code).toBe(0);
      return client(h.home, true);
    })();
    await until('the crash loop, before the app', () => events.some((e) => e.type === 'session.attention'));
    c.close();
    t = await startTestApp(h);
    await until('the tray to show it', () => menuLabels().includes('old — crash loop'), () => menuLabels().join(' | '));
    await otherChange('old');
    expect(titles()).toEqual([]);
  });

  it('forwards a suspend, which the daemon logs before the resume is sent; the wake of several sessions makes one notification', { timeout: 150_000 }, async () => {
    h = new UpHarness('app-power');
    for (const name of ['one', 'two', 'three']) h.init(name, 'direct');
    t = await startTestApp(h, { coalesceMs: 4_000 });
    await until('three running sessions', () => t?.app.state.sessions().filter((r) => r.info.state === 'running').length === 3);
    powerMonitor.emit('suspend');
    await until('the interruption logged', () => ['one', 'two', 'three'].every((n) => /SESSION INTERRUPTED - system sleep/.test(h.workLog(n))));
    powerMonitor.emit('resume');
    await until('one notification for the wake', () => titles().includes('3 sessions resumed after sleep'), () => titles().join(' | '));
    expect(titles().filter((x) => /resumed/.test(x))).toEqual(['3 sessions resumed after sleep']);
    expect(fake.notifications.find((n) => /resumed/.test(n.options.title ?? ''))?.options.body?.split(', ').sort()).toEqual(['one', 'three', 'two']);
  });

  it('restarts a daemon that died, the tray saying so meanwhile', { timeout: 120_000 }, async () => {
    h = new UpHarness('app-restart');
    h.init('keep', 'tmux');
    t = await startTestApp(h);
    await until('connected', () => t?.app.state.daemon.state === 'open');
    const first = await daemonAnswering(h.home);
    expect(first).not.toBeNull();
    process.kill(first?.pid ?? 0, 'SIGKILL');
    await until('the tray to say the daemon is restarting', () => /restarting/.test(tray().tooltip), () => tray().tooltip);
    expect(icon()).toMatch(/offline\.png$/);
    await until('a new daemon', () => t?.app.state.daemon.state === 'open', () => tray().tooltip);
    const second = await daemonAnswering(h.home);
    expect(second?.pid).not.toBe(first?.pid);
    expect(t.logs.join('\n')).toMatch(/started the Mori daemon/);
    await until('the session back in the tray', () => menuLabels().some((l) => l.startsWith('keep — ')), () => menuLabels().join(' | '));
  });

  it('Quit leaves the daemon and agents running; Quit and stop agents stops them', { timeout: 120_000 }, async () => {
    h = new UpHarness('app-quit');
    h.init('stay', 'tmux');
    t = await startTestApp(h);
    await until('the agent to start', () => h.starts().length === 1);
    const agentPid = h.starts()[0]?.pid ?? 0;
    // The daemon runs with ELECTRON_RUN_AS_NODE=1 (Electron's binary as Node); its agents never see it.
    expect(Object.keys((h.starts()[0] as unknown as { env: Record<string, string> }).env).filter((k) => k.startsWith('ELECTRON_'))).toEqual([]);
    await t.app.act({ kind: 'quit' });
    t = null;
    expect(fake.quitCalled).toBeGreaterThan(0);
    expect(await daemonAnswering(h.home)).not.toBeNull();
    expect(pidAlive(agentPid)).toBe(true);

    t = await startTestApp(h);
    await until('connected again', () => t?.app.state.daemon.state === 'open');
    expect(h.starts()).toHaveLength(1);
    await t.app.act({ kind: 'quit-and-stop-agents' });
    t = null;
    expect(await daemonAnswering(h.home)).toBeNull();
    await until('the agent to be gone', () => !pidAlive(agentPid));
    expect(h.workLog('stay')).toMatch(/SESSION STOPPED - by the user/);
  });

  it('a notification pause that ends is taken back in the tray menu without any other change', { timeout: 60_000 }, async () => {
    h = new UpHarness('app-pause');
    const settings = memorySettings();
    // Long enough that a loaded machine has the app connected before it ends.
    settings.set('notificationsPausedUntil', Date.now() + 8_000);
    t = await startTestApp(h, { settings });
    await until('connected', () => t?.app.state.daemon.state === 'open');
    // The menu is rebuilt a moment after the connection opens: wait for it, then count its rebuilds.
    await until('the pause in the menu', () => menuLabels().some((l) => l.startsWith('Notifications paused until')), () => menuLabels().join(' | '));
    const renders = fake.trays.length;
    // No session, so no event: only the end of the pause can rebuild the menu.
    await until('the pause to end in the menu', () => menuLabels().includes('Pause notifications'));
    expect(fake.trays.length).toBe(renders);
  });

  it('a desktop without a tray host: the window opens even at login and says why; closing it quits, the agent keeps running', { timeout: 120_000 }, async () => {
    h = new UpHarness('app-notray');
    h.init('lone', 'direct');
    const settings = memorySettings();
    settings.set('theme', 'dark');
    t = await startTestApp(h, { hidden: true, settings, trayHost: () => Promise.resolve({ shown: false, why: 'this desktop shows no tray icons (test)' }) });
    await until('connected', () => t?.app.state.daemon.state === 'open');
    const win = fake.windows.at(-1) as BrowserWindow;
    expect(win.isVisible()).toBe(true);
    expect(t.logs.join('\n')).toMatch(/no tray icons \(test\): the window stays open instead/);
    expect(titles()).toContain('Mori has no tray icon here');
    expect(nativeTheme.themeSource).toBe('dark'); // the theme the person chose reaches the page
    await until('the agent', () => t?.app.state.sessions().some((r) => r.info.name === 'lone' && r.info.pid !== null) === true);
    const agentPid = t.app.state.sessions().find((r) => r.info.name === 'lone')?.info.pid ?? 0;
    // Closing the only window quits the app (there is no tray to come back through); nothing else stops.
    win.emit('close', { preventDefault: () => undefined });
    fakeApp.emit('window-all-closed');
    await until('the app quitting', () => t?.app.quitting !== null);
    await t.app.quitting;
    t = null;
    expect(pidAlive(agentPid)).toBe(true);
    expect(await daemonAnswering(h.home)).not.toBeNull();
  });

  it('a second instance quits and focuses the first; the IPC router refuses a foreign frame and a payload failing its schema, and relays a terminal', { timeout: 120_000 }, async () => {
    h = new UpHarness('app-ipc');
    h.init('ipc', 'direct');
    const settings = memorySettings();
    t = await startTestApp(h, { settings });
    await until('connected', () => t?.app.state.daemon.state === 'open');

    // A second instance (in its own process, in life) is refused the lock and quits; the first is told and shows its window.
    fake.singleInstance = false;
    const quits = fake.quitCalled;
    const quitListeners = fakeApp.listeners('before-quit');
    fakeApp.removeAllListeners('before-quit'); // the second instance's quit is not the first one's
    expect(await startApp({ settings: memorySettings() } as unknown as AppOptions)).toBeNull();
    for (const l of quitListeners) fakeApp.on('before-quit', l as () => void);
    fake.singleInstance = true;
    expect(fake.quitCalled).toBe(quits + 1);
    fakeApp.emit('second-instance');
    const win = fake.windows.at(-1) as BrowserWindow;
    expect(win.isVisible() && win.isFocused()).toBe(true);
    expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    // Every response gets the strict CSP; every permission is denied (the app notifies natively); no new windows.
    let headers: Record<string, string[]> = {};
    fake.headersHandler?.({ responseHeaders: { 'Content-Type': ['text/html'] } }, (r) => (headers = r.responseHeaders ?? {}));
    expect(headers['Content-Security-Policy']?.[0]).toMatch(/^default-src 'self'; script-src 'self';.*connect-src 'none'/);
    const decided: Record<string, boolean> = {};
    for (const p of ['notifications', 'media', 'geolocation', 'clipboard-read', 'openExternal'] as const) {
      fake.permissionHandler?.(win.webContents as never, p, (granted) => (decided[p] = granted), {} as never);
    }
    expect(decided).toEqual({ notifications: false, media: false, geolocation: false, 'clipboard-read': false, openExternal: false });
    expect(win.webContents.windowOpenHandler?.({ url: 'https://evil.example/' } as never)).toEqual({ action: 'deny' });
    // The link a denied window was for goes to the default browser (http and https only).
    expect(fake.external).toContain('https://evil.example/');
    const nav = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
    win.webContents.emit('will-navigate', nav, 'https://evil.example/');
    expect(nav.defaultPrevented).toBe(true);
    const own = pathToFileURL(APP_PAGE).href;
    const listed = (await invokeFrom(win.webContents, `${own}#session=x`, IPC.call, 'list', {})) as { ok: boolean; value: { id: string; name: string; stateDir: string }[] };
    expect(listed, JSON.stringify(listed)).toMatchObject({ ok: true });
    expect(listed.value.map((s) => s.name)).toEqual(['ipc']);
    // A session's state folder is shown in the file manager, selected in its parent and never opened
    // (a folder macOS takes for an app would run): the folder the daemon lists for that id, never a
    // path the page names; a foreign frame is refused.
    const info = listed.value[0] as { id: string; stateDir: string };
    expect(info.stateDir).toMatch(/[/\\]\.mori[/\\]ipc$/);
    fake.opened.length = 0;
    fake.shown.length = 0;
    expect(await invokeFrom(win.webContents, own, IPC.openStateDir, info.id)).toMatchObject({ ok: true });
    expect(await invokeFrom(win.webContents, own, IPC.openStateDir, h.home)).toMatchObject({ ok: false, code: 'not-found' });
    expect(await invokeFrom(win.webContents, own, IPC.openStateDir, 42)).toMatchObject({ ok: false, code: 'usage' });
    expect(await invokeFrom(win.webContents, 'https://evil.example/', IPC.openStateDir, info.id)).toMatchObject({ ok: false, message: expect.stringMatching(/refused/) });
    expect(fake.shown).toEqual([info.stateDir]);
    expect(fake.opened).toEqual([]);
    expect(await invokeFrom(win.webContents, 'https://evil.example/', IPC.call, 'list', {})).toMatchObject({ ok: false, message: expect.stringMatching(/refused/) });
    expect(t.logs.join('\n')).toMatch(/refused mori:call from https:\/\/evil\.example\//);
    expect(await invokeFrom(win.webContents, own, IPC.call, 'send', { session: 'ipc', text: 42 })).toMatchObject({ ok: false, code: 'usage', message: expect.stringMatching(/^send: text/) });
    expect(await invokeFrom(win.webContents, own, IPC.call, 'daemon.stop', { stopAgents: true })).toMatchObject({ ok: false, code: 'usage' });
    expect(await invokeFrom(win.webContents, own, IPC.attach, 'ipc', { cols: 0, rows: 10 })).toMatchObject({ ok: false, code: 'usage' });
    expect(await daemonAnswering(h.home)).not.toBeNull();

    // A terminal through the router: the snapshot, then live output, input reaching the agent, detach.
    const attached = (await invokeFrom(win.webContents, own, IPC.attach, 'ipc', { cols: 100, rows: 30 })) as { ok: boolean; value: { id: number; info: { name: string } } };
    expect(attached, JSON.stringify(attached)).toMatchObject({ ok: true, value: { info: { name: 'ipc' } } });
    const id = attached.value.id;
    const frames = (): { kind: string; data: string }[] => win.webContents.sent.filter((m) => m.channel === IPC.frame && m.args[0] === id).map((m) => m.args[1] as { kind: string; data: string });
    await until('the snapshot', () => frames()[0]?.kind === 'snapshot');
    expect(await invokeFrom(win.webContents, own, IPC.attachInput, id, 'print:typed-in-the-window\r')).toMatchObject({ ok: true });
    await until('the agent to print it', () => frames().some((f) => f.kind === 'output' && f.data.includes('typed-in-the-window')));
    expect(await invokeFrom(win.webContents, 'https://evil.example/', IPC.attachInput, id, 'rm -rf /\r')).toMatchObject({ ok: false });
    // The page's acknowledgements are the ones the daemon counts: unacknowledged, a 300 KB flood
    // (three times the high watermark) stays held; acknowledged through the router, it finishes.
    const floodDone = (): boolean => readFileSync(h.record, 'utf8').includes('"event":"flood-done"');
    expect(await invokeFrom(win.webContents, own, IPC.attachInput, id, 'flood:300000:0\r')).toMatchObject({ ok: true });
    await new Promise((r) => setTimeout(r, 2_000));
    expect(floodDone()).toBe(false);
    expect(await invokeFrom(win.webContents, 'https://evil.example/', IPC.attachAck, id, 1_000_000)).toMatchObject({ ok: false });
    expect(floodDone()).toBe(false);
    let acked = 0;
    await untilValue(
      'the flood to finish once acknowledged',
      async () => {
        const received = frames().filter((f) => f.kind === 'output').reduce((n, f) => n + f.data.length, 0);
        if (received > acked) await invokeFrom(win.webContents, own, IPC.attachAck, id, received - acked);
        acked = received;
        return floodDone();
      },
      (done) => done,
    );
    // Hidden, as the page tells the router: the same flood, never acknowledged, is not held back; shown
    // again, the view gets a new snapshot instead of what it was not sent.
    const floodsDone = (): number => readFileSync(h.record, 'utf8').split('"event":"flood-done"').length - 1;
    expect(await invokeFrom(win.webContents, 'https://evil.example/', IPC.attachHold, id, false)).toMatchObject({ ok: false });
    expect(await invokeFrom(win.webContents, own, IPC.attachHold, id, false)).toMatchObject({ ok: true });
    expect(await invokeFrom(win.webContents, own, IPC.attachInput, id, 'flood:300000:0\r')).toMatchObject({ ok: true });
    await until('the flood behind a hidden view to finish unacknowledged', () => floodsDone() === 2);
    expect(await invokeFrom(win.webContents, own, IPC.attachHold, id, true)).toMatchObject({ ok: true });
    await until('a new snapshot for the view shown again', () => frames().filter((f) => f.kind === 'snapshot').length === 2);
    expect(await invokeFrom(win.webContents, own, IPC.attachDetach, id)).toMatchObject({ ok: true });
    expect(win.webContents.sent.some((m) => m.channel === IPC.ended && m.args[0] === id)).toBe(true);
    expect(await invokeFrom(win.webContents, own, IPC.attachInput, id, 'x')).toMatchObject({ ok: false, message: 'no such terminal' });

    // Closing the window hides it to the tray, its bounds kept.
    win.setBounds({ x: 10, y: 20, width: 900, height: 600 });
    expect(win.userClose()).toBe(false);
    expect(win.isVisible()).toBe(false);
    expect(win.isDestroyed()).toBe(false);
    expect(settings.get('windowBounds')).toEqual({ x: 10, y: 20, width: 900, height: 600 });

    // The next start opens its window where it was.
    await t.app.act({ kind: 'quit' });
    t = await startTestApp(h, { settings, hidden: false });
    expect((fake.windows.at(-1) as BrowserWindow).getBounds()).toEqual({ x: 10, y: 20, width: 900, height: 600 });
  });

  it("a page that reloads or whose contents are destroyed loses its terminals: they end and their daemon connections close; another page cannot drive them", { timeout: 120_000 }, async () => {
    h = new UpHarness('app-reload');
    h.init('rl', 'direct');
    t = await startTestApp(h, { settings: memorySettings(), hidden: false });
    await until('connected', () => t?.app.state.daemon.state === 'open');
    const win = fake.windows.at(-1) as BrowserWindow;
    const own = pathToFileURL(APP_PAGE).href;
    const openFds = (): number => readdirSync('/proc/self/fd').length;
    const attach = async (contents: FakeWebContents): Promise<number> => {
      const r = (await invokeFrom(contents, own, IPC.attach, 'rl', { cols: 80, rows: 24 })) as { ok: boolean; value: { id: number } };
      expect(r, JSON.stringify(r)).toMatchObject({ ok: true });
      return r.value.id;
    };
    const ended = (contents: FakeWebContents, id: number): boolean => contents.sent.some((m) => m.channel === IPC.ended && m.args[0] === id);
    const before = openFds();
    const first = await attach(win.webContents);
    const second = await attach(win.webContents);
    expect(openFds()).toBeGreaterThan(before);

    // Another page (another window's contents) cannot type into, resize or detach them.
    const other = new FakeWebContents();
    expect(await invokeFrom(other, own, IPC.attachInput, first, 'print:not-mine\r')).toMatchObject({ ok: false, message: 'no such terminal' });
    expect(await invokeFrom(other, own, IPC.attachResize, first, { cols: 90, rows: 20 })).toMatchObject({ ok: false, message: 'no such terminal' });
    await invokeFrom(other, own, IPC.attachDetach, first);
    expect(ended(win.webContents, first)).toBe(false);

    // An in-page navigation (the hash) keeps them; a reload ends both and closes their connections.
    win.webContents.emit('did-start-navigation', { url: `${own}#session=x`, isMainFrame: true, isSameDocument: true });
    expect(ended(win.webContents, first) || ended(win.webContents, second)).toBe(false);
    win.webContents.emit('did-start-navigation', { url: own, isMainFrame: true, isSameDocument: false });
    expect(ended(win.webContents, first) && ended(win.webContents, second)).toBe(true);
    expect(await invokeFrom(win.webContents, own, IPC.attachInput, first, 'x')).toMatchObject({ ok: false, message: 'no such terminal' });
    await until('the daemon connections to close', () => openFds() <= before, () => `${openFds()} open, ${before} before`);

    // The reloaded page attaches afresh; contents that are destroyed lose theirs too.
    const again = await attach(win.webContents);
    expect(await invokeFrom(win.webContents, own, IPC.attachInput, again, 'print:after-reload\r')).toMatchObject({ ok: true });
    const gone = await attach(other);
    other.destroy();
    expect(ended(other, gone)).toBe(false); // a destroyed page is sent nothing
    expect(await invokeFrom(win.webContents, own, IPC.attachDetach, again)).toMatchObject({ ok: true });
    await until('every daemon connection to close', () => openFds() <= before, () => `${openFds()} open, ${before} before`);
  });
});
