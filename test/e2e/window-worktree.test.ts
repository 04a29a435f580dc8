// A session's own git worktree in the window, in Debian's Chromium through a real `mori ui`, daemon
// and git repository: the header shows the branch of a worktree session only; the New session dialog
// makes one ("Run in its own worktree", Branch prefilled mori/<name>) and shows the daemon's refusal
// of a folder outside git and of a taken branch; the Remove dialog removes one only when "Also remove its worktree" is ticked,
// says why it refuses uncommitted work, and deletes it on a second, explicit "Remove anyway". axe
// finds no serious or critical violation in the header or either dialog in either theme.
// Screenshots, light and dark at 1440×900, go to out/e2e-screenshots/.
import { AxeBuilder } from '@axe-core/playwright';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer, CHROMIUM, WindowHarness } from '../support/window-harness.js';

let w: WindowHarness;

function git(...args: string[]): { code: number | null; out: string } {
  const r = spawnSync('git', ['-C', w.h.project, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout };
}

/** Where session `name`'s worktree of the test's project is (DESIGN.md §9). */
function worktreeOf(name: string): string {
  const repo = realpathSync(w.h.project);
  const hash = createHash('sha256').update(repo).digest('hex').slice(0, 8);
  return path.join(realpathSync(w.h.home), 'worktrees', `${path.basename(repo)}-${hash}`, name);
}

/** No serious or critical axe violation in `selector`, light or dark. */
async function axeClean(selector: string): Promise<void> {
  const { page } = w;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const axe = await new AxeBuilder({ page }).include(selector).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${scheme}: ${v.id}`)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Ticks a checkbox from the keyboard. */
async function tick(box: Locator): Promise<void> {
  await box.focus();
  await w.page.keyboard.press('Space');
  expect(await box.isChecked()).toBe(true);
}

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
    await axeClean('header.session-header');

    await sessions.getByRole('option', { name: /plain/ }).click();
    await page.getByRole('heading', { level: 1, name: 'plain' }).waitFor({ timeout: 25_000 });
    expect(await header.innerText()).not.toContain('⎇');
  }, 90_000);

  it('makes a worktree session from the New session dialog, after showing the daemon refusing a folder outside git and a taken branch', async () => {
    const { page } = w;
    await page.getByRole('button', { name: 'New session' }).press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New session' });
    await dialog.getByRole('textbox', { name: 'Project folder' }).fill(w.h.project);
    await dialog.getByRole('textbox', { name: 'Name' }).fill('wtui');
    await dialog.getByRole('radio', { name: /direct/ }).check();
    const box = dialog.getByRole('checkbox', { name: 'Run in its own worktree' });
    const branch = dialog.getByRole('textbox', { name: 'Branch' });
    expect(await branch.count()).toBe(0);
    expect(await box.getAttribute('aria-describedby').then((id) => dialog.locator(`#${id}`).innerText())).toContain('$MORI_HOME/worktrees/<repository>-<hash>/wtui');
    await tick(box);
    expect(await branch.inputValue()).toBe('mori/wtui');

    const folder = dialog.getByRole('textbox', { name: 'Project folder' });
    await folder.fill(w.h.home);
    await dialog.getByRole('button', { name: 'Create and start' }).press('Enter');
    await expect.poll(() => dialog.getByRole('alert').innerText(), { timeout: 25_000 }).toContain(`${w.h.home}: not in a git repository`);
    await folder.fill(w.h.project);

    await branch.fill('mori/branchy');
    await dialog.getByRole('button', { name: 'Create and start' }).press('Enter');
    await expect.poll(() => dialog.getByRole('alert').innerText(), { timeout: 25_000 }).toMatch(/branch "mori\/branchy" exists already/);
    await w.shot('new-session-worktree');
    await axeClean('dialog');
    expect(existsSync(worktreeOf('wtui'))).toBe(false);

    await branch.fill('');
    await page.keyboard.type('mori/wtui');
    await dialog.getByRole('button', { name: 'Create and start' }).press('Enter');
    await dialog.waitFor({ state: 'detached', timeout: 25_000 });
    await page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /wtui/ }).click();
    await page.getByRole('heading', { level: 1, name: 'wtui' }).waitFor({ timeout: 25_000 });
    await page.locator('header.session-header').getByText('⎇ mori/wtui').waitFor();
    const list = git('worktree', 'list', '--porcelain').out;
    expect(list).toContain(`worktree ${worktreeOf('wtui')}\n`);
    expect(list).toContain('branch refs/heads/mori/wtui');
  }, 120_000);

  it('refuses to remove a worktree with uncommitted work until Remove anyway, then deletes it and keeps the branch', async () => {
    const { page } = w;
    const wt = worktreeOf('wtui');
    writeFileSync(path.join(wt, 'dirty.txt'), 'not committed\n');
    const header = page.locator('header.session-header');
    await header.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menu', { name: 'More actions' }).getByRole('menuitem', { name: 'Remove…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove session wtui?' });
    const box = dialog.getByRole('checkbox', { name: 'Also remove its worktree' });
    expect(await box.isChecked()).toBe(false);
    expect(await box.getAttribute('aria-describedby').then((id) => dialog.locator(`#${id}`).innerText())).toContain(`${wt}, on branch mori/wtui`);
    // What the dialog first says follows the boxes: the state files stay, until the worktree goes with them.
    const summary = dialog.getByText(/^Its agent is stopped/);
    expect(await summary.innerText()).toContain('Its state files stay in');
    await tick(box);
    expect(await summary.innerText()).toContain('Its worktree is deleted with its files, state files included.');
    expect(await dialog.getByRole('button', { name: 'Remove anyway' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Remove', exact: true }).press('Enter');
    await expect.poll(() => dialog.getByRole('alert').innerText(), { timeout: 25_000 }).toMatch(/uncommitted changes \(dirty\.txt\); nothing was removed[\s\S]*Remove anyway/);
    const anyway = dialog.getByRole('button', { name: 'Remove anyway' });
    await anyway.waitFor();
    await w.shot('remove-worktree-refused');
    await axeClean('dialog');
    expect(existsSync(path.join(wt, 'dirty.txt'))).toBe(true);
    expect(await page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /wtui/ }).count()).toBe(1);

    await anyway.press('Enter');
    await dialog.waitFor({ state: 'detached', timeout: 25_000 });
    await expect.poll(() => page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /wtui/ }).count()).toBe(0);
    // The session leaves the list (and its dialog with it) as it is forgotten; its worktree goes just after.
    await expect.poll(() => existsSync(wt), { timeout: 25_000 }).toBe(false);
    expect(git('worktree', 'list', '--porcelain').out).not.toContain(wt);
    expect(git('rev-parse', '--verify', '--quiet', 'refs/heads/mori/wtui').code).toBe(0);
  }, 120_000);

  it('keeps the worktree when the box is not ticked, and offers none for a session without one', async () => {
    const { page } = w;
    const sessions = page.getByRole('listbox', { name: 'Sessions' });
    const header = page.locator('header.session-header');
    await sessions.getByRole('option', { name: /plain/ }).click();
    await page.getByRole('heading', { level: 1, name: 'plain' }).waitFor({ timeout: 25_000 });
    await header.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menu', { name: 'More actions' }).getByRole('menuitem', { name: 'Remove…' }).click();
    const plain = page.getByRole('dialog', { name: 'Remove session plain?' });
    await plain.getByRole('checkbox', { name: 'Also delete state files' }).waitFor();
    expect(await plain.getByRole('checkbox', { name: 'Also remove its worktree' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await plain.waitFor({ state: 'detached' });

    await sessions.getByRole('option', { name: /branchy/ }).click();
    await page.getByRole('heading', { level: 1, name: 'branchy' }).waitFor({ timeout: 25_000 });
    await header.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menu', { name: 'More actions' }).getByRole('menuitem', { name: 'Remove…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove session branchy?' });
    expect(await dialog.getByRole('checkbox', { name: 'Also remove its worktree' }).isChecked()).toBe(false);
    await w.shot('remove-worktree-dialog');
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    await dialog.waitFor({ state: 'detached', timeout: 25_000 });
    await expect.poll(() => sessions.getByRole('option', { name: /branchy/ }).count()).toBe(0);
    const wt = worktreeOf('branchy');
    await page.getByRole('status').filter({ hasText: `Its worktree is kept at ${wt} (branch mori/branchy)` }).waitFor();
    expect(existsSync(path.join(wt, '.mori', 'branchy', 'session.json'))).toBe(true);
    expect(git('worktree', 'list', '--porcelain').out).toContain(`worktree ${wt}\n`);
  }, 120_000);
});
