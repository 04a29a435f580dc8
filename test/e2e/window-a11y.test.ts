// The window's accessibility and looks in Debian's Chromium through a real `mori ui` and daemon, at
// 1366×768 in the light and the dark theme: axe finds no serious or critical violation on any view
// (the session list with the terminal, each state-file editor, the work log, the checks, the compare
// view, the settings and new-session dialogs); text, control borders, focus rings, the editor's caret
// and the terminal's colours meet their contrast in both themes, and the terminal and the editor
// follow a change of theme without a reload; CodeMirror loads only when an editor opens; the tabs move
// by arrows, Home and End; dialogs give focus back to their opener and link a field's error to it;
// new notices are in a live region; the terminals' screen reader mode is a setting kept across
// reloads. Screenshots of each view go to out/e2e-screenshots/a11y-*.png.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeAudit } from '../support/axe-audit.js';
import { buildRenderer, CHROMIUM, WindowHarness } from '../support/window-harness.js';
import { contrastOf, type Pair } from '../support/contrast.js';

let w: WindowHarness;
const SCHEMES = ['light', 'dark'] as const;
/** The size the checks and screenshots use: the most common laptop screen. */
const VIEWPORT = { width: 1366, height: 768 };
/** WCAG 2.1 AA: text (1.4.3) and the parts of controls and focus indicators (1.4.11). */
const TEXT_MIN = 4.5;
const UI_MIN = 3;

const frames = (page: Page): Promise<unknown> => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** Serious and critical axe violations on the page as it is, in both themes; a screenshot of each. */
const audit = (view: string): Promise<string[]> => axeAudit(w.page, view, { shots: true });

describe.skipIf(!existsSync(CHROMIUM) && !process.env['CI'])('the window, accessible in both themes', () => {
  beforeAll(async () => {
    await buildRenderer();
    w = new WindowHarness('window-a11y', VIEWPORT);
    w.h.init('echo', 'direct');
    w.h.init('checks', 'direct');
    writeFileSync(path.join(w.h.stateDir('checks'), 'environment.md'), '# environment.md\n## Setup\n- Database: localhost:1\n- Test command: `true`\n');
    await w.start();
    // A step that cannot happen fails naming its locator, well within the test's time.
    w.page.setDefaultTimeout(15_000);
    await w.page.getByRole('region', { name: 'Terminal' }).getByText('Fake Agent').filter({ visible: true }).first().waitFor({ timeout: 25_000 });
  }, 90_000);
  afterAll(async () => {
    await w?.stop();
  });

  it('CodeMirror loads only when an editor opens', async () => {
    const { page } = w;
    const scripts = (): Promise<string[]> => page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('.js')));
    expect((await scripts()).some((s) => /editor-setup/.test(s))).toBe(false);
    await page.getByRole('option', { name: /echo/ }).click();
    await page.getByRole('tab', { name: 'session_state.md' }).click();
    await page.getByRole('textbox', { name: 'session_state.md text' }).getByText('Current Task').waitFor();
    expect((await scripts()).some((s) => /editor-setup/.test(s))).toBe(true);
    await page.getByRole('tab', { name: 'Terminal' }).click();
  });

  it('no view has a serious or critical axe violation, light or dark', async () => {
    const { page } = w;
    const found: string[] = [];
    await page.getByRole('option', { name: /echo/ }).click();
    await page.getByRole('tab', { name: 'Terminal' }).click();
    found.push(...(await audit('terminal')));
    for (const file of ['session_state.md', 'environment.md'] as const) {
      await page.getByRole('tab', { name: file }).click();
      await page.getByRole('textbox', { name: `${file} text` }).locator('.cm-line').first().waitFor();
      found.push(...(await audit(file.replace('.md', ''))));
    }
    await page.getByRole('tab', { name: 'work_log.md' }).click();
    await page.getByRole('textbox', { name: 'New entry' }).fill('Looked at every view');
    await page.getByRole('button', { name: 'Add entry' }).click();
    await page.getByRole('list', { name: 'Work log entries' }).getByText('Looked at every view').waitFor();
    found.push(...(await audit('work-log')));

    // The compare view: an unsaved edit, then a change on disk.
    await page.getByRole('tab', { name: 'session_state.md' }).click();
    const editor = page.getByRole('textbox', { name: 'session_state.md text' });
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n- an edit of mine');
    const file = path.join(w.h.stateDir('echo'), 'session_state.md');
    writeFileSync(file, readFileSync(file, 'utf8') + '- the agent wrote this\n');
    await page.getByRole('alert').getByText('changed on disk').waitFor({ timeout: 5_000 });
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.getByRole('region', { name: 'session_state.md compared with the disk' }).getByText('the agent wrote this').waitFor();
    found.push(...(await audit('compare')));
    await page.getByRole('button', { name: 'Use the disk version' }).click();

    await page.getByRole('option', { name: /checks/ }).click();
    await page.getByRole('tab', { name: 'Checks' }).click();
    await page.getByRole('button', { name: 'Verify', exact: true }).first().click();
    await page.getByRole('list', { name: 'Checks' }).getByRole('listitem', { name: /localhost:1: fail/ }).waitFor({ timeout: 25_000 });
    found.push(...(await audit('checks')));

    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('dialog', { name: 'Settings' }).getByText('Crash loop', { exact: true }).waitFor();
    found.push(...(await audit('settings')));
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'New session' }).click();
    const dialog = page.getByRole('dialog', { name: 'New session' });
    await dialog.getByRole('textbox', { name: 'Project folder' }).fill(w.h.project);
    await dialog.getByRole('textbox', { name: 'Name' }).fill('!!!');
    await dialog.getByRole('button', { name: 'Create and start' }).click();
    await dialog.getByText('Use some letters or digits').waitFor();
    found.push(...(await audit('new-session')));
    await page.keyboard.press('Escape');
    expect(found).toEqual([]);
  }, 180_000);

  it('text, control borders, focus rings, the caret and the terminal meet their contrast in both themes, and switch live', async () => {
    const { page } = w;
    await page.getByRole('option', { name: /echo/ }).click();
    const measured: { scheme: string; pair: Pair; ratio: number }[] = [];
    const terminalBackgrounds: string[] = [];
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      await frames(page);
      await page.getByRole('tab', { name: 'Terminal' }).click();
      const pairs: Pair[] = [
        { what: 'text', fg: await color(page.locator('.brand'), 'color'), bg: await background(page.locator('.brand')), min: TEXT_MIN },
        { what: 'secondary text', fg: await color(page.locator('.session-meta').first(), 'color'), bg: await background(page.locator('.sidebar')), min: TEXT_MIN },
        { what: 'button border', fg: await color(page.getByRole('button', { name: 'Settings' }), 'border-top-color'), bg: await background(page.locator('.sidebar')), min: UI_MIN },
        { what: 'field border', fg: await color(page.getByRole('searchbox', { name: 'Search the terminal' }), 'border-top-color'), bg: await background(page.locator('.terminal-bar')), min: UI_MIN },
        { what: 'terminal text', fg: await color(page.locator('.xterm-rows').filter({ visible: true }), 'color'), bg: await background(page.locator('.xterm-rows').filter({ visible: true })), min: TEXT_MIN },
      ];
      terminalBackgrounds.push(pairs[4]?.bg ?? '');
      // The focus ring, as the keyboard shows it: Tab from the session list lands on New session.
      await page.getByRole('listbox', { name: 'Sessions' }).focus();
      await page.keyboard.press('Tab');
      const focused = page.getByRole('button', { name: 'New session' });
      expect(await focused.evaluate((el) => el === document.activeElement)).toBe(true);
      pairs.push({ what: 'focus ring', fg: await color(focused, 'outline-color'), bg: await background(page.locator('.sidebar')), min: UI_MIN });
      await page.getByRole('tab', { name: 'session_state.md' }).click();
      const editor = page.getByRole('textbox', { name: 'session_state.md text' });
      await editor.click();
      const cm = page.locator('.editor-host .cm-editor');
      pairs.push(
        { what: 'editor text', fg: await color(cm.locator('.cm-content'), 'color'), bg: await background(cm.locator('.cm-content')), min: TEXT_MIN },
        { what: 'editor caret', fg: await color(cm.locator('.cm-cursor').first(), 'border-left-color'), bg: await background(cm.locator('.cm-content')), min: UI_MIN },
        { what: 'editor line numbers', fg: await color(cm.locator('.cm-gutterElement').nth(1), 'color'), bg: await background(cm.locator('.cm-gutters')), min: TEXT_MIN },
        { what: 'editor focus ring', fg: await color(cm, 'outline-color'), bg: await background(cm), min: UI_MIN },
      );
      for (const pair of pairs) measured.push({ scheme, pair, ratio: contrastOf(pair.fg, pair.bg) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    process.stdout.write(measured.map((m) => `${m.scheme} ${m.pair.what}: ${m.pair.fg} on ${m.pair.bg} = ${m.ratio.toFixed(2)}:1\n`).join(''));
    expect(measured.filter((m) => m.ratio < m.pair.min).map((m) => `${m.scheme} ${m.pair.what}: ${m.ratio.toFixed(2)}`)).toEqual([]);
    // The same live terminal took the other theme's colours: no reload between the two.
    expect(terminalBackgrounds[0]).not.toBe(terminalBackgrounds[1]);
    await page.getByRole('tab', { name: 'Terminal' }).click();
  }, 60_000);

  it('the tabs move by arrows, Home and End, one of them in the tab order', async () => {
    const { page } = w;
    const tabs = page.getByRole('tablist', { name: 'Session views' });
    await tabs.getByRole('tab', { name: 'Terminal' }).click();
    const selected = (): Promise<string> => tabs.getByRole('tab', { selected: true }).innerText();
    const focused = (): Promise<string> => page.evaluate(() => document.activeElement?.textContent ?? '');
    await tabs.getByRole('tab', { name: 'Terminal' }).focus();
    await page.keyboard.press('End');
    expect(await selected()).toBe('Usage');
    expect(await focused()).toBe('Usage');
    await page.keyboard.press('Home');
    expect(await selected()).toBe('Terminal');
    await page.keyboard.press('ArrowLeft');
    expect(await selected()).toBe('Usage');
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('Terminal');
    expect(await tabs.locator('[tabindex="0"]').count()).toBe(1);
  });

  it('dialogs give focus back to their opener, and an error names its field', async () => {
    const { page } = w;
    const opener = page.getByRole('button', { name: 'New session' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New session' });
    await dialog.getByRole('textbox', { name: 'Project folder' }).fill(w.h.project);
    const name = dialog.getByRole('textbox', { name: 'Name' });
    await name.fill('!!!');
    await dialog.getByRole('button', { name: 'Create and start' }).click();
    await dialog.getByText('Use some letters or digits').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    // The field's description is the error, as a screen reader reads it on focus.
    const description = await name.evaluate((el) => (el.getAttribute('aria-describedby') ?? '').split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' '));
    expect(description).toContain('Use some letters or digits');
    expect(await dialog.getByRole('textbox', { name: 'Project folder' }).getAttribute('aria-invalid')).toBeNull();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => opener.evaluate((el) => el === document.activeElement), { timeout: 5_000 }).toBe(true);

    const settings = page.getByRole('button', { name: 'Settings' });
    await settings.click();
    const settingsDialog = page.getByRole('dialog', { name: 'Settings' });
    await settingsDialog.getByRole('button', { name: 'Cancel' }).click();
    // Focus goes back when the dialog unmounts, which follows the click's re-render.
    await settingsDialog.waitFor({ state: 'detached' });
    await expect.poll(() => settings.evaluate((el) => el === document.activeElement), { timeout: 5_000 }).toBe(true);
  });

  it('a new notice arrives in a live region', async () => {
    const { page } = w;
    await page.getByRole('option', { name: /echo/ }).click();
    await page.getByRole('tab', { name: 'Terminal' }).click();
    await page.getByRole('region', { name: 'Terminal' }).click();
    await page.keyboard.type('ask');
    await page.keyboard.press('Enter');
    const notice = page.getByRole('region', { name: 'Notifications' }).getByText('echo needs input');
    await notice.waitFor({ timeout: 25_000 });
    expect(await notice.evaluate((el) => el.closest('[aria-live]')?.getAttribute('aria-live') ?? null)).toBe('polite');
  });

  it("the terminals' screen reader mode is a setting, applied at once and kept across a reload", async () => {
    const { page } = w;
    const tree = page.getByRole('region', { name: 'Terminal' }).locator('.xterm-accessibility');
    expect(await tree.count()).toBe(0);
    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('checkbox', { name: 'Screen reader mode for terminals' }).check();
    await dialog.getByRole('button', { name: 'Save settings' }).click();
    await tree.first().waitFor({ state: 'attached' });
    await page.reload();
    await page.getByRole('region', { name: 'Terminal' }).getByText('Fake Agent').filter({ visible: true }).first().waitFor({ timeout: 25_000 });
    expect(await page.getByRole('region', { name: 'Terminal' }).locator('.xterm-accessibility').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Settings' }).click();
    expect(await page.getByRole('dialog', { name: 'Settings' }).getByRole('checkbox', { name: 'Screen reader mode for terminals' }).isChecked()).toBe(true);
    await page.keyboard.press('Escape');
  });
});

/** A computed colour of the element. */
function color(l: Locator, property: string): Promise<string> {
  return l.evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property);
}

/** The colour behind the element: its own background, or the nearest ancestor's that is not transparent. */
function background(l: Locator): Promise<string> {
  return l.evaluate((el) => {
    for (let e: Element | null = el; e; e = e.parentElement) {
      const bg = getComputedStyle(e).backgroundColor;
      if (bg && bg !== 'transparent' && !/^rgba\(.*,\s*0\)$/.test(bg)) return bg;
    }
    return 'rgb(255, 255, 255)';
  });
}
