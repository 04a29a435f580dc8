// The New session dialog in Debian's Chromium through a real `mori ui` and daemon, driven by roles
// and names: Create with two bad fields says what is wrong under each of them at once (each field
// invalid, its error its description, the first taking the keyboard); what is typed as a name shows
// the session name it makes and is created under it; a recent folder (a session's project folder)
// fills the folder in; the Sandbox choice starts as the daemon's settings have it (on, their network),
// its network chosen there is the session's, and the header says "sandboxed" with it. Screenshots at
// 1440×900 and 1280×720, light and dark, and axe on the dialog.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeAudit } from '../support/axe-audit.js';
import { buildRenderer, CHROMIUM, WindowHarness } from '../support/window-harness.js';

let w: WindowHarness;

/** The text of what describes a field (aria-describedby), as a screen reader reads it on focus. */
const description = (field: Locator): Promise<string> =>
  field.evaluate((el) => (el.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' | '));

describe.skipIf(!existsSync(CHROMIUM) && !process.env['CI'])('the New session dialog', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    await buildRenderer();
    w = new WindowHarness('window-new-session', { width: 1440, height: 900 });
    w.h.init('first', 'direct');
    await w.start();
    w.page.setDefaultTimeout(20_000);
    await w.page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /first/ }).waitFor({ timeout: 60_000 });
  }, 120_000);
  afterAll(async () => {
    await w?.stop();
  });

  it('says what is wrong under each bad field at once, shows the name a typed one makes, offers recent folders', async () => {
    const { page } = w;
    await page.getByRole('button', { name: 'New session' }).click();
    const dialog = page.getByRole('dialog', { name: 'New session' });
    const folder = dialog.getByRole('textbox', { name: 'Project folder' });
    const name = dialog.getByRole('textbox', { name: 'Name' });
    await name.fill('!!!');
    await dialog.getByRole('button', { name: 'Create and start' }).click();
    // Both fields at once, each under itself: no single error at the bottom.
    await dialog.getByText('Which project folder?').waitFor();
    await dialog.getByText('Use some letters or digits').waitFor();
    expect(await folder.getAttribute('aria-invalid')).toBe('true');
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await description(folder)).toContain('Which project folder?');
    expect(await description(name)).toContain('Use some letters or digits');
    expect(await dialog.getByRole('alert').count()).toBe(0);
    expect(await folder.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await axeAudit(page, 'new-session-errors', { within: 'dialog' })).toEqual([]);
    for (const [width, height] of [[1440, 900], [1280, 720]] as const) {
      await page.setViewportSize({ width, height });
      await w.shot(`new-session-errors-${width}x${height}`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });

    // What is typed becomes a slug, shown under the field as it is typed; the errors follow the typing.
    await name.fill('Fix Refunds!');
    await dialog.getByText('Named fix-refunds; its state folder .mori/fix-refunds/').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBeNull();
    expect(await description(name)).toContain('Named fix-refunds');

    // The recent folder is the first session's project folder: choosing it fills the field in.
    await dialog.getByRole('group', { name: 'Recent folders' }).getByRole('button', { name: `Use ${w.h.project}` }).click();
    expect(await folder.inputValue()).toBe(w.h.project);
    expect(await folder.getAttribute('aria-invalid')).toBeNull();
    await dialog.getByRole('radio', { name: 'direct', exact: true }).check();
    for (const [width, height] of [[1440, 900], [1280, 720]] as const) {
      await page.setViewportSize({ width, height });
      await w.shot(`new-session-filled-${width}x${height}`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await dialog.getByRole('button', { name: 'Create and start' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /fix-refunds/ }).waitFor();
  });

  it("offers the sandbox as the settings have it; the network chosen is the session's, and its header says sandboxed with it", async () => {
    const { page } = w;
    writeFileSync(path.join(w.h.home, 'settings.json'), JSON.stringify({ sandbox: { default: true, network: 'none' } }));
    await page.getByRole('button', { name: 'New session' }).click();
    const dialog = page.getByRole('dialog', { name: 'New session' });
    const sandbox = dialog.getByRole('group', { name: 'Sandbox' });
    const network = sandbox.getByRole('combobox', { name: 'Network' });
    await network.waitFor();
    expect(await sandbox.getByRole('radio', { name: 'On' }).isChecked()).toBe(true);
    expect(await network.inputValue()).toBe('none');
    await network.selectOption('allowlist');
    await dialog.getByRole('textbox', { name: 'Project folder' }).fill(w.h.project);
    await dialog.getByRole('textbox', { name: 'Name' }).fill('boxed');
    await dialog.getByRole('radio', { name: 'direct', exact: true }).check();
    expect(await axeAudit(page, 'new-session-sandbox', { within: 'dialog' })).toEqual([]);
    for (const [width, height] of [[1440, 900], [1280, 720]] as const) {
      await page.setViewportSize({ width, height });
      await w.shot(`new-session-sandbox-${width}x${height}`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    // Off hides the network: it is no choice then.
    await sandbox.getByRole('radio', { name: 'Off' }).check();
    expect(await network.count()).toBe(0);
    await sandbox.getByRole('radio', { name: 'On' }).check();
    await network.selectOption('allowlist');
    await dialog.getByRole('button', { name: 'Create and start' }).click();
    await dialog.waitFor({ state: 'detached' });
    const sessions = page.getByRole('listbox', { name: 'Sessions' });
    await sessions.getByRole('option', { name: /boxed/ }).click();
    await page.getByRole('heading', { level: 1, name: 'boxed' }).waitFor({ timeout: 25_000 });
    const header = page.locator('header.session-header');
    await header.getByText('sandboxed · allowlist network').waitFor();
    await w.shot('header-sandboxed-1440x900');
    // A session without one says nothing of it.
    await sessions.getByRole('option', { name: /first/ }).click();
    await page.getByRole('heading', { level: 1, name: 'first' }).waitFor({ timeout: 25_000 });
    expect(await header.innerText()).not.toContain('sandboxed');
  });
});
