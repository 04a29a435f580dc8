// The window in Debian's Chromium through a real `mori ui` and daemon, driven by roles and names as a
// person would: typing into a fake agent's terminal reaches the agent and its output shows; an
// external edit of session_state.md shows in the open editor; Save keeps the external line; a save
// against a changed file shows the conflict and writes nothing; a closed port fails Verify with its
// source line while an untrusted test command (and a tcp check to 0.0.0.0) shows untrusted and runs only after Trust; the new
// session dialog creates a session that starts and appears in the list; needs input shows in the list
// and the notices, and the browser's notifications only for sessions the person is not looking at. The
// link's token leaves the address bar and works once; a reload keeps the window; another port on
// 127.0.0.1 receives no credential from the browser, and nothing it saw opens /api; `mori ui` opens
// the browser on a 0600 redirect file that carries no token in its path, and the built page carries
// its CSP in a meta tag. A fresh tab exchanges its link and opens its socket before the API's code has
// loaded, and speaks on that socket once it has. Screenshots of each view, light and dark, go to out/e2e-screenshots/.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { SECRET_STORAGE_KEY, WS_UNAUTHORIZED } from '../../common/web-session.js';
import { MORI_BIN, REPO } from '../../testkit/mori-cli.js';
import { axeAudit } from '../support/axe-audit.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, call } from '../support/daemon.js';
import { until } from '../../testkit/until.js';
import { buildRenderer, CHROMIUM, WindowHarness } from '../support/window-harness.js';

let w: WindowHarness;
let closedPort = 0;
let marker = '';

/** A port nothing listens on: bound, then released. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

const stateFile = (name: string, file: string): string => path.join(w.h.stateDir(name), file);

// Without Debian's Chromium (a machine that never ran .ci/run) there is nothing to drive; in CI it is installed, so it runs.
describe.skipIf(!existsSync(CHROMIUM) && !process.env['CI'])('the window in Chromium', () => {
  beforeAll(async () => {
    await buildRenderer();
    w = new WindowHarness('window');
    w.h.init('echo', 'direct');
    w.h.init('checks', 'direct');
    w.h.init('crashy', 'direct');
    // Two crashes make a crash loop here (five by default): read when the daemon starts.
    writeFileSync(path.join(w.h.home, 'settings.json'), JSON.stringify({ restart: { crashLoopCount: 2 } }));
    closedPort = await freePort();
    marker = path.join(w.h.tmp, 'test-command-ran');
    writeFileSync(
      stateFile('checks', 'environment.md'),
      `# environment.md\n## Setup\n- Database: localhost:${closedPort}\n- Test command: \`touch ${marker}\`\n- Build cache: 0.0.0.0:${closedPort}\n`,
    );
    await w.start();
  }, 90_000);
  afterAll(async () => {
    await w?.stop();
  });

  it('lists the sessions by name, and typing into the terminal reaches the agent, whose output shows', async () => {
    const { page } = w;
    const list = page.getByRole('listbox', { name: 'Sessions' });
    await list.getByRole('option', { name: /echo/ }).click();
    await expect.poll(() => list.getByRole('option', { name: /echo/ }).getAttribute('aria-selected')).toBe('true');
    const terminal = page.getByRole('region', { name: 'Terminal' });
    await terminal.getByText('Fake Agent').filter({ visible: true }).first().waitFor({ timeout: 25_000 });
    await terminal.click();
    await page.keyboard.type('hello-from-the-window');
    await page.keyboard.press('Enter');
    await until('the agent to receive the line', () => readFileSync(w.h.record, 'utf8').includes('"line":"hello-from-the-window"'), () => readFileSync(w.h.record, 'utf8').slice(-500));
    await expect.poll(() => terminal.innerText(), { timeout: 25_000 }).toMatch(/❯ hello-from-the-window/);
    await w.shot('terminal');
    // Earlier output comes from the transcript, as text.
    await page.getByRole('button', { name: 'Earlier output' }).click();
    const history = page.getByRole('region', { name: 'Earlier output' });
    await history.getByText('hello-from-the-window').first().waitFor();
    expect(await history.innerText()).toContain('Fake Agent');
    await w.shot('terminal-history');
    await page.getByRole('button', { name: 'Earlier output' }).click();
    await history.waitFor({ state: 'detached' });
  });

  it('keyboard: arrow keys in the sessions list never reach a terminal; Enter takes the keyboard in, F6 gives it back', async () => {
    const { page } = w;
    const list = page.getByRole('listbox', { name: 'Sessions' });
    const terminal = page.getByRole('region', { name: 'Terminal' });
    const listHasFocus = (): Promise<boolean> => list.evaluate((el) => el === document.activeElement);
    const inputs = (): string[] =>
      readFileSync(w.h.record, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"event":"input"'))
        .map((l) => (JSON.parse(l) as { line: string }).line);
    await list.getByRole('option', { name: /echo/ }).click();
    await terminal.getByText('Fake Agent').filter({ visible: true }).first().waitFor({ timeout: 25_000 });
    // Choosing a session leaves the keyboard in the list: the arrows move the selection, not the agent's cursor.
    expect(await listHasFocus()).toBe(true);
    const before = inputs().length;
    const seen = new Set<string>();
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowDown']) {
      await page.keyboard.press(key);
      seen.add(await list.getByRole('option', { selected: true }).innerText());
    }
    expect(seen.size).toBeGreaterThan(1);
    await list.getByRole('option', { name: /echo/ }).click();
    // Enter takes the keyboard into the selected session's terminal; the Enter itself is not typed there.
    await page.keyboard.press('Enter');
    await expect.poll(() => terminal.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.type('after-the-arrows');
    await page.keyboard.press('Enter');
    await until('the agent to receive the line', () => inputs().length > before, () => readFileSync(w.h.record, 'utf8').slice(-500));
    expect(inputs().slice(before)).toEqual(['after-the-arrows']);
    // F6 gives the keyboard back to the list; what follows reaches no agent.
    await page.keyboard.press('F6');
    expect(await listHasFocus()).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    // Focus moves into the terminal on the next frame; F6 pressed before that would still be in the list.
    await expect.poll(() => terminal.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('F6');
    expect(await listHasFocus()).toBe(true);
    await page.keyboard.type('typed-after-f6');
    await new Promise((r) => setTimeout(r, 500));
    expect(readFileSync(w.h.record, 'utf8')).not.toContain('typed-after-f6');
    // The Terminal tab: Enter takes the keyboard in too.
    await list.getByRole('option', { name: /echo/ }).click();
    await page.getByRole('tab', { name: 'Terminal' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => terminal.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    expect(await terminal.innerText()).not.toContain('typed-after-f6');
  });

  it('shows an external edit of session_state.md live, saves with it kept, and refuses a save over a change', async () => {
    const { page } = w;
    await page.getByRole('option', { name: /echo/ }).click();
    await page.getByRole('tab', { name: 'session_state.md' }).click();
    const editor = page.getByRole('textbox', { name: 'session_state.md text' });
    await editor.getByText('Current Task').waitFor();
    const file = stateFile('echo', 'session_state.md');

    // The agent writes the file: the editor, with no unsaved change, shows it within 2 s.
    writeFileSync(file, readFileSync(file, 'utf8') + '- external line from the agent\n');
    await editor.getByText('external line from the agent').waitFor({ timeout: 2_000 });

    // The person adds a line and saves: both lines are on disk.
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('- typed in the window');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').getByText('Saved', { exact: true }).waitFor();
    const saved = readFileSync(file, 'utf8');
    expect(saved).toContain('- external line from the agent');
    expect(saved).toContain('- typed in the window');
    await w.shot('session_state');

    // An unsaved change, then the agent writes again: a banner; Save answers conflict and writes nothing.
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n- second edit, never saved');
    const theirs = saved + '- the agent wrote meanwhile\n';
    writeFileSync(file, theirs);
    await page.getByRole('alert').getByText('changed on disk while you were editing').waitFor({ timeout: 5_000 });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').getByText('Nothing was overwritten').waitFor();
    expect(readFileSync(file, 'utf8')).toBe(theirs);
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.getByRole('region', { name: 'session_state.md compared with the disk' }).getByText('the agent wrote meanwhile').waitFor();
    await w.shot('state-conflict');
    await page.getByRole('button', { name: 'Use the disk version' }).click();
    await editor.getByText('the agent wrote meanwhile').waitFor();
  });

  it('takes a work-log entry and shows it first', async () => {
    const { page } = w;
    await page.getByRole('tab', { name: 'work_log.md' }).click();
    await page.getByRole('textbox', { name: 'New entry' }).fill('Checked the window by hand');
    await page.getByRole('button', { name: 'Add entry' }).click();
    const entries = page.getByRole('list', { name: 'Work log entries' }).getByRole('listitem');
    await expect.poll(() => entries.first().innerText()).toContain('Checked the window by hand');
    expect(readFileSync(stateFile('echo', 'work_log.md'), 'utf8')).toContain('Checked the window by hand');
    await w.shot('work-log');
  });

  it('Verify shows a closed port failing with its source line; the untrusted test command runs only after Trust', async () => {
    const { page } = w;
    await page.getByRole('option', { name: /checks/ }).click();
    await page.getByRole('tab', { name: 'Checks' }).click();
    const checks = page.getByRole('list', { name: 'Checks' });
    await checks.getByRole('listitem').first().waitFor();
    const command = checks.getByRole('listitem', { name: /touch .*: untrusted/ });
    await command.waitFor();
    await page.getByRole('button', { name: 'Verify', exact: true }).first().click();
    const port = checks.getByRole('listitem', { name: new RegExp(`${closedPort}: fail`) });
    await port.waitFor({ timeout: 25_000 });
    expect(await port.innerText()).toContain('environment.md:3');
    expect(await command.innerText()).toMatch(/untrusted/i);
    // An address not loopback by name needs trust like the command.
    await checks.getByRole('listitem', { name: new RegExp(`0\\.0\\.0\\.0:${closedPort}: untrusted`) }).waitFor();
    expect(existsSync(marker)).toBe(false);
    await expect.poll(() => page.getByRole('option', { name: /checks/ }).innerText()).toContain('1 failing');
    await w.shot('checks');

    await page.getByRole('button', { name: 'Trust…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Trust these commands and addresses?' });
    const items = await dialog.getByRole('list', { name: 'Commands and addresses to trust' }).innerText();
    expect(items).toContain(`touch ${marker}`);
    expect(items).toContain(`0.0.0.0:${closedPort}`);
    await w.shot('trust-dialog');
    expect(await axeAudit(page, 'trust-dialog', { within: 'dialog[open]' })).toEqual([]);
    await dialog.getByRole('button', { name: 'Trust', exact: true }).click();
    await page.getByRole('button', { name: 'Verify', exact: true }).first().click();
    await until('the trusted test command to run', () => existsSync(marker));
    await checks.getByRole('listitem', { name: /touch .*: pass/ }).waitFor({ timeout: 25_000 });
  });

  it('the new session dialog creates a session that starts and appears in the list', async () => {
    const { page } = w;
    await page.getByRole('button', { name: 'New session' }).click();
    const dialog = page.getByRole('dialog', { name: 'New session' });
    await dialog.getByRole('textbox', { name: 'Project folder' }).fill(w.h.project);
    await dialog.getByRole('textbox', { name: 'Name' }).fill('fresh');
    await dialog.getByRole('combobox', { name: 'Agent' }).selectOption('claude');
    await dialog.getByRole('textbox', { name: 'Task' }).fill('start from the window');
    await dialog.getByRole('radio', { name: /direct/ }).check();
    const resume = dialog.getByRole('combobox', { name: 'Resume' });
    expect(await resume.inputValue()).toBe('default');
    await resume.selectOption({ label: 'Fresh' });
    await w.shot('new-session');
    await dialog.getByRole('button', { name: 'Create and start' }).click();
    const option = page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /fresh/ });
    await option.waitFor();
    const created = JSON.parse(readFileSync(path.join(w.h.project, '.mori', 'fresh', 'session.json'), 'utf8')) as { resume?: string };
    expect(created.resume).toBe('fresh');
    await expect.poll(() => option.innerText(), { timeout: 25_000 }).toMatch(/waiting|working|running/);
    await page.getByRole('region', { name: 'Terminal' }).getByText('start from the window').first().waitFor({ timeout: 25_000 });
  });

  it('an agent asking a question shows as needs input in the list and in the notices; settings are stored with the daemon', async () => {
    const { page } = w;
    await page.getByRole('option', { name: /echo/ }).click();
    await page.getByRole('heading', { level: 1, name: 'echo' }).waitFor();
    await page.getByRole('tab', { name: 'Terminal' }).click();
    // The pool keeps other sessions' terminals hidden beside it: type into the one on screen, once it is echo's.
    await page.getByRole('region', { name: 'Terminal' }).getByText('Fake Agent').filter({ visible: true }).first().waitFor({ timeout: 25_000 });
    await page.getByRole('region', { name: 'Terminal' }).locator('.xterm').filter({ visible: true }).click();
    await page.keyboard.type('ask');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('option', { name: /echo/ }).innerText(), { timeout: 25_000 }).toContain('needs input');
    await page.getByRole('region', { name: 'Notifications' }).getByText('echo needs input').waitFor();
    await w.shot('needs-input');
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByText('Crash loop', { exact: true }).waitFor();
    // Each field says its default, probe targets are explained, and the theme applies as soon as it is chosen.
    expect(await settings.getByRole('spinbutton', { name: 'First delay (ms)' }).getAttribute('placeholder')).toBe('1000');
    await settings.getByText(/^Default: 60[,.]?000 ms$/).waitFor();
    await settings.getByText(/How Mori tells a network outage from a crash/).waitFor();
    await w.shot('settings');
    await settings.getByRole('radio', { name: 'Dark' }).check();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    await settings.getByRole('radio', { name: 'System (default)' }).check();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset['theme'] ?? null)).toBe(null);
    await settings.getByRole('checkbox', { name: 'Pause notifications' }).check();
    // A target that answers (the web host itself), so the probe finds the network up meanwhile.
    const probe = `127.0.0.1:${new URL(w.url).port}`;
    await settings.getByRole('textbox', { name: /Probe targets/ }).fill(probe);
    await settings.getByRole('combobox', { name: 'Resume sessions' }).selectOption('fresh');
    await settings.getByRole('spinbutton', { name: /share of the model's window/ }).fill('70');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.waitFor({ state: 'detached' });
    const stored = JSON.parse(readFileSync(path.join(w.h.home, 'settings.json'), 'utf8')) as { notifications: { paused: boolean }; probeTargets: string[]; restart: { crashLoopCount: number } };
    expect(stored).toMatchObject({ notifications: { paused: true }, probeTargets: [probe], restart: { crashLoopCount: 2 }, resume: { mode: 'fresh', contextSharePercent: 70, stateFileNoticeBytes: 16 * 1024 } });
    // Back as they were for the tests that follow (notifications on, no probe).
    await page.getByRole('button', { name: 'Settings' }).click();
    await settings.getByRole('checkbox', { name: 'Pause notifications' }).uncheck();
    await settings.getByRole('textbox', { name: /Probe targets/ }).fill('');
    await settings.getByRole('combobox', { name: 'Resume sessions' }).selectOption('auto');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.waitFor({ state: 'detached' });
  });

  it('an agent that keeps crashing shows as a crash loop in the list and the notices; its terminal re-attaches after each restart', async () => {
    const { page } = w;
    await page.getByRole('option', { name: /crashy/ }).click();
    await page.getByRole('tab', { name: 'Terminal' }).click();
    const terminal = page.getByRole('region', { name: 'Terminal' });
    for (let i = 1; i <= 2; i++) {
      await until(`start ${i} of the agent`, () => w.h.starts().filter((s) => s.argv.join(' ').includes('crashy')).length >= i, () => JSON.stringify(w.h.starts().map((s) => s.argv)));
      await terminal.getByText('? for shortcuts').filter({ visible: true }).last().waitFor({ timeout: 25_000 });
      await expect.poll(() => page.getByRole('option', { name: /crashy/ }).innerText(), { timeout: 25_000 }).toMatch(/waiting/);
      await terminal.click();
      await page.keyboard.type('crash');
      await page.keyboard.press('Enter');
      if (i === 1) await page.getByRole('region', { name: 'Notifications' }).getByText('crashy resumed').waitFor({ timeout: 25_000 });
    }
    await page.getByRole('region', { name: 'Notifications' }).getByText('crashy: crash loop').waitFor({ timeout: 25_000 });
    await expect.poll(() => page.getByRole('option', { name: /crashy/ }).innerText()).toContain('attention');
    // The person is looking at this session in a focused window: no browser notification for it.
    expect(await page.evaluate('document.hasFocus()')).toBe(true);
    expect((await w.notifications()).filter((t) => t.startsWith('crashy'))).toEqual([]);
    await w.shot('crash-loop');
    // One group for the whole loop, saying its outcome once; dismissed, then the rest cleared, by keyboard.
    const notices = page.getByRole('region', { name: 'Notifications' });
    const crashy = notices.getByRole('listitem').filter({ hasText: 'crashy' });
    await expect.poll(() => crashy.count()).toBe(1);
    expect(await crashy.innerText()).toMatch(/crashy: crash loop, not restarting[\s\S]*Gave up/);
    await notices.getByRole('button', { name: /^Dismiss: crashy/ }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => crashy.count()).toBe(0);
    await notices.getByRole('button', { name: 'Clear all' }).focus();
    await page.keyboard.press('Space');
    await notices.getByText('Nothing yet.').waitFor();
  });

  it('sleep and wake: the sessions show interrupted, then resumed in the notices; a click on the notification opens its terminal', async () => {
    const { page } = w;
    const { c } = await client(w.h.home);
    try {
      await call(c, 'hint.power', { kind: 'suspend' });
      await expect.poll(() => page.getByRole('option', { name: /echo/ }).innerText(), { timeout: 25_000 }).toContain('interrupted');
      await call(c, 'hint.power', { kind: 'resume' });
      const notices = page.getByRole('region', { name: 'Notifications' });
      await notices.getByText('The machine woke up').waitFor({ timeout: 25_000 });
      await notices.getByText('echo resumed').waitFor({ timeout: 25_000 });
      // A session the person is not looking at: the browser's notification too.
      expect(await w.notifications()).toContain('echo resumed after sleep');
      await expect.poll(() => page.getByRole('option', { name: /echo/ }).innerText(), { timeout: 25_000 }).toMatch(/waiting|working|running|needs input/);
      await w.shot('resumed');
      // A click on that notification opens echo on its terminal, whichever session and tab were shown.
      await page.getByRole('option', { name: /crashy/ }).click();
      await page.getByRole('tab', { name: 'work_log.md' }).click();
      await w.clickNotification('echo resumed after sleep');
      await expect.poll(() => page.getByRole('option', { name: /echo/ }).getAttribute('aria-selected')).toBe('true');
      await expect.poll(() => page.getByRole('tab', { name: 'Terminal' }).getAttribute('aria-selected')).toBe('true');
    } finally {
      c.close();
    }
  });

  it("the link's token leaves the address bar, the built page carries its CSP, a reload keeps the window working, and it logged no error", async () => {
    const { page } = w;
    expect(readFileSync(path.join(REPO, 'out', 'renderer', 'index.html'), 'utf8')).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self';[^"]*object-src 'none'; base-uri 'none'/);
    expect(page.url()).not.toContain('token');
    // Connected (the link exchanged for the tab's secret), then reloaded.
    await page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /echo/ }).waitFor();
    await page.reload();
    await page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /echo/ }).waitFor();
    await page.getByRole('option', { name: /echo/ }).click();
    await page.getByRole('tab', { name: 'Terminal' }).click();
    // The agent's screen as it is now (its banner has scrolled off by this test: any line of its prompt will do).
    await page.getByRole('region', { name: 'Terminal' }).getByText(/for shortcuts|Fake Agent/).filter({ visible: true }).first().waitFor({ timeout: 25_000 });
    expect(await page.getByText(/Reconnecting…|Connecting to the Mori daemon/).count()).toBe(0);
    // Nothing the page asked for was missing (the tab's icon included), and no script logged an error, since the window opened.
    expect(w.consoleErrors).toEqual([]);
  });

  it('no other local port receives a Mori credential from the browser, nothing it could see opens /api, and the link works once', async () => {
    const { page } = w;
    const mori = new URL(w.url);
    const token = new URLSearchParams(mori.hash.slice(1)).get('token') ?? '';
    const secret = (await page.evaluate(`sessionStorage.getItem('${SECRET_STORAGE_KEY}')`)) as string;
    expect(secret.length).toBeGreaterThanOrEqual(43);
    // An agent's dev server on another port of 127.0.0.1, visited in the same browser context.
    const seen: string[] = [];
    const headers: http.IncomingHttpHeaders[] = [];
    const server = http.createServer((req, res) => {
      seen.push(`${req.url ?? ''} ${JSON.stringify(req.headers)}`);
      headers.push(req.headers);
      res.end('<!doctype html><p>dev server</p><img src="/pixel.png">');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as net.AddressInfo).port;
      const other = await page.context().newPage();
      await other.goto(`http://127.0.0.1:${port}/`);
      await other.goto(`http://localhost:${port}/again`);
      await other.close();
      expect(headers.length).toBeGreaterThanOrEqual(2);
      for (const h of headers) expect(h.cookie).toBeUndefined();
      for (const line of seen) {
        expect(line).not.toContain(token);
        expect(line).not.toContain(secret);
      }
      expect(await page.context().cookies()).toEqual([]);
      // Replaying what it saw (every header it got, from Mori's own origin) does not open /api.
      const replayed = await new Promise<{ code: number; replies: number }>((resolve) => {
        let replies = 0;
        const { host: _host, connection: _c, upgrade: _u, ...rest } = headers[0] ?? {};
        const ws = new WebSocket(`ws://${mori.host}/api`, { headers: { ...(rest as Record<string, string>), origin: mori.origin } });
        ws.on('open', () => ws.send(JSON.stringify({ id: 1, method: 'list', params: {} })));
        ws.on('message', () => replies++);
        ws.on('close', (code) => resolve({ code, replies }));
      });
      expect(replayed).toEqual({ code: WS_UNAUTHORIZED, replies: 0 });
      // The link's token was spent by the window: a second exchange fails.
      const again = await fetch(`${mori.origin}/session`, { method: 'POST', headers: { origin: mori.origin }, body: token });
      expect(again.status).toBe(401);
    } finally {
      server.close();
    }
  });

  it("a fresh tab exchanges its link and opens its socket while the API's code still loads, then speaks on that socket", async () => {
    const ui = spawn(process.execPath, [MORI_BIN, 'ui', '--no-open', '--json'], { cwd: w.h.project, env: { ...process.env, MORI_HOME: w.h.home, ...w.h.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    ui.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    const context = await w.browser?.newContext();
    try {
      await until('the URL of another mori ui', () => out.includes('\n'));
      const link = (JSON.parse(out.split('\n')[0] ?? '') as { url: string }).url;
      const page = await context?.newPage();
      if (!page) throw new Error('no browser');
      const seen: string[] = [];
      const firstSocketSent: string[] = [];
      // The API's chunk (zod, the protocol core) is held back until the test lets it go.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/api-[\w-]+\.js$/, async (route) => {
        await held;
        seen.push('api served');
        await route.continue();
      });
      page.on('request', (r) => {
        if (new URL(r.url()).pathname === '/session') seen.push('exchange');
      });
      page.on('websocket', (ws) => {
        if (seen.includes('socket')) return;
        seen.push('socket');
        ws.on('framesent', (f) => firstSocketSent.push(String(f.payload)));
      });
      await page.goto(link);
      await until('the exchange and the socket, with the API held back', () => seen.includes('exchange') && seen.includes('socket'));
      expect(seen).not.toContain('api served');
      expect(page.url()).not.toContain('token');
      release();
      await page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /echo/ }).waitFor();
      // The socket opened before the API loaded is the one it authenticated and said hello on.
      expect(firstSocketSent[0]).toContain('"kind":"auth"');
      expect(firstSocketSent.some((f) => f.includes('"method":"hello"'))).toBe(true);
      expect(await page.getByText(/Reconnecting…|Connecting to the Mori daemon/).count()).toBe(0);
    } finally {
      await context?.close();
      ui.kill('SIGTERM');
    }
  }, 60_000);

  // `mori ui` starts a web host (and a daemon when none answers) in a process of its own: a loaded machine needs more than the default.
  it("mori ui opens the browser on a 0600 redirect file whose path carries no token, and the redirect opens the window in Chromium", async () => {
    const bin = path.join(w.h.tmp, 'opener-bin');
    const argvFile = path.join(w.h.tmp, 'opener-argv.json');
    mkdirSync(bin, { recursive: true });
    // Written aside, then renamed: the test, polling for the file, never reads it half-written.
    const opener = `const fs = require('node:fs'); fs.writeFileSync(${JSON.stringify(`${argvFile}.part`)}, JSON.stringify(process.argv.slice(2))); fs.renameSync(${JSON.stringify(`${argvFile}.part`)}, ${JSON.stringify(argvFile)});`;
    writeFileSync(path.join(bin, 'xdg-open'), `#!${process.execPath}\n${opener}\n`, { mode: 0o755 });
    const ui = spawn(process.execPath, [MORI_BIN, 'ui', '--json'], { cwd: w.h.project, env: { ...process.env, MORI_HOME: w.h.home, ...w.h.env, PATH: `${bin}:${process.env['PATH'] ?? ''}` }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    ui.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    ui.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    try {
      await until('the opener to run', () => existsSync(argvFile) && out.includes('\n'), () => `stdout: ${out}\nstderr: ${err}`);
      const link = (JSON.parse(out.split('\n')[0] ?? '') as { url: string }).url;
      const token = new URLSearchParams(new URL(link).hash.slice(1)).get('token') ?? '';
      const argv = JSON.parse(readFileSync(argvFile, 'utf8')) as string[];
      expect(argv.join(' ')).not.toContain(token);
      const file = argv[0] ?? '';
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const context = await w.browser?.newContext();
      const page = await context?.newPage();
      if (!page) throw new Error('no browser');
      await page.goto(pathToFileURL(file).href);
      await page.waitForURL((u) => u.origin === new URL(link).origin);
      await page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /echo/ }).waitFor();
      expect(page.url()).not.toContain(token);
      await until('the spent link\'s file to go', () => !existsSync(file));
      await context?.close();
    } finally {
      ui.kill('SIGTERM');
    }
  }, 60_000);
});
