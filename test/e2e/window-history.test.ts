// The window remembers what happened, in Debian's Chromium against a real `mori ui` and daemon with
// the fake agent: a session crashes, is resumed, crashes again into a crash loop, while another runs
// in tmux. Reloaded, and in a second tab of another `mori ui` opened afterwards, the window shows it
// all from the daemon's history: the notices (each once, also after live events follow), the crash
// loop's last output in the header and in the terminal (the transcript's end, the agent being gone),
// each session's last activity time, and the tmux session's screen as it is.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, client } from '../support/daemon.js';
import { MORI_BIN } from '../../testkit/mori-cli.js';
import { until } from '../../testkit/until.js';
import { buildRenderer, CHROMIUM, SHOTS, WindowHarness } from '../support/window-harness.js';

let w: WindowHarness;

async function send(session: string, text: string): Promise<void> {
  const { c } = await client(w.h.home);
  try {
    await call(c, 'send', { session, text, enter: true });
  } finally {
    c.close();
  }
}

/** The agent's starts for a session: its first (the name is in its arguments) and every resume of that agent session. */
function startsOf(name: string): number {
  const all = w.h.starts();
  const first = all.filter((s) => s.argv.join(' ').includes(name));
  const ids = new Set(first.map((s) => s.sessionId));
  return all.filter((s) => first.includes(s) || (s.resumeId !== null && ids.has(s.resumeId))).length;
}

/** What a page shows of the night: every check this test makes of a window opened after it. */
async function showsWhatHappened(page: Page): Promise<void> {
  const notices = page.getByRole('region', { name: 'Notifications' });
  await notices.getByText('crashy: crash loop').waitFor({ timeout: 15_000 });
  // The resume and the crash loop that followed it are one episode: one group, its outcome said once.
  expect(await notices.getByText('crashy: crash loop').count()).toBe(1);
  expect(await notices.getByText(/^crashy resumed/).count()).toBe(0);
  expect(await notices.getByText('Nothing yet.').count()).toBe(0);
  const list = page.getByRole('listbox', { name: 'Sessions' });
  await expect.poll(() => list.getByRole('option', { name: /crashy/ }).innerText()).toMatch(/just now|min ago/);
  await list.getByRole('option', { name: /crashy/ }).click();
  const advice = page.getByRole('region', { name: 'What needs you' });
  await advice.getByText('The agent kept crashing, so Mori stopped restarting it. Its last output:').waitFor({ timeout: 15_000 });
  await expect.poll(() => advice.getByLabel('Last output').innerText(), { timeout: 15_000 }).toContain('last words before crash 2');
  const terminal = page.getByRole('region', { name: 'Terminal' });
  await terminal.getByText('last words before crash 2').filter({ visible: true }).first().waitFor({ timeout: 15_000 });
  await list.getByRole('option', { name: /steady/ }).click();
  await terminal.getByText('steady screen marker').filter({ visible: true }).first().waitFor({ timeout: 15_000 });
}

describe.skipIf(!existsSync(CHROMIUM) && !process.env['CI'])('the window after a reload and in a new tab', () => {
  beforeAll(async () => {
    await buildRenderer();
    w = new WindowHarness('window-history');
    w.h.init('crashy', 'direct');
    w.h.init('steady', 'tmux');
    // Two crashes make a crash loop here (five by default): read when the daemon starts.
    writeFileSync(path.join(w.h.home, 'settings.json'), JSON.stringify({ restart: { crashLoopCount: 2 } }));
    await w.start();
  }, 90_000);
  afterAll(async () => {
    await w?.stop();
  });

  it('shows the notices, the last output, the times and the terminals from the daemon\'s history', { timeout: 180_000 }, async () => {
    const { page } = w;
    const list = page.getByRole('listbox', { name: 'Sessions' });
    await expect.poll(() => list.getByRole('option', { name: /steady/ }).innerText(), { timeout: 25_000 }).toMatch(/waiting/);
    await send('steady', 'print:steady screen marker');
    for (let i = 1; i <= 2; i++) {
      await until(`start ${i} of the crashing agent`, () => startsOf('crashy') >= i, () => JSON.stringify(w.h.starts()));
      await expect.poll(() => list.getByRole('option', { name: /crashy/ }).innerText(), { timeout: 25_000 }).toMatch(/waiting/);
      await send('crashy', `print:last words before crash ${i}`);
      await send('crashy', 'crash');
    }
    await page.getByRole('region', { name: 'Notifications' }).getByText('crashy: crash loop').waitFor({ timeout: 25_000 });

    await page.reload();
    await showsWhatHappened(page);
    // Live events after the history (the tmux agent's output and activity): nothing is told twice.
    await send('steady', 'print:after the reload');
    await page.getByRole('region', { name: 'Terminal' }).getByText('after the reload').filter({ visible: true }).first().waitFor({ timeout: 15_000 });
    const notices = page.getByRole('region', { name: 'Notifications' });
    expect(await notices.getByText('crashy: crash loop').count()).toBe(1);
    expect(await notices.getByText(/^crashy resumed/).count()).toBe(0);
    await list.getByRole('option', { name: /crashy/ }).click();
    await page.getByRole('region', { name: 'What needs you' }).getByLabel('Last output').waitFor();
    await w.shot('history-after-reload');

    // A second tab, of another `mori ui`, opened after all of it.
    const ui = spawn(process.execPath, [MORI_BIN, 'ui', '--no-open', '--json'], { cwd: w.h.project, env: { ...process.env, MORI_HOME: w.h.home, ...w.h.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    ui.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    const context = await w.browser?.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      await until('the URL of another mori ui', () => out.includes('\n'));
      const other = await context?.newPage();
      if (!other) throw new Error('no browser');
      await other.goto((JSON.parse(out.split('\n')[0] ?? '') as { url: string }).url);
      await showsWhatHappened(other);
      await other.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /crashy/ }).click();
      await other.getByRole('region', { name: 'What needs you' }).getByLabel('Last output').waitFor();
      for (const scheme of ['light', 'dark'] as const) {
        await other.emulateMedia({ colorScheme: scheme });
        await other.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        await other.screenshot({ path: path.join(SHOTS, `history-new-tab-1280-${scheme}.png`) });
      }
    } finally {
      await context?.close();
      ui.kill('SIGTERM');
    }
  });
});
