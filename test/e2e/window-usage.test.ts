// The session's usage in the window, in Debian's Chromium through a real `mori ui` and daemon with the
// fake agent behind the claude profile, whose transcript gets the real Claude Code record of the
// fixture (stamped today, yesterday and three days ago): the header's context meter says the last
// request's context against the model's window (role meter, its value in words), the Usage tab today's
// and all tokens, the cost with the price table's version and a row and a bar per day; past the share
// the settings set, the meter's badge says so and one announcement names the crossing. Both views
// have no serious or critical axe violation; the settings' Usage field says its default, and Keep awake is turned on and saved. Screenshots at 1440×900 and 1280×720, light and dark, go
// to out/e2e-screenshots/.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DaemonSettings } from '../../common/daemon-settings.js';
import { claudeTranscriptPath } from '../../main/agents/claude/transcript.js';
import { REPO } from '../../testkit/mori-cli.js';
import { untilValue } from '../../testkit/until.js';
import { axeAudit } from '../support/axe-audit.js';
import { call, client } from '../support/daemon.js';
import { buildRenderer, CHROMIUM, WindowHarness } from '../support/window-harness.js';

const FIXTURE = path.join(REPO, 'test', 'support', 'fixtures', 'usage', 'claude', 'projects', '-fixture-project', '0f5e3a52-5c1e-4b8e-9a43-6c1f2d7b9e10.jsonl');
const DAY_MS = 24 * 60 * 60 * 1000;

let w: WindowHarness;

/** The fixture's lines stamped `daysAgo` days before now, their ids suffixed by `tag` (each copy its own requests). */
function fixtureLines(tag: string, daysAgo: number): string {
  const at = new Date(Date.now() - daysAgo * DAY_MS).toISOString();
  return readFileSync(FIXTURE, 'utf8')
    .replace(/"timestamp":"[^"]+"/g, `"timestamp":"${at}"`)
    .replace(/msg_standin_(\d)/g, `msg_standin_$1${tag}`);
}

/** The day `daysAgo` days before now as the daemon counts it (this machine's zone). */
const dayOf = (daysAgo: number): string => new Date(Date.now() - daysAgo * DAY_MS).toLocaleDateString('sv');

async function setWarnPercent(contextWarnPercent: number): Promise<void> {
  const { c } = await client(w.h.home);
  try {
    const now = DaemonSettings.parse(await call(c, 'settings.get', {}));
    await call(c, 'settings.set', { settings: { ...now, usage: { contextWarnPercent } } });
  } finally {
    c.close();
  }
}

// Each test waits on a page that reads the daemon's usage readers: a loaded runner needs more than the 30 s default.
describe.skipIf(!existsSync(CHROMIUM) && !process.env['CI'])('usage in the window', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    await buildRenderer();
    w = new WindowHarness('window-usage');
    w.h.env['FAKE_AGENT_NO_HOOKS'] = '1';
    w.h.init('metered', 'direct');
    await w.start();
    const stateDir = w.h.stateDir('metered');
    const agent = await untilValue(
      'the agent session id recorded',
      () => Promise.resolve((JSON.parse(readFileSync(path.join(stateDir, 'session.json'), 'utf8')) as { agent: { sessionId: string | null; cwd: string | null } }).agent),
      (a) => a.sessionId !== null,
      60_000,
    );
    const transcript = claudeTranscriptPath({ CLAUDE_CONFIG_DIR: w.h.env['CLAUDE_CONFIG_DIR'] }, agent.cwd ?? w.h.project, agent.sessionId as string);
    mkdirSync(path.dirname(transcript), { recursive: true });
    appendFileSync(transcript, fixtureLines('c', 3) + fixtureLines('b', 1) + fixtureLines('d', 1) + fixtureLines('a', 0));
    // The page was opened before the record was written: a reload reads it.
    await w.page.reload();
  }, 180_000);
  afterAll(async () => {
    await w?.stop();
  });

  it('shows the context meter in the header and the figures per day in the Usage tab', async () => {
    const { page } = w;
    await page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /metered/ }).click();
    const meter = page.getByRole('meter', { name: 'Context used' });
    await meter.waitFor({ timeout: 30_000 });
    // The fixture's last request: 12,354 tokens of Claude's 1M window.
    expect(await meter.getAttribute('aria-valuetext')).toBe('12.4k of 1M tokens (1 %)');
    expect(await meter.getAttribute('aria-valuenow')).toBe('1');
    expect(await page.locator('.context-meter').innerText()).not.toMatch(/over/);

    await page.getByRole('tab', { name: 'Usage' }).click();
    const pane = page.getByRole('region', { name: 'Usage' });
    await pane.waitFor();
    const figures = await pane.locator('.usage-figures').innerText();
    // Four copies of the fixture's two requests (24.6k tokens each), one today.
    expect(figures).toMatch(/Today\s+24\.6k tokens/);
    expect(figures).toMatch(/In all\s+98\.6k tokens in 8 requests/);
    expect(figures).toMatch(/Cost\s+\$\d+\.\d{4}\s+\(@pydantic\/genai-prices [\d.]+\)/);
    const table = pane.getByRole('table', { name: 'Tokens and cost per day' });
    const rows = await table.getByRole('row').allInnerTexts();
    expect(rows.slice(1).map((r) => r.split('\t').slice(0, 2))).toEqual([
      [dayOf(3), '24.6k'],
      [dayOf(1), '49.3k'],
      [dayOf(0), '24.6k'],
    ]);
    expect(await pane.locator('.usage-bar').count()).toBe(3);
    expect(await axeAudit(page, 'usage', { within: '.main' })).toEqual([]);
    await w.shot('usage-tab');
    await page.setViewportSize({ width: 1280, height: 720 });
    await w.shot('usage-tab-1280');
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 120_000);

  it('says once that the context passed the share the settings set, and shows a badge while it is past', async () => {
    const { page } = w;
    await setWarnPercent(1);
    const meterBox = page.locator('.context-meter');
    await meterBox.getByText('over 1 %').waitFor({ timeout: 30_000 });
    expect(await meterBox.getByRole('status').innerText()).toBe("metered's context passed 1 % of the model's window");
    await page.getByRole('tab', { name: 'Terminal' }).click();
    await w.shot('usage-meter-over');
    await page.setViewportSize({ width: 1280, height: 720 });
    await w.shot('usage-meter-over-1280');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.locator('.session-header').screenshot({ path: path.join(REPO, 'out', 'e2e-screenshots', 'usage-meter-header.png') });
    await setWarnPercent(80);
    await meterBox.getByText('over 1 %').waitFor({ state: 'detached', timeout: 30_000 });
  }, 120_000);

  it('has the share in the settings, saying its default', async () => {
    const { page } = w;
    await page.getByRole('button', { name: 'Settings' }).click();
    const usage = page.getByRole('group', { name: 'Usage' });
    const field = usage.getByRole('spinbutton', { name: 'Context share that warns (%)' });
    expect(await field.inputValue()).toBe('80');
    expect(await usage.innerText()).toMatch(/Default: 80 %/);
    await field.scrollIntoViewIfNeeded();
    await w.shot('usage-settings');
    // Keep awake beside it: off by default, turned on and saved into the daemon's settings.
    const awake = page.getByRole('group', { name: 'Keep awake' });
    const box = awake.getByRole('checkbox', { name: 'Keep the machine awake while agents work' });
    expect(await box.isChecked()).toBe(false);
    expect(await awake.getByRole('spinbutton', { name: 'Minutes after the last one stops' }).inputValue()).toBe('2');
    await box.check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('dialog', { name: 'Settings' }).waitFor({ state: 'detached' });
    const { c } = await client(w.h.home);
    try {
      expect(DaemonSettings.parse(await call(c, 'settings.get', {})).keepAwake).toEqual({ enabled: true, graceMinutes: 2 });
    } finally {
      c.close();
    }
  }, 60_000);
});
