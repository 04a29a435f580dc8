// The window on a phone, in Debian's Chromium with a 390×844 touch screen (isMobile, hasTouch) through
// a real `mori ui` and daemon with the fake agent, driven by taps on roles and names: the list and a
// session are two screens, a tap on a session opens it and "Back to sessions" returns; neither
// screen is wider than the phone; every button and tab shown is at least 44 px each way; Verify and
// Stop are in the header, and the agent's question with its choices and reply box sits at the bottom
// of the screen, answered by a tap; the terminal fits the width and its text size buttons change it;
// the list's arrow keys move the selection without leaving the list; Stop…'s dialog fits too; the
// page's web app manifest is served as one, with its icons, and Chromium finds it installable.
// No serious or critical axe violation on either screen. Screenshots of each screen, light and dark
// at 390×844, go to out/e2e-screenshots/.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { call, client } from '../support/daemon.js';
import { until } from '../../testkit/until.js';
import { axeAudit } from '../support/axe-audit.js';
import { buildRenderer, CHROMIUM, PHONE, PHONE_VIEWPORT, WindowHarness } from '../support/window-harness.js';

let w: WindowHarness;

/** WCAG 2.5.5's target size, and Apple's and Google's guidance for touch (44 CSS px). */
const TARGET_PX = 44;

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

/** How far the page is wider than the phone (0 when it is not), and the elements that stick out past its right edge. */
function overflow(page: Page): Promise<{ by: number; outside: string[] }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const outside: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= root.clientWidth + 0.5) continue;
      // Inside a box that scrolls sideways (the tab strip) is in reach by a swipe, not off the page.
      let scroller = el.parentElement;
      while (scroller && !['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement;
      if (scroller && scroller !== document.body && scroller.getBoundingClientRect().right <= root.clientWidth + 0.5) continue;
      outside.push(`${el.tagName.toLowerCase()}.${el.className} (right ${Math.round(r.right)})`);
    }
    return { by: Math.max(0, root.scrollWidth - root.clientWidth, document.body.scrollWidth - document.body.clientWidth), outside: outside.slice(0, 5) };
  });
}

/** The buttons and tabs shown that are smaller than a fingertip's target, with their size. */
function smallTargets(page: Page, px: number): Promise<string[]> {
  return page.evaluate((min) => {
    const small: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('button, [role="tab"], [role="button"], input:not([type="hidden"]), select'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.width < min - 0.5 || r.height < min - 0.5) small.push(`${el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName}: ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
    return small;
  }, px);
}

describe.skipIf(!existsSync(CHROMIUM) && !process.env['CI'])('the window on a phone in Chromium', () => {
  beforeAll(async () => {
    await buildRenderer();
    w = new WindowHarness('window-phone', PHONE_VIEWPORT, {}, PHONE);
    w.h.init('asker', 'direct');
    w.h.init('quiet', 'direct');
    await w.start();
  }, 90_000);
  afterAll(async () => {
    await w?.stop();
  });

  it('shows the list as a screen of its own, no wider than the phone, every target 44 px', async () => {
    const { page } = w;
    const list = page.getByRole('listbox', { name: 'Sessions' });
    await list.getByRole('option', { name: /asker/ }).waitFor({ timeout: 25_000 });
    await expect.poll(() => list.getByRole('option', { name: /asker/ }).innerText(), { timeout: 25_000 }).toMatch(/waiting/);
    expect(await page.getByRole('button', { name: 'Back to sessions' }).isVisible()).toBe(false);
    expect(await page.getByRole('tablist', { name: 'Session views' }).isVisible()).toBe(false);
    expect(await overflow(page)).toEqual({ by: 0, outside: [] });
    expect(await smallTargets(page, TARGET_PX)).toEqual([]);
    await w.shot('phone-list');
    expect(await axeAudit(page, 'phone-list')).toEqual([]);
  });

  it('opens a session on a tap, with Verify and Stop in its header and the terminal fitted to the width', async () => {
    const { page } = w;
    await page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /asker/ }).tap();
    await page.getByRole('heading', { name: 'asker' }).waitFor({ timeout: 10_000 });
    expect(await page.getByRole('listbox', { name: 'Sessions' }).isVisible()).toBe(false);
    await page.getByRole('region', { name: 'Terminal' }).getByText('? for shortcuts').filter({ visible: true }).last().waitFor({ timeout: 25_000 });
    const header = await page.locator('.session-header').boundingBox();
    for (const name of ['Back to sessions', 'Verify', 'Stop…', 'More actions']) {
      const box = await page.getByRole('button', { name, exact: true }).boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.y + box!.height, `${name} in the header`).toBeLessThanOrEqual(header!.y + header!.height);
    }
    const screen = await page.locator('.terminal-host:not([hidden]) .xterm-screen').boundingBox();
    expect(screen!.width).toBeGreaterThan(PHONE_VIEWPORT.width * 0.8);
    expect(screen!.x + screen!.width).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
    expect(await overflow(page)).toEqual({ by: 0, outside: [] });
    expect(await smallTargets(page, TARGET_PX)).toEqual([]);
    await w.shot('phone-session');
    expect(await axeAudit(page, 'phone-session', { within: '.session-header, .tabs, .terminal-bar' })).toEqual([]);

    // Larger text, still fitted to the width (fewer columns, the agent told the new size); then back.
    const shownTerminal = page.locator('.terminal-host:not([hidden])');
    const fontPx = (): Promise<string> => shownTerminal.locator('.xterm-rows').evaluate((e) => getComputedStyle(e).fontSize);
    const before = await fontPx();
    await page.getByRole('button', { name: 'Larger terminal text' }).tap();
    await page.getByRole('button', { name: 'Larger terminal text' }).tap();
    await expect.poll(fontPx).toBe(`${parseInt(before) + 2}px`);
    await expect.poll(async () => (await shownTerminal.locator('.xterm-screen').boundingBox())!.width).toBeLessThanOrEqual(PHONE_VIEWPORT.width - screen!.x);
    expect(await overflow(page)).toEqual({ by: 0, outside: [] });
    await page.getByRole('button', { name: 'Smaller terminal text' }).tap();
    await page.getByRole('button', { name: 'Smaller terminal text' }).tap();
    await expect.poll(fontPx).toBe(before);
  });

  it("puts the agent's question at the bottom of the screen, answered by a tap on a choice or the reply box", async () => {
    const { page } = w;
    await send('asker', 'ask');
    const advice = page.getByRole('region', { name: 'What needs you' });
    await advice.getByRole('button', { name: '1. Yes' }).waitFor({ timeout: 25_000 });
    const box = await advice.boundingBox();
    expect(box!.y + box!.height).toBeGreaterThan(PHONE_VIEWPORT.height - 2);
    expect(box!.y).toBeGreaterThan(PHONE_VIEWPORT.height / 2);
    expect(await overflow(page)).toEqual({ by: 0, outside: [] });
    expect(await smallTargets(page, TARGET_PX)).toEqual([]);
    await w.shot('phone-needs-input');
    expect(await axeAudit(page, 'phone-needs-input', { within: '.advice' })).toEqual([]);
    const before = inputs().length;
    await advice.getByRole('button', { name: '1. Yes' }).tap();
    await until('the answer to reach the agent', () => inputs().length > before);
    expect(inputs().slice(before)).toEqual(['1']);
    await advice.waitFor({ state: 'detached', timeout: 25_000 });

    await expect.poll(() => page.locator('.session-header .badge').innerText(), { timeout: 25_000 }).toMatch(/waiting/);
    await send('asker', 'ask');
    await advice.getByRole('textbox', { name: 'Reply to the agent' }).tap();
    await page.keyboard.type('y');
    await advice.getByRole('button', { name: 'Send' }).tap();
    await until('the reply to reach the agent', () => inputs().at(-1) === 'y');
    await advice.waitFor({ state: 'detached', timeout: 25_000 });
  });

  it('goes back to the list with the back action, the session still selected there; arrow keys move the selection without leaving it', async () => {
    const { page } = w;
    await page.getByRole('button', { name: 'Back to sessions' }).tap();
    const list = page.getByRole('listbox', { name: 'Sessions' });
    await list.waitFor({ state: 'visible' });
    expect(await list.getByRole('option', { name: /asker/ }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('heading', { name: 'asker' }).isVisible()).toBe(false);
    // The list with the asks' notices under it: still no wider than the phone, every target 44 px.
    await page.getByRole('button', { name: /^Dismiss: asker needs input/ }).first().waitFor();
    expect(await overflow(page)).toEqual({ by: 0, outside: [] });
    expect(await smallTargets(page, TARGET_PX)).toEqual([]);
    await w.shot('phone-list-notices');
    // A keyboard's arrows move the selection and stay on the list; a tap opens the session.
    await list.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => list.getByRole('option', { name: /quiet/ }).getAttribute('aria-selected')).toBe('true');
    expect(await list.isVisible()).toBe(true);
    await list.getByRole('option', { name: /quiet/ }).tap();
    await page.getByRole('heading', { name: 'quiet' }).waitFor();

    // Stop… asks in a dialog that fits the phone, its buttons as large as the rest.
    await page.getByRole('button', { name: 'Stop…', exact: true }).tap();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await overflow(page)).toEqual({ by: 0, outside: [] });
    expect(await smallTargets(page, TARGET_PX)).toEqual([]);
    await w.shot('phone-stop-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).tap();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Back to sessions' }).tap();
    await list.waitFor({ state: 'visible' });
  });

  it('links a web app manifest, served as one with its icons, that Chromium finds installable', async () => {
    const { page } = w;
    const origin = new URL(w.url).origin;
    const manifest = await page.request.get(`${origin}/manifest.webmanifest`);
    expect(manifest.headers()['content-type']).toBe('application/manifest+json');
    expect(manifest.headers()['content-security-policy']).toContain("default-src 'self'");
    const parsed = (await manifest.json()) as { name: string; display: string; icons: { src: string; sizes: string; type: string }[] };
    expect(parsed).toMatchObject({ name: 'Mori', display: 'standalone' });
    for (const icon of parsed.icons) {
      const r = await page.request.get(`${origin}/${icon.src}`);
      expect(r.status(), icon.src).toBe(200);
      expect(r.headers()['content-type']).toBe(icon.type);
      if (icon.type !== 'image/png') continue;
      // A PNG's width and height are its IHDR's first two 32-bit words, at bytes 16 and 20.
      const body = await r.body();
      expect(`${body.readUInt32BE(16)}x${body.readUInt32BE(20)}`).toBe(icon.sizes);
    }
    const cdp = await page.context().newCDPSession(page);
    const app = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    expect(app.url).toBe(`${origin}/manifest.webmanifest`);
    expect(app.errors).toEqual([]);
    const installable = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    // A test's browser context is an incognito one (playwright-core's newContext): that alone is the browser's, not the page's.
    expect(installable.installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
  });
});
