// The session header shows the branch of a session's own git worktree (`mori init --worktree`), and
// nothing of the kind for a session without one, in Debian's Chromium through a real `mori ui` and
// daemon; axe finds no serious or critical violation in that header in either theme. Screenshots, light and dark at 1440×900, go to out/e2e-screenshots/.
import { AxeBuilder } from '@axe-core/playwright';
import { existsSync, mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer, CHROMIUM, WindowHarness } from './window-harness.js';

let w: WindowHarness;

describe.skipIf(!existsSync(CHROMIUM) && !process.env['CI'])('a worktree session in the window', () => {
  beforeAll(async () => {
    await buildRenderer();
    w = new WindowHarness('window-worktree');
    mkdirSync(w.h.home, { recursive: true, mode: 0o700 }); // private, as the daemon wants it
    const r = w.h.mori('init', w.h.project, '--name', 'branchy', '--agent', 'claude', '--backend', 'direct', '--worktree', '--task', 'work on a branch');
    if (r.code !== 0) throw new Error(`mori init --worktree failed: ${r.stderr}`);
    w.h.init('plain', 'direct');
    await w.start();
  }, 90_000);
  afterAll(async () => {
    await w?.stop();
  });

  it('shows the branch in the header of the worktree session only', async () => {
    const { page } = w;
    const sessions = page.getByRole('listbox', { name: 'Sessions' });
    await sessions.getByRole('option', { name: /branchy/ }).click();
    await page.getByRole('heading', { level: 1, name: 'branchy' }).waitFor({ timeout: 25_000 });
    const header = page.locator('header.session-header');
    await header.getByText('⎇ mori/branchy').waitFor();
    await expect.poll(() => header.innerText()).toMatch(/worktrees\/project-[0-9a-f]{8}\/branchy/);
    await w.shot('header-worktree-branch');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const axe = await new AxeBuilder({ page }).include('header.session-header').analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${scheme}: ${v.id}`)).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });

    await sessions.getByRole('option', { name: /plain/ }).click();
    await page.getByRole('heading', { level: 1, name: 'plain' }).waitFor({ timeout: 25_000 });
    expect(await header.innerText()).not.toContain('⎇');
  }, 90_000);
});
