// Renaming and removing sessions from the window, in Debian's Chromium through a real `mori ui` and
// daemon with the fake agent, driven by roles and names: the header's More actions menu (a menu
// button, keyboard navigable) offers Rename disabled with the reason while the session runs; Stop asks
// first; once stopped, Rename gives it its new name (list, header, state dir) with the same id; Remove,
// from the same menu and in red, asks in a dialog whose "Also delete state files" box is unticked, Escape and
// Cancel give focus back to the menu button, a removal stops the agent, takes the session off
// the list and keeps its state dir unless the box is ticked. axe finds no serious or critical violation
// in the menu or the dialogs. Screenshots, light and dark at 1440×900, go to out/e2e-screenshots/sessions-*.png.
import { AxeBuilder } from '@axe-core/playwright';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer, CHROMIUM, WindowHarness } from '../support/window-harness.js';

let w: WindowHarness;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const idOf = (name: string): string => (JSON.parse(readFileSync(path.join(w.h.stateDir(name), 'session.json'), 'utf8')) as { id: string }).id;
const focusedText = (): Promise<string> => w.page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

async function axeClean(view: string): Promise<void> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await w.page.emulateMedia({ colorScheme: scheme });
    const result = await new AxeBuilder({ page: w.page }).analyze();
    for (const v of result.violations) if (v.impact === 'serious' || v.impact === 'critical') found.push(`${view} (${scheme}): ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }
  await w.page.emulateMedia({ colorScheme: 'light' });
  expect(found).toEqual([]);
}

describe.skipIf(!existsSync(CHROMIUM) && !process.env['CI'])('renaming and removing sessions in the window', () => {
  beforeAll(async () => {
    await buildRenderer();
    w = new WindowHarness('window-sessions');
    w.h.init('alpha', 'direct');
    w.h.init('beta', 'direct');
    await w.start();
    w.page.setDefaultTimeout(20_000);
  }, 90_000);
  afterAll(async () => {
    await w?.stop();
  });

  const select = async (name: string): Promise<void> => {
    await w.page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: new RegExp(name) }).click();
    await w.page.getByRole('heading', { level: 1, name }).waitFor();
  };

  it('offers Rename only once the session is stopped, saying why in its menu; Stop asks first; focus goes back to More actions', async () => {
    const { page } = w;
    const id = idOf('alpha');
    await select('alpha');
    await expect.poll(() => page.getByRole('option', { name: /alpha/ }).innerText(), { timeout: 25_000 }).toMatch(/waiting/);
    const header = page.locator('header.session-header');
    const more = header.getByRole('button', { name: 'More actions' });
    const menu = page.getByRole('menu', { name: 'More actions' });

    // By keyboard: ↓ opens the menu on its first item, Rename, disabled with the reason as its description.
    await more.focus();
    await page.keyboard.press('ArrowDown');
    const rename = menu.getByRole('menuitem', { name: 'Rename…' });
    await expect.poll(focusedText).toMatch(/^Rename…/);
    expect(await rename.getAttribute('aria-disabled')).toBe('true');
    expect(await rename.getAttribute('aria-description')).toMatch(/Stop the session first/);
    expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual([expect.stringMatching(/^Rename…/), 'Restart…', 'Continue with…', 'Remove…']);
    await w.shot('sessions-more-actions');
    await axeClean('more actions menu');
    await page.keyboard.press('Enter');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.keyboard.press('End');
    await expect.poll(focusedText).toBe('Remove…');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect.poll(focusedText).toMatch(/^More actions/);

    // Stop kills the agent: it asks first, and Cancel keeps it running.
    await header.getByRole('button', { name: 'Stop…' }).click();
    const stop = page.getByRole('dialog', { name: 'Stop alpha?' });
    await w.shot('sessions-stop-confirm');
    await axeClean('stop dialog');
    await stop.getByRole('button', { name: 'Cancel' }).click();
    await stop.waitFor({ state: 'detached' });
    expect(await page.getByRole('option', { name: /alpha/ }).innerText()).toMatch(/waiting/);
    await header.getByRole('button', { name: 'Stop…' }).click();
    await stop.getByRole('button', { name: 'Stop agent' }).click();
    await expect.poll(() => page.getByRole('option', { name: /alpha/ }).innerText(), { timeout: 25_000 }).toMatch(/stopped/);
    await more.click();
    await menu.getByRole('menuitem', { name: 'Rename…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename session' });
    expect(await dialog.getByRole('textbox', { name: 'New name' }).inputValue()).toBe('alpha');
    await dialog.getByRole('textbox', { name: 'New name' }).fill('gamma');
    await w.shot('sessions-rename-dialog');
    await axeClean('rename dialog');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1, name: 'gamma' }).waitFor();
    await page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /gamma/ }).waitFor();
    expect(await page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /alpha/ }).count()).toBe(0);
    await expect.poll(focusedText).toMatch(/^More actions/);
    expect(existsSync(w.h.stateDir('alpha'))).toBe(false);
    expect(idOf('gamma')).toBe(id);
    // Nothing was written into the old dir after the move (a checkpoint of the stop, say).
    expect(await page.getByRole('region', { name: 'Notifications' }).getByText(/needs attention/).count()).toBe(0);
  }, 120_000);

  it('removes a session from its More actions menu after asking, keeping its state files unless asked; focus goes back to the menu button', async () => {
    const { page } = w;
    const header = page.locator('header.session-header');
    const remove = async (): Promise<void> => {
      await header.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menu', { name: 'More actions' }).getByRole('menuitem', { name: 'Remove…' }).click();
    };
    await select('gamma');
    await remove();
    const dialog = page.getByRole('dialog', { name: 'Remove session gamma?' });
    const box = dialog.getByRole('checkbox', { name: 'Also delete state files' });
    expect(await box.isChecked()).toBe(false);
    // Remove deletes: its button is the danger style, not the safe primary one.
    expect(await dialog.getByRole('button', { name: 'Remove' }).getAttribute('class')).toBe('danger-primary');
    await w.shot('sessions-remove-dialog');
    await axeClean('remove dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(focusedText).toMatch(/^More actions/);
    expect(existsSync(path.join(w.h.home, 'registry.json')) && readFileSync(path.join(w.h.home, 'registry.json'), 'utf8')).toContain('gamma');

    await remove();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /gamma/ }).count()).toBe(0);
    expect(existsSync(path.join(w.h.stateDir('gamma'), 'session.json'))).toBe(true);
    // The list drops the session when the supervisor forgets it, just before the registry is written.
    await expect.poll(() => readFileSync(path.join(w.h.home, 'registry.json'), 'utf8')).not.toContain('gamma');

    // The running one, with its state files.
    await select('beta');
    await expect.poll(() => page.getByRole('option', { name: /beta/ }).innerText(), { timeout: 25_000 }).toMatch(/waiting/);
    const pid = w.h.starts().find((s) => alive(s.pid))?.pid;
    expect(pid).toBeDefined();
    await remove();
    const betaDialog = page.getByRole('dialog', { name: 'Remove session beta?' });
    await betaDialog.getByRole('checkbox', { name: 'Also delete state files' }).check();
    await betaDialog.getByRole('button', { name: 'Remove' }).click();
    await betaDialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByRole('listbox', { name: 'Sessions' }).getByRole('option').count()).toBe(0);
    expect(existsSync(w.h.stateDir('beta'))).toBe(false);
    await expect.poll(() => alive(pid as number), { timeout: 15_000 }).toBe(false);
    // With no session left, the window says what Mori does, the first step and what the state files are for.
    const welcome = page.getByRole('main');
    expect(await welcome.getByRole('heading', { level: 2 }).allInnerTexts()).toEqual(['Start a session', 'Let it work from its files', 'Close the lid']);
    expect(await welcome.getByRole('term').allInnerTexts()).toEqual(['session_state.md', 'environment.md', 'work_log.md']);
    await w.shot('sessions-none-left');
    expect(await page.getByRole('region', { name: 'Notifications' }).getByText(/needs attention/).count()).toBe(0);
  }, 120_000);
});
