// The session header says what needs the person and lets them act, in Debian's Chromium through a
// real `mori ui` and daemon with the fake agent, driven by roles and names: a usage limit read from
// the agent's screen shows when it resumes, and "Resume now" takes it out of its limit at once while
// "Don't resume" leaves it stopped at its limit; a question shows its lines from the screen, its numbered
// menu as buttons and a reply box, each reaching the agent; a crash loop shows the last output and
// Restart starts it again. The address follows the selection, and an unknown session in it falls to
// the top of the list (never the welcome page while sessions exist). Ctrl+1…9 select sessions, even
// from a terminal, which receives nothing; Ctrl+F searches the terminal and says when nothing matches;
// Ctrl+N opens the New session dialog; `?` lists the shortcuts, except in a terminal, where it is the agent's. Ctrl+K opens a palette of
// the sessions and every action with their shortcuts: typing filters fuzzily (the letters in order,
// best first), Enter runs the chosen one; it shows a tab and sets the theme, applied at once and kept. A restart's
// countdown shows while the agent waits for it; an agent command nobody approved offers Review and
// trust…, which opens its Trust dialog with the exact command line, and Trust starts the agent; a
// missing agent program its install command with Copy, a forged session.json the file's error and
// Restart. The Trust dialog has no serious or critical axe violation in either theme. While the
// daemon's settings pause notifications the page lists its news and raises no browser notification.
// Screenshots, light and dark at 1440×900, go to out/e2e-screenshots/.
import { AxeBuilder } from '@axe-core/playwright';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaemonSettings } from '../../common/daemon-settings.js';
import { call, client } from '../support/daemon.js';
import { until } from '../../testkit/until.js';
import { axeAudit } from '../support/axe-audit.js';
import { buildRenderer, CHROMIUM, WindowHarness } from '../support/window-harness.js';

let w: WindowHarness;
/** Written by trusty's changed agent command once the person trusted it. */
let trustyMarker = '';
let trustyCommand = '';

/** What the fake agent was sent, in order (its `input` records). */
const inputs = (): string[] =>
  readFileSync(w.h.record, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"event":"input"'))
    .map((l) => (JSON.parse(l) as { line: string }).line);

async function send(session: string, text: string): Promise<void> {
  const { c } = await client(w.h.home);
  try {
    await call(c, 'send', { session, text, enter: true });
  } finally {
    c.close();
  }
}

/** The agent's starts for a session: its first (the name is in the task) and every resume of that agent session. */
function startsOf(name: string): number {
  const all = w.h.starts();
  const first = all.filter((s) => s.argv.join(' ').includes(name));
  const ids = new Set(first.map((s) => s.sessionId));
  return all.filter((s) => first.includes(s) || (s.resumeId !== null && ids.has(s.resumeId))).length;
}

/** Changes a session's session.json as an agent or a cloned repository could. */
function editSession(name: string, change: (j: { agent: Record<string, unknown> }) => void): void {
  const file = path.join(w.h.stateDir(name), 'session.json');
  const j = JSON.parse(readFileSync(file, 'utf8')) as { agent: Record<string, unknown> };
  change(j);
  writeFileSync(file, JSON.stringify(j, null, 2));
}

describe.skipIf(!existsSync(CHROMIUM) && !process.env['CI'])('the session header in Chromium', () => {
  beforeAll(async () => {
    await buildRenderer();
    w = new WindowHarness('window-header');
    // A restart's first delay long enough to read its countdown (4–6 s with the jitter), not 100 ms.
    w.h.env['MORI_RESTART_BASE_MS'] = '5000';
    w.h.init('limity', 'direct');
    w.h.init('stopper', 'direct');
    w.h.init('asker', 'direct');
    w.h.init('crashy', 'direct');
    // Two crashes make a crash loop here (five by default): read when the daemon starts.
    writeFileSync(path.join(w.h.home, 'settings.json'), JSON.stringify({ restart: { crashLoopCount: 2 } }));
    // A shell command approved at init, then changed in session.json: it waits for the person's trust.
    trustyMarker = path.join(w.h.tmp, 'trusty-ran');
    trustyCommand = `sh -c "echo trusted > '${trustyMarker}'; exec sleep 601"`;
    expect(w.h.mori('init', w.h.project, '--name', 'trusty', '--agent', 'shell', '--command', 'sleep 600', '--backend', 'direct').code).toBe(0);
    editSession('trusty', (j) => (j.agent['command'] = trustyCommand));
    // Codex's program where nothing is: the agent is missing.
    w.h.env['MORI_AGENT_BIN_CODEX'] = path.join(w.h.tmp, 'no-codex-here');
    expect(w.h.mori('init', w.h.project, '--name', 'missing', '--agent', 'codex', '--backend', 'direct').code).toBe(0);
    // An agent session id that is no claude id: session.json is invalid.
    w.h.init('forged', 'direct');
    editSession('forged', (j) => (j.agent['sessionId'] = 'x; touch nothing'));
    await w.start();
  }, 90_000);
  afterAll(async () => {
    await w?.stop();
  });

  const waitingAt = async (name: string): Promise<void> => {
    const { page } = w;
    await page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: new RegExp(name) }).click();
    await expect.poll(() => page.getByRole('option', { name: new RegExp(name) }).innerText(), { timeout: 25_000 }).toMatch(/waiting/);
    await page.getByRole('region', { name: 'Terminal' }).getByText('? for shortcuts').filter({ visible: true }).last().waitFor({ timeout: 25_000 });
  };

  it('a usage limit says when it resumes; Resume now ends the wait, Don\'t resume leaves it stopped at its limit', async () => {
    const { page } = w;
    await waitingAt('limity');
    const limitLine = (): string => {
      // Claude's words, in a named zone: a 3:05-style time an hour ahead, in UTC — past the end of
      // this file, so the stopped session's reset never lands while a later test has a dialog open.
      const reset = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 60 * 60_000);
      const hh = reset.getUTCHours();
      return `You've hit your session limit · resets ${((hh + 11) % 12) + 1}:${String(reset.getUTCMinutes()).padStart(2, '0')}${hh < 12 ? 'am' : 'pm'} (UTC)`;
    };
    await send('limity', `limit:${limitLine()}`);
    const advice = page.getByRole('region', { name: 'What needs you' });
    await advice.getByText(/^Usage limit: resumes at \d\d:\d\d\.$/).waitFor({ timeout: 25_000 });
    await advice.getByText("You've hit your session limit").waitFor();
    await w.shot('header-usage-limit');
    await advice.getByRole('button', { name: 'Resume now' }).click();
    // Out of its limit at once (the live agent is told to go on, or relaunched), long before the reset.
    await advice.waitFor({ state: 'detached', timeout: 25_000 });
    await expect.poll(() => page.getByRole('option', { name: /limity/ }).innerText(), { timeout: 25_000 }).toMatch(/waiting|working|running/);
    expect(await page.locator('.action-status').count()).toBe(0);

    // Another at its limit: Don't resume stops it there, with the reset time in the header.
    await waitingAt('stopper');
    const stopperStarts = startsOf('stopper');
    await send('stopper', `limit:${limitLine()}`);
    await advice.getByText(/^Usage limit: resumes at/).waitFor({ timeout: 25_000 });
    await advice.getByRole('button', { name: "Don't resume" }).click();
    await advice.getByText(/^Stopped at the usage limit; it resets at \d\d:\d\d\. Start resumes it\.$/).waitFor({ timeout: 25_000 });
    await expect.poll(() => page.getByRole('option', { name: /stopper/ }).innerText()).toContain('stopped');
    expect(startsOf('stopper')).toBe(stopperStarts);
    await w.shot('header-stopped-at-limit');
  });

  it("a question shows its lines from the screen, its menu's choices as buttons and a reply box, each reaching the agent", async () => {
    const { page } = w;
    await waitingAt('asker');
    await send('asker', 'ask');
    const advice = page.getByRole('region', { name: 'What needs you' });
    await advice.getByText('The agent is asking you something:').waitFor({ timeout: 25_000 });
    const question = advice.getByLabel("The agent's question");
    await expect.poll(() => question.innerText(), { timeout: 5_000 }).toContain('Do you want to proceed?');
    await advice.getByRole('button', { name: '2. No' }).waitFor();
    await w.shot('header-needs-input');
    const before = inputs().length;
    await advice.getByRole('button', { name: '1. Yes' }).click();
    await until('the answer to reach the agent', () => inputs().length > before);
    expect(inputs().slice(before)).toEqual(['1']);
    await advice.waitFor({ state: 'detached', timeout: 25_000 });

    // Asked again: the reply box answers in the person's words.
    await waitingAt('asker');
    await send('asker', 'ask');
    await advice.getByRole('textbox', { name: 'Reply to the agent' }).fill('y');
    await advice.getByRole('button', { name: 'Send' }).click();
    await until('the reply to reach the agent', () => inputs().at(-1) === 'y');
    await advice.waitFor({ state: 'detached', timeout: 25_000 });
  });

  it('a crash counts down to its restart; a crash loop shows the last output and Restart starts the agent again', async () => {
    const { page } = w;
    const advice = page.getByRole('region', { name: 'What needs you' });
    for (let i = 1; i <= 2; i++) {
      await until(`start ${i} of the agent`, () => startsOf('crashy') >= i);
      await waitingAt('crashy');
      await send('crashy', 'print:last words before crash ' + String(i));
      await send('crashy', 'crash');
      if (i > 1) continue;
      await advice.getByText(/^Restarting the agent in [1-6] s \(at \d\d:\d\d\)\.$/).waitFor({ timeout: 10_000 });
      expect(await advice.getByRole('button').count()).toBe(0);
      await w.shot('header-retry');
    }
    await advice.getByText('The agent kept crashing, so Mori stopped restarting it. Its last output:').waitFor({ timeout: 25_000 });
    await expect.poll(() => advice.getByLabel('Last output').innerText()).toContain('last words before crash 2');
    await w.shot('header-crash-loop');
    const before = startsOf('crashy');
    await advice.getByRole('button', { name: 'Restart' }).click();
    await until('the restart', () => startsOf('crashy') > before);
    await advice.waitFor({ state: 'detached', timeout: 25_000 });
  });

  it('an unapproved agent command, a missing agent program and a forged session.json each say so, with the action that fixes it', async () => {
    const { page } = w;
    const list = page.getByRole('listbox', { name: 'Sessions' });
    const advice = page.getByRole('region', { name: 'What needs you' });
    const open = async (name: string): Promise<void> => {
      await list.getByRole('option', { name: new RegExp(name) }).click();
      await expect.poll(() => list.getByRole('option', { name: new RegExp(name) }).innerText(), { timeout: 25_000 }).toContain('attention');
    };
    // Each session's attention came before the page was open: the list carries why, as the daemon last said it.
    await open('trusty');
    await advice.getByText('The launch needs your trust for a command or address it names.').waitFor();
    await advice.getByText(/sleep 601/).first().waitFor({ timeout: 25_000 });
    expect(await advice.getByRole('button').allInnerTexts()).toEqual(['Review and trust…']);
    await w.shot('header-needs-trust');
    const ran = (): boolean => existsSync(trustyMarker) && readFileSync(trustyMarker, 'utf8').includes('trusted');
    expect(ran()).toBe(false);
    await advice.getByRole('button', { name: 'Review and trust…' }).click();
    await expect.poll(() => page.getByRole('tab', { name: 'Checks' }).getAttribute('aria-selected')).toBe('true');
    // The Checks tab opens on its Trust dialog: the exact command line, where it came from, that it runs as the agent.
    const dialog = page.getByRole('dialog', { name: 'Trust the agent command?' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Agent command line').innerText()).toBe(trustyCommand);
    await dialog.getByRole('heading', { name: 'Runs as the agent' }).waitFor();
    await dialog.getByText('The agent command changed since you approved it.', { exact: false }).waitFor();
    await dialog.getByText("From session.json (agent.command, the shell profile's command line).").waitFor();
    await w.shot('trust-dialog-agent-command');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const axe = await new AxeBuilder({ page }).include('dialog[open]').analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${scheme}: ${v.id}`)).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await dialog.getByRole('button', { name: 'Trust', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('status').getByText('Trusted the agent command; starting the agent').waitFor();
    // Approved exactly that line: the session starts and runs it.
    await until('the approved command to run', ran);
    await advice.waitFor({ state: 'detached', timeout: 25_000 });
    await expect.poll(() => list.getByRole('option', { name: /trusty/ }).innerText(), { timeout: 25_000 }).toMatch(/running|working|waiting/);
    await page.getByRole('tab', { name: 'Terminal' }).click();

    await open('missing');
    await advice.getByText("The agent's program was not found. Install it, then Restart:").waitFor();
    const install = advice.getByText('npm install -g @openai/codex', { exact: true });
    await install.waitFor({ timeout: 25_000 });
    expect(await advice.getByRole('button').allInnerTexts()).toEqual(['Copy', 'Restart']);
    await w.shot('header-agent-missing');
    // A grant for the origin replaces the harness's: notifications stay allowed.
    await page.context().grantPermissions(['notifications', 'clipboard-read', 'clipboard-write'], { origin: new URL(w.url).origin });
    await advice.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').getByText('Copied the install command').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('npm install -g @openai/codex');

    await open('forged');
    await advice.getByText('A state file could not be read; fix it, then Restart.').waitFor();
    await advice.getByText(/session\.json: agent\.sessionId: "x; touch nothing" is not a claude session id/).waitFor({ timeout: 25_000 });
    expect(await advice.getByRole('button').allInnerTexts()).toEqual(['Restart']);
    await w.shot('header-state-invalid');
    expect(startsOf('forged')).toBe(0);
  }, 90_000); // three sessions' flows, each waiting up to 25 s for the daemon on a loaded machine

  it('the address follows the selection; an unknown session in it falls to the top of the list, also after a reload', async () => {
    const { page } = w;
    const list = page.getByRole('listbox', { name: 'Sessions' });
    const { c } = await client(w.h.home);
    const ids = new Map(((await c.request('list', {})) as { ok: true; value: { id: string; name: string }[] }).value.map((s) => [s.name, s.id]));
    c.close();
    await list.getByRole('option', { name: /asker/ }).click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`#session=${ids.get('asker') ?? 'missing'}$`));
    await list.getByRole('option', { name: /stopper/ }).click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`#session=${ids.get('stopper') ?? 'missing'}$`));
    // A reload opens the session in the address.
    await page.reload();
    await expect.poll(() => list.getByRole('option', { name: /stopper/ }).getAttribute('aria-selected')).toBe('true');
    // The app opens a session from its notification or the tray by setting the address as
    // main/electron/main-window.ts does: that session's terminal shows, also when it is shown already.
    const terminalTab = page.getByRole('tab', { name: 'Terminal' });
    await page.getByRole('tab', { name: 'work_log.md' }).click();
    await expect.poll(() => terminalTab.getAttribute('aria-selected')).toBe('false');
    await page.evaluate((id) => {
      history.replaceState(null, '', '#');
      location.hash = `#session=${id}`;
    }, ids.get('stopper') ?? 'missing');
    await expect.poll(() => terminalTab.getAttribute('aria-selected')).toBe('true');
    expect(await list.getByRole('option', { name: /stopper/ }).getAttribute('aria-selected')).toBe('true');

    const welcome = page.getByText('Keeps coding agents working through crashes');
    for (const open of [(): Promise<unknown> => page.evaluate(() => (location.hash = '#session=no-such-session')), async (): Promise<unknown> => {
      await page.evaluate(() => history.replaceState(null, '', '#session=no-such-session'));
      return page.reload();
    }]) {
      await open();
      await expect.poll(() => page.url()).not.toContain('no-such-session');
      await expect.poll(() => list.getByRole('option').first().getAttribute('aria-selected')).toBe('true');
      const topId = await list.getByRole('option').first().getAttribute('id');
      expect(page.url()).toContain(`#session=${topId?.replace(/^session-/, '') ?? 'missing'}`);
      expect(await welcome.count()).toBe(0);
    }
  });

  it('shortcuts: Ctrl+1…9 select sessions, Ctrl+N opens New session, Ctrl+F searches the terminal with "No match", Ctrl+= / Ctrl+- size its text', async () => {
    const { page } = w;
    const list = page.getByRole('listbox', { name: 'Sessions' });
    const selectedName = (): Promise<string> => list.getByRole('option', { selected: true }).locator('.session-name').innerText();
    await list.getByRole('option', { name: /stopper/ }).click();
    // The keys of two sessions whose agents run (the ones needing the person come first in the list).
    const names = await list.locator('.session-name').allInnerTexts();
    const [askerKey, limityKey] = ['asker', 'limity'].map((n) => names.indexOf(n) + 1);
    await page.keyboard.press(`Control+${String(askerKey)}`);
    await expect.poll(selectedName).toBe('asker');
    // From inside a terminal too: the agent receives none of it.
    await page.getByRole('region', { name: 'Terminal' }).getByText('Fake Agent').filter({ visible: true }).first().waitFor({ timeout: 25_000 });
    await page.getByRole('region', { name: 'Terminal' }).click();
    const before = inputs().length;
    await page.keyboard.press(`Control+${String(limityKey)}`);
    await expect.poll(selectedName).toBe('limity');
    await page.keyboard.press('Control+f');
    const search = page.getByRole('searchbox', { name: 'Search the terminal' });
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('zz-nowhere-on-screen');
    await page.keyboard.press('Enter');
    const none = page.getByRole('status').getByText('No match');
    await none.waitFor();
    await w.shot('terminal-search-no-match');
    await search.fill('Fake Agent');
    await page.keyboard.press('Enter');
    expect(await none.count()).toBe(0);
    // Ctrl+= / Ctrl+- step the terminal's text size; the size is kept for the next page.
    const fontSize = (): Promise<string> => page.locator('.xterm-rows').filter({ visible: true }).first().evaluate((el) => getComputedStyle(el).fontSize);
    const start = await fontSize();
    await page.keyboard.press('Control+=');
    await page.keyboard.press('Control+=');
    await expect.poll(fontSize).toBe(`${parseInt(start, 10) + 2}px`);
    await page.keyboard.press('Control+-');
    await expect.poll(fontSize).toBe(`${parseInt(start, 10) + 1}px`);
    expect(await page.evaluate(() => localStorage.getItem('mori.terminalFontSize'))).toBe(String(parseInt(start, 10) + 1));
    await page.keyboard.press('Control+-');
    await expect.poll(fontSize).toBe(start);
    // Ctrl+N from the terminal opens the New session dialog, its first field taking the keyboard.
    await page.getByRole('region', { name: 'Terminal' }).click();
    await page.keyboard.press('Control+n');
    const newSession = page.getByRole('dialog', { name: 'New session' });
    await expect.poll(() => newSession.getByRole('textbox', { name: 'Project folder' }).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await newSession.waitFor({ state: 'detached' });
    expect(inputs().length).toBe(before);
    // `?` right after: the New session dialog's late close event must not close the shortcuts list.
    await list.focus();
    await page.keyboard.press('?');
    const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await shortcuts.getByText('Leave the terminal for the sessions list').waitFor();
    await new Promise((r) => setTimeout(r, 500));
    expect(await shortcuts.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await shortcuts.waitFor({ state: 'detached' });
  });

  it('? in the list opens the shortcuts, in a terminal it is the agent\'s', async () => {
    const { page } = w;
    const list = page.getByRole('listbox', { name: 'Sessions' });
    await list.getByRole('option', { name: /asker/ }).click();
    await page.getByRole('region', { name: 'Terminal' }).getByText('Fake Agent').filter({ visible: true }).first().waitFor({ timeout: 25_000 });
    const before = inputs().length;
    // `?` in the list opens the shortcuts; in a terminal it is the agent's.
    await list.focus();
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.getByText('Leave the terminal for the sessions list').waitFor();
    expect(await dialog.getByRole('row', { name: /New session/ }).innerText()).toMatch(/^Ctrl\+N\s+New session$/);
    await w.shot('shortcuts');
    expect(await axeAudit(page, 'shortcuts', { within: 'dialog[open]' })).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('region', { name: 'Terminal' }).click();
    await page.keyboard.press('?');
    await page.keyboard.press('Enter');
    await until('the agent to receive the ?', () => inputs().length > before);
    expect(inputs().slice(before)).toEqual(['?']);
    expect(await dialog.count()).toBe(0);
  });

  // Many palette searches and runs: more than the 30 s default on a loaded runner.
  it('Ctrl+K opens a palette of sessions and every action with their shortcuts; typing filters fuzzily and Enter runs', { timeout: 90_000 }, async () => {
    const { page } = w;
    const list = page.getByRole('listbox', { name: 'Sessions' });
    await list.getByRole('option', { name: /asker/ }).click();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    const box = palette.getByRole('combobox', { name: 'Go to a session or run an action' });
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    const options = palette.getByRole('listbox', { name: 'Sessions and actions' }).getByRole('option');
    expect(await options.allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/^Go to asker\s*Ctrl\+\d$/), 'Verify asker', expect.stringMatching(/^New session\s*Ctrl\+N$/), 'Settings', expect.stringMatching(/^Search the terminal\s*Ctrl\+F$/)]));
    // Opening a state folder is the app's (its main process opens it); a browser page has no such action.
    expect((await options.allInnerTexts()).filter((t) => /state folder/i.test(t))).toEqual([]);
    // Every action of the window is there: the session's, its tabs, the theme.
    expect(await options.allInnerTexts()).toEqual(
      expect.arrayContaining(['Stop asker…', 'Restart asker…', 'Remove asker…', 'Review and trust the checks of asker…', 'Show Checks', 'Theme: dark', 'Theme: light']),
    );
    // Fuzzy: the letters in order, best first (the label that starts with them, then word starts).
    await page.keyboard.type('stop');
    await expect.poll(() => options.allInnerTexts()).toEqual(['Stop asker…', expect.stringMatching(/^Go to stopper\s*Ctrl\+\d$/)]);
    await w.shot('palette');
    expect(await axeAudit(page, 'palette', { within: 'dialog[open]' })).toEqual([]);
    await box.fill('');
    await page.keyboard.type('gtstpr');
    await expect.poll(() => options.allInnerTexts()).toEqual([expect.stringMatching(/^Go to stopper\s*Ctrl\+\d$/)]);
    await box.fill('');
    await page.keyboard.type('stop');
    // ↓ moves to stopper, ↓ again wraps to the first, ↓ once more; Enter goes to stopper and the palette closes.
    await page.keyboard.press('ArrowDown');
    expect(await palette.getByRole('option', { selected: true }).innerText()).toMatch(/^Go to stopper/);
    await page.keyboard.press('ArrowDown');
    expect(await palette.getByRole('option', { selected: true }).innerText()).toBe('Stop asker…');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'detached' });
    await expect.poll(() => list.getByRole('option', { name: /stopper/ }).getAttribute('aria-selected')).toBe('true');
    // An action: New session opens its dialog.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('new sess');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'New session' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'New session' }).waitFor({ state: 'detached' });
  });

  it('the palette shows a tab and sets the theme, applied at once and kept in this browser', async () => {
    const { page } = w;
    await page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /asker/ }).click();
    await page.keyboard.press('Control+k');
    await page.keyboard.type('show checks');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('tab', { name: 'Checks' }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('theme dark');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => [document.documentElement.dataset['theme'], getComputedStyle(document.body).backgroundColor, localStorage.getItem('mori.theme')])).toEqual([
      'dark',
      'rgb(17, 19, 23)',
      'dark',
    ]);
    await page.keyboard.press('Control+k');
    await page.keyboard.type('theme follow');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => [document.documentElement.dataset['theme'] ?? null, localStorage.getItem('mori.theme')])).toEqual([null, null]);
  });

  it("while the daemon's settings pause notifications, or the session is muted, a failing verification is in the page's list and raises no browser notification", async () => {
    const { page } = w;
    // Another session in front of the person: crashy's news is one to raise.
    await page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /asker/ }).click();
    writeFileSync(path.join(w.h.stateDir('crashy'), 'environment.md'), '# environment.md\n## Setup\n- Database: localhost:1\n');
    const failed = 'crashy: verification failed';
    // How many times the page's notices said it, however grouped: a group saying the same again counts each time (×N).
    const listed = {
      count: (): Promise<number> =>
        page
          .getByRole('region', { name: 'Notifications' })
          .getByRole('listitem')
          .filter({ hasText: failed })
          .evaluateAll((items) => items.reduce((n, li) => n + Number(li.querySelector('.notice-count')?.textContent?.slice(1) ?? 1), 0)),
    };
    const raised = async (): Promise<number> => (await w.notifications()).filter((t) => t === failed).length;
    const { c } = await client(w.h.home);
    try {
      const settings = (await call(c, 'settings.get', {})) as unknown as DaemonSettings;
      const pause = (paused: boolean): Promise<unknown> => call(c, 'settings.set', { settings: { ...settings, notifications: { ...settings.notifications, paused } } });
      const [listedBefore, raisedBefore] = [await listed.count(), await raised()];
      await pause(true);
      await call(c, 'checks.verify', { session: 'crashy' });
      await expect.poll(() => listed.count()).toBe(listedBefore + 1);
      expect(await raised()).toBe(raisedBefore);
      // Not paused: the same news is raised.
      await pause(false);
      await call(c, 'checks.verify', { session: 'crashy' });
      await expect.poll(() => listed.count()).toBe(listedBefore + 2);
      await expect.poll(raised).toBe(raisedBefore + 1);
      // Muted from the palette: kept in the daemon's settings (the app's tray reads the same list), and
      // crashy's news is listed but not raised.
      const sessions = page.getByRole('listbox', { name: 'Sessions' });
      await sessions.getByRole('option', { name: /crashy/ }).click();
      await page.keyboard.press('Control+k');
      await page.keyboard.type('mute');
      await page.getByRole('dialog', { name: 'Command palette' }).getByRole('option', { name: 'Mute notifications of crashy' }).click();
      const crashyId = (JSON.parse(readFileSync(path.join(w.h.stateDir('crashy'), 'session.json'), 'utf8')) as { id: string }).id;
      await expect.poll(async () => ((await call(c, 'settings.get', {})) as unknown as DaemonSettings).notifications.muted).toEqual([crashyId]);
      await sessions.getByRole('option', { name: /asker/ }).click();
      await call(c, 'checks.verify', { session: 'crashy' });
      await expect.poll(() => listed.count()).toBe(listedBefore + 3);
      expect(await raised()).toBe(raisedBefore + 1);
      await call(c, 'settings.set', { settings });
    } finally {
      c.close();
    }
  });
});
