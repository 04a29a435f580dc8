// The settings' notices off the machine in Chromium (DESIGN.md §13 "Notices off the machine"),
// driven by roles and names: an ntfy target added by its URL is listed masked (its topic, the token,
// nowhere in the page) while settings.json keeps it whole; a URL that is not http(s) is refused in
// words; Remove takes the target away, in the page and the file. axe has nothing serious to say.
// Screenshots at 1440×900 and 1280×720, light and dark, go to out/e2e-screenshots/.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeAudit } from '../support/axe-audit.js';
import { buildRenderer, CHROMIUM, WindowHarness } from '../support/window-harness.js';

const TOPIC = 'mori-topic-s3cr3tZ';
let w: WindowHarness;

describe.skipIf(!existsSync(CHROMIUM) && !process.env['CI'])('the settings: notices off the machine', () => {
  beforeAll(async () => {
    await buildRenderer();
    w = new WindowHarness('window-notices');
    await w.start();
  }, 120_000);

  afterAll(async () => {
    await w?.stop();
  });

  it('adds an ntfy target shown masked, refuses a URL that is not http(s), and removes it', async () => {
    const { page } = w;
    await page.getByRole('button', { name: 'Settings' }).click();
    const group = page.getByRole('group', { name: 'Notices off the machine' });
    await group.getByText('No targets.').waitFor({ timeout: 30_000 });
    const url = group.getByRole('textbox', { name: 'Target URL' });

    await url.fill('ftp://ntfy.sh/x');
    await group.getByRole('button', { name: 'Add target' }).click();
    expect(await group.getByRole('alert').innerText()).toBe('The target is not an http:// or https:// URL.');

    await group.getByRole('combobox', { name: 'Kind' }).selectOption('ntfy');
    await url.fill(`https://ntfy.sh/${TOPIC}`);
    await group.getByRole('button', { name: 'Add target' }).click();
    const list = group.getByRole('list', { name: 'Notice targets' });
    await list.getByRole('listitem').first().waitFor({ timeout: 30_000 });
    expect(await list.getByRole('listitem').innerText()).toMatch(/ntfy\s+https:\/\/ntfy\.sh\/mor…/);
    expect(await group.getByRole('status').innerText()).toBe('Added ntfy target https://ntfy.sh/mor…');
    expect(await page.content()).not.toContain(TOPIC);
    const settings = (): string => readFileSync(path.join(w.h.home, 'settings.json'), 'utf8');
    expect(settings()).toContain(`https://ntfy.sh/${TOPIC}`);
    expect(await axeAudit(page, 'notice-targets', { within: 'dialog' })).toEqual([]);
    await list.scrollIntoViewIfNeeded();
    await w.shot('settings-notices');
    await page.setViewportSize({ width: 1280, height: 720 });
    await w.shot('settings-notices-1280');
    await page.setViewportSize({ width: 1440, height: 900 });

    // Saving the other settings keeps the target whole: the page only ever held it masked.
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('dialog', { name: 'Settings' }).waitFor({ state: 'detached' });
    expect(settings()).toContain(`https://ntfy.sh/${TOPIC}`);

    await page.getByRole('button', { name: 'Settings' }).click();
    const again = page.getByRole('group', { name: 'Notices off the machine' });
    await again.getByRole('button', { name: 'Remove ntfy target https://ntfy.sh/mor…' }).click();
    await again.getByText('No targets.').waitFor({ timeout: 30_000 });
    expect(settings()).not.toContain(TOPIC);
  }, 120_000);
});
