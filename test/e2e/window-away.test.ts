// "While you were away" in Debian's Chromium through a real `mori ui` and daemon with the fake agent
// behind the claude profile: a night written as Mori writes it (session "api" crash-looping into
// attention; "web" losing the network and resumed by id with a check gone red, reaching its usage
// limit and resumed fresh with the check back, three real checkpoints of its git project) and the
// window's last look before it. On opening, the report shows by itself: what needs the person first,
// each item in order with its outcome, the agent's text with its escapes shown; the Changes button
// opens the session's Changes; the palette brings it back; "Got it" moves the window's mark, and a
// reload does not show it again; a real crash loop the daemon lives through (the fake agent crashing)
// opens it on the next opening after a look before it. No serious axe violation in either theme.
// Screenshots at 1440×900, 1280×720 and 390×844, light and dark, go to out/e2e-screenshots/away-*.png.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineCheckpointPorts } from '../../main/cli/offline-session-write.js';
import { updateSessionFile } from '../../main/state/session-file.js';
import { appendEntry } from '../../main/state/work-log.js';
import { writeCheckpoint } from '../../main/supervisor/checkpoints/checkpoint.js';
import { until, untilValue } from '../../testkit/until.js';
import { axeAudit } from '../support/axe-audit.js';
import { call, client } from '../support/daemon.js';
import { at, NIGHT, NIGHT_CHECKPOINTS } from '../support/fixtures/away-night.js';
import { buildRenderer, CHROMIUM, WindowHarness } from '../support/window-harness.js';

let w: WindowHarness;
/** The night began 10 hours ago, so it ended an hour ago. */
const base = new Date(Date.now() - 10 * 3_600_000);

async function send(session: string, text: string): Promise<void> {
  const { c } = await client(w.h.home);
  try {
    await call(c, 'send', { session, text, enter: true });
  } finally {
    c.close();
  }
}

const windowMark = (): number => (JSON.parse(readFileSync(path.join(w.h.home, 'last-looked.json'), 'utf8')) as Record<string, number>)['window'] ?? 0;

// Each step waits on a page reading the daemon's report (git per session): more than the 30 s default on a loaded runner.
describe.skipIf(!existsSync(CHROMIUM) && !process.env['CI'])('while you were away, in the window', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    await buildRenderer();
    w = new WindowHarness('window-away');
    w.h.env['FAKE_AGENT_NO_HOOKS'] = '1';
    for (const name of ['api', 'web'] as const) {
      w.h.init(name, 'direct');
      const stateDir = w.h.stateDir(name);
      for (const e of NIGHT[name]) appendEntry(stateDir, e.lines, at(e.minutes, base));
    }
    expect(updateSessionFile(w.h.stateDir('api'), (s) => ({ ...s, intent: { kind: 'attention', reason: 'crash-loop' } })).ok).toBe(true);
    const web = w.h.stateDir('web');
    writeFileSync(path.join(web, 'session_state.md'), '## Current Task\n- Parser for the config language\n## Next Steps\n1. Error messages with positions\n');
    for (const [i, m] of NIGHT_CHECKPOINTS.entries()) {
      writeFileSync(path.join(w.h.project, `step${i}.ts`), `export const step = ${i};\n`);
      const r = await writeCheckpoint(web, w.h.project, offlineCheckpointPorts(), at(m, base), { reason: 'periodic' });
      expect(r.ok && r.value.changed).toBe(true);
    }
    // Two crashes make a crash loop here (five by default): read when the daemon starts.
    writeFileSync(path.join(w.h.home, 'settings.json'), JSON.stringify({ restart: { crashLoopCount: 2 } }));
    // The person last looked at the window half an hour before the night began.
    writeFileSync(path.join(w.h.home, 'last-looked.json'), JSON.stringify({ window: base.getTime() - 30 * 60_000 }));
    await w.start();
  }, 180_000);
  afterAll(() => w.stop());

  it('opens by itself with what needs the person first and each event of the night in order, with its outcome', async () => {
    const { page } = w;
    const dialog = page.getByRole('dialog', { name: 'While you were away' });
    await dialog.waitFor({ timeout: 60_000 });
    const first = dialog.getByRole('region', { name: 'Needs you now' });
    expect(await first.getByRole('listitem').allInnerTexts()).toEqual(['api: needs attention (crash-loop): crash-loop: 3 crashes within 10 min of awake time; not restarted']);
    const headings = await dialog.getByRole('heading', { level: 3 }).allInnerTexts();
    expect(headings.slice(0, 3)).toEqual(['Needs you now', 'api (claude)', 'web (claude)']);
    const api = await dialog.getByRole('list', { name: 'What happened in api (claude)' }).getByRole('listitem').allInnerTexts();
    expect(api[0]).toMatch(/^\D{0,4}\d\d:\d\d–\D{0,4}\d\d:\d\d crash loop \(3 crashes\) → still in attention: crash-loop/);
    const web = dialog.getByRole('region', { name: 'web (claude)' });
    const items = await web.getByRole('list', { name: 'What happened in web (claude)' }).getByRole('listitem').allInnerTexts();
    const order = ['checkpoint #1', 'network lost → resumed by id', 'went red: npm test', 'checkpoint #2', 'reached its usage limit → resumed fresh', 'came back: npm test', 'checkpoint #3'];
    expect(items.slice(0, order.length).map((t, i) => t.includes(order[i] ?? '?')), items.join('\n')).toEqual(order.map(() => true));
    const text = await web.innerText();
    expect(text).toContain('checks before: checks 2/2 passed · now: checks 2/2 passed');
    expect(text).toMatch(/Files changed since checkpoint #1: .*step1\.ts \(\w+\), step2\.ts/);
    expect(text).toContain('Task now: Parser for the config language');
    expect(text).toContain('Next steps: Error messages with positions');
    // The agent's own line, its escape sequence shown as text, never sent to the page as one.
    expect(text).toContain('Parser: tokens for strings \\e[31mdone\\e[0m');
    expect(text).not.toContain('\u001b');

    expect(await axeAudit(page, 'away', { within: 'dialog' })).toEqual([]);
    await w.shot('away');
    await page.setViewportSize({ width: 1280, height: 720 });
    await w.shot('away-1280');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it("opens a session's Changes, comes back from the palette, and once acknowledged is not shown again", async () => {
    const { page } = w;
    const dialog = page.getByRole('dialog', { name: 'While you were away' });
    await dialog.getByRole('button', { name: 'Open the Changes of web (claude)' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => page.getByRole('tab', { name: 'Changes' }).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { selected: true }).locator('.session-name').innerText()).toBe('web');
    // Closed without "Got it": the mark has not moved.
    const before = windowMark();
    expect(before).toBe(base.getTime() - 30 * 60_000);

    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox', { name: 'Go to a session or run an action' }).fill('away');
    await palette.getByRole('option', { name: 'While you were away' }).click();
    await dialog.getByRole('list', { name: 'What happened in web (claude)' }).waitFor();
    await dialog.getByRole('button', { name: 'Got it' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const looked = windowMark();
    expect(Date.now() - looked).toBeLessThan(60_000);

    // A reload reads the report since that look: nothing new, so the look is recorded again and nothing opens.
    await page.reload();
    await untilValue('the reloaded window recording its look', () => Promise.resolve(windowMark()), (m) => m > looked, 60_000);
    await page.getByRole('tab', { name: 'Changes' }).waitFor();
    expect(await dialog.count()).toBe(0);
  });

  it("a crash loop the daemon lived through while nobody looked opens the report on the window's next opening", async () => {
    const { page } = w;
    // web's agent (the fake one behind claude) crashes twice: the daemon restarts it once, then stops at the loop.
    for (const i of [1, 2]) {
      await until(`start ${i} of web's agent`, () => w.h.starts().length >= i, () => w.h.workLog('web'));
      await expect.poll(() => page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /web/ }).innerText(), { timeout: 25_000 }).toMatch(/waiting/);
      await send('web', 'crash');
    }
    await until('the crash loop in the work log', () => w.h.workLog('web').includes('SESSION NEEDS ATTENTION - crash-loop'), () => w.h.workLog('web'));
    // The person had last looked half an hour ago (after the night, before the crashes).
    writeFileSync(path.join(w.h.home, 'last-looked.json'), JSON.stringify({ window: Date.now() - 30 * 60_000 }));
    await page.reload();
    const dialog = page.getByRole('dialog', { name: 'While you were away' });
    await dialog.waitFor({ timeout: 60_000 });
    expect(await dialog.getByRole('region', { name: 'Needs you now' }).getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringMatching(/^api: needs attention \(crash-loop\)/),
      expect.stringMatching(/^web: needs attention \(crash-loop\)/),
    ]);
    const items = await dialog.getByRole('list', { name: 'What happened in web (claude)' }).getByRole('listitem').allInnerTexts();
    expect(items, w.h.workLog('web')).toEqual([expect.stringMatching(/crash loop \(2 crashes\) → still in attention: crash-loop/)]);
    // Nothing of the night before the look.
    expect(await dialog.getByRole('list', { name: 'What happened in api (claude)' }).count()).toBe(0);
    // On a phone's screen it fits the width, its actions in reach.
    await page.setViewportSize({ width: 390, height: 844 });
    // The dialog itself (the window behind it is the phone layout's to fit).
    const box = await dialog.evaluate((d) => ({ left: d.getBoundingClientRect().left, right: d.getBoundingClientRect().right, inner: d.scrollWidth - d.clientWidth }));
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(390);
    expect(box.inner).toBe(0);
    await dialog.getByRole('button', { name: 'Got it' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Got it' }).isVisible()).toBe(true);
    await w.shot('away-phone');
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});
