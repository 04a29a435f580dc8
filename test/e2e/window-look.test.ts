// The window's look in Debian's Chromium through a real `mori ui`, daemon and fake agent, at 1440×900
// and 1280×720, light and dark: its text uses the four sizes of the type scale and no other; each view
// has one primary (filled) button — New session in the sidebar, the reply's Send while the agent asks
// something; the dark theme's dialog backdrop is darker than the light one's; the tabs keep their width
// when one becomes bold or unsaved, and their names stay their labels; Mori's own work-log entries show
// their kind as a label in sentence case while the file keeps its capitals; the settings dialog's Resume
// choice stays inside its box at 1280×720 and the dialog does not scroll sideways. Screenshots of the
// welcome, a session needing input, a dialog, the tabs with an unsaved file, the work log and the
// settings go to out/e2e-screenshots/look-*.png.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer, CHROMIUM, VIEWPORT, WindowHarness } from '../support/window-harness.js';

let w: WindowHarness;
/** The smaller screen the views must also fit: a 13-inch laptop's default. */
const SMALL = { width: 1280, height: 720 };
/** The type scale's sizes (styles.css --fs-small, --fs-body, --fs-title, --fs-heading). */
const SCALE = ['12px', '13px', '15px', '20px'];

/** Screenshots at both sizes, each light and dark; the page is left at the large size. */
async function shots(name: string): Promise<void> {
  await w.shot(`look-${name}`);
  await w.page.setViewportSize(SMALL);
  await w.shot(`look-${name}-1280`);
  await w.page.setViewportSize(VIEWPORT);
}

/** The font sizes of the visible text outside the terminal and the editors (whose size is the person's). */
const textSizes = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const sizes = new Set<string>();
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      if (el.closest('.xterm, .cm-editor, .terminal-history')) continue;
      const ownText = Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
      if (!ownText || el.getClientRects().length === 0 || el.closest('.visually-hidden')) continue;
      sizes.add(getComputedStyle(el).fontSize);
    }
    return [...sizes].sort();
  });

const tabWidths = (page: Page): Promise<number[]> => page.getByRole('tab').evaluateAll((tabs) => tabs.map((t) => t.getBoundingClientRect().width));

describe.skipIf(!existsSync(CHROMIUM) && !process.env['CI'])('the window looks like a tool', () => {
  beforeAll(async () => {
    await buildRenderer();
    w = new WindowHarness('window-look');
    await w.start();
    w.page.setDefaultTimeout(15_000);
  }, 90_000);
  afterAll(async () => {
    await w?.stop();
  });

  it('the welcome, a dialog over it and a session that asks: the type scale, one primary button per view, a dark backdrop', async () => {
    const { page } = w;
    await page.getByRole('main').getByRole('heading', { level: 1, name: 'Mori' }).waitFor();
    expect(SCALE).toEqual(expect.arrayContaining(await textSizes(page)));
    await shots('welcome');

    await page.getByRole('button', { name: 'New session' }).click();
    const dialog = page.getByRole('dialog', { name: 'New session' });
    await dialog.getByRole('textbox', { name: 'Project folder' }).fill(w.h.project);
    await dialog.getByRole('textbox', { name: 'Name' }).fill('echo');
    await dialog.getByRole('combobox', { name: 'Agent' }).selectOption('claude');
    await dialog.getByRole('textbox', { name: 'Task' }).fill('write the thing');
    await dialog.getByRole('radio', { name: /direct/ }).check();
    // The veil behind a dialog: 35 % black on the light page, at least 60 % on the dark one, where less barely shows.
    const veil = async (scheme: 'light' | 'dark'): Promise<number> => {
      await page.emulateMedia({ colorScheme: scheme });
      const bg = await page.locator('dialog[open]').evaluate((d) => getComputedStyle(d, '::backdrop').backgroundColor);
      return Number(/rgba\(0, 0, 0, ([\d.]+)\)/.exec(bg)?.[1] ?? 1);
    };
    expect(await veil('light')).toBeCloseTo(0.35);
    expect(await veil('dark')).toBeGreaterThanOrEqual(0.6);
    await page.emulateMedia({ colorScheme: 'light' });
    expect(SCALE).toEqual(expect.arrayContaining(await textSizes(page)));
    await shots('dialog');
    await dialog.getByRole('button', { name: 'Create and start' }).click();

    await page.getByRole('heading', { level: 1, name: 'echo' }).waitFor({ timeout: 25_000 });
    const terminal = page.getByRole('region', { name: 'Terminal' });
    await terminal.getByText('Fake Agent').filter({ visible: true }).first().waitFor({ timeout: 25_000 });
    await terminal.locator('.xterm').filter({ visible: true }).click();
    await page.keyboard.type('ask');
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: 'What needs you' }).getByRole('button', { name: '1. Yes' }).waitFor({ timeout: 25_000 });
    // One filled button in the sidebar and one in the session: the fix for what needs the person.
    const primaries = (where: string): Promise<string[]> => page.locator(`${where} button.primary`).filter({ visible: true }).allInnerTexts();
    expect(await primaries('.sidebar')).toEqual(['New session']);
    expect(await primaries('.main')).toEqual(['Send']);
    expect(SCALE).toEqual(expect.arrayContaining(await textSizes(page)));
    await shots('needs-input');
    // The session's name is the largest text in it.
    expect(await page.getByRole('heading', { level: 1, name: 'echo' }).evaluate((h) => getComputedStyle(h).fontSize)).toBe('20px');
  }, 180_000);

  it('the tabs keep their width when bold or unsaved, and their names stay their labels', async () => {
    const { page } = w;
    await page.getByRole('tab', { name: 'Terminal', exact: true }).click();
    const before = await tabWidths(page);
    await page.getByRole('tab', { name: 'session_state.md', exact: true }).click();
    expect(await tabWidths(page)).toEqual(before);
    const editor = page.getByRole('textbox', { name: 'session_state.md text' });
    await editor.getByText('Current Task').waitFor();
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('- a draft line');
    await page.getByRole('tab', { name: 'session_state.md unsaved changes', exact: true }).waitFor();
    expect(await tabWidths(page)).toEqual(before);
    await shots('tab-unsaved');
  }, 60_000);

  it("Mori's own work-log entries show their kind as a label; the file keeps its capitals", async () => {
    const { page } = w;
    const file = path.join(w.h.stateDir('echo'), 'work_log.md');
    // What the supervisor writes on sleep (main/state/work-log.ts's format), and an entry of the agent's own.
    appendFileSync(file, '\n## 2026-12-06 09:00\n- SESSION INTERRUPTED - system sleep\n\n## 2026-12-06 09:05\n- Ran the tests: 41 passed\n- NOTE - the API key is in .env\n');
    await page.getByRole('tab', { name: 'work_log.md', exact: true }).click();
    const entries = page.getByRole('list', { name: 'Work log entries' }).getByRole('listitem');
    await entries.filter({ hasText: 'system sleep' }).waitFor();
    const interrupted = entries.filter({ hasText: 'system sleep' });
    expect(await interrupted.locator('.log-kind').innerText()).toBe('Session interrupted');
    expect(await interrupted.innerText()).not.toContain('SESSION INTERRUPTED');
    expect(await entries.filter({ hasText: 'agent claude' }).first().locator('.log-kind').allInnerTexts()).toEqual([expect.stringMatching(/^Session (started|created)$/)]);
    // The agent's two-line entry stays as written, capitals and all.
    expect(await entries.filter({ hasText: 'Ran the tests' }).innerText()).toContain('NOTE - the API key is in .env');
    expect(await entries.filter({ hasText: 'Ran the tests' }).locator('.log-kind').count()).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('- SESSION INTERRUPTED - system sleep');
    await shots('work-log');
  }, 60_000);

  it('the settings dialog keeps the Resume choice inside its box at 1280×720', async () => {
    const { page } = w;
    await page.setViewportSize(SMALL);
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    const resume = settings.getByRole('combobox', { name: 'Resume sessions' });
    await resume.scrollIntoViewIfNeeded();
    const box = await resume.evaluate((el) => {
      const field = el.closest('fieldset')?.getBoundingClientRect();
      const r = el.getBoundingClientRect();
      const d = el.closest('dialog') as HTMLElement;
      return { right: r.right, fieldRight: field?.right ?? 0, sideways: d.scrollWidth - d.clientWidth };
    });
    expect(box.right).toBeLessThanOrEqual(box.fieldRight);
    expect(box.sideways).toBe(0);
    // Each number field of the fieldset inside it too.
    for (const name of [/Auto goes fresh/, /Notice when session_state\.md passes/]) {
      const inside = await settings.getByRole('spinbutton', { name }).evaluate((el) => el.getBoundingClientRect().right <= (el.closest('fieldset')?.getBoundingClientRect().right ?? 0));
      expect(inside).toBe(true);
    }
    await w.shot('look-settings-1280');
    await page.setViewportSize(VIEWPORT);
    await w.shot('look-settings');
    await page.keyboard.press('Escape');
  }, 60_000);
});
