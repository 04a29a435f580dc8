// The terminal's keys in the window, in Chromium against a real `mori ui`, daemon and fake agent
// (direct and tmux): Shift+Tab reaches the agent as the three bytes ESC [ Z; the search box counts
// the matches ("2 of 3") and Escape ends the search and gives the keyboard back to the terminal.
// Screenshots go to out/e2e-screenshots/terminal-search-*.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer, CHROMIUM, WindowHarness } from '../support/window-harness.js';
import { until } from '../../testkit/until.js';

let w: WindowHarness;
const inputs = (): string[] =>
  readFileSync(w.h.record, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { event: string; line?: string })
    .filter((r) => r.event === 'input')
    .map((r) => r.line ?? '');

describe.skipIf(!existsSync(CHROMIUM) && !process.env['CI'])('the terminal’s keys in the window', () => {
  beforeAll(async () => {
    await buildRenderer();
    w = new WindowHarness('terminal-keys');
    w.h.init('direct', 'direct');
    w.h.init('tmuxed', 'tmux');
    await w.start();
  }, 90_000);
  afterAll(async () => {
    await w?.stop();
  });

  for (const name of ['direct', 'tmuxed']) {
    it(`${name}: Shift+Tab reaches the agent as ESC [ Z`, async () => {
      const { page } = w;
      await page.getByRole('option', { name: new RegExp(name) }).click();
      const terminal = page.getByRole('region', { name: 'Terminal' });
      await terminal.getByText('Fake Agent').filter({ visible: true }).first().waitFor({ timeout: 25_000 });
      await terminal.click();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.type(`after-${name}`);
      await page.keyboard.press('Enter');
      await until(`${name}'s agent to receive the line`, () => inputs().some((l) => l.endsWith(`after-${name}`)), () => JSON.stringify(inputs()));
      expect(inputs().find((l) => l.endsWith(`after-${name}`))).toBe(`\x1b[Zafter-${name}`);
    });
  }

  it('the search counts its matches, and Escape gives the keyboard back to the terminal', async () => {
    const { page } = w;
    await page.getByRole('option', { name: /direct/ }).click();
    const terminal = page.getByRole('region', { name: 'Terminal' });
    await terminal.click();
    for (const n of [1, 2, 3]) {
      await page.keyboard.type(`print:needle-${n}`);
      await page.keyboard.press('Enter');
    }
    await expect.poll(() => terminal.innerText(), { timeout: 25_000 }).toMatch(/needle-3/);
    await page.keyboard.press('Control+f');
    const search = page.getByRole('searchbox', { name: 'Search the terminal' });
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await search.fill('needle-');
    await search.press('Enter');
    const count = page.locator('.terminal-pane:not([hidden])').getByRole('status');
    // Each `print:` line prints its word once: three matches.
    await expect.poll(() => count.first().innerText()).toMatch(/^[1-3] of 3$/);
    const first = await count.first().innerText();
    await search.press('Enter');
    await expect.poll(() => count.first().innerText()).not.toBe(first);
    await w.shot('terminal-search');
    await search.press('Escape');
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.terminal-region') != null)).toBe(true);
    expect(await count.first().innerText()).toBe('');
    await page.keyboard.type('typed-after-escape');
    await page.keyboard.press('Enter');
    await until('the line typed after Escape', () => inputs().includes('typed-after-escape'), () => JSON.stringify(inputs()));
  });
});
