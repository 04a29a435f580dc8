// The agent's permission mode in the session header, in Debian's Chromium through a real `mori ui`
// and daemon with the fake agent standing in for Claude Code: the mode its transcript records
// (`{"type":"permission-mode",…}`, as claude writes it) shows beside the profile, "auto mode" for
// claude's `auto` and "bypass mode" for `bypassPermissions`. axe finds no serious or critical violation in the header in either theme. Screenshots,
// light and dark at 1440×900 and 1280×720, go to out/e2e-screenshots/.
import { AxeBuilder } from '@axe-core/playwright';
import { existsSync, mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer, CHROMIUM, WindowHarness } from '../support/window-harness.js';

/** The smaller laptop screen the header must still fit. */
const SMALL = { width: 1280, height: 720 };

async function axeClean(w: WindowHarness, selector: string): Promise<void> {
  const { page } = w;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const axe = await new AxeBuilder({ page }).include(selector).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${scheme}: ${v.id}`)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** A window (not started) whose one session `name` runs a fake claude that records `mode`. */
function windowWith(prefix: string, viewport: { width: number; height: number } | undefined, name: string, mode: string): WindowHarness {
  const w = viewport ? new WindowHarness(prefix, viewport) : new WindowHarness(prefix);
  mkdirSync(w.h.home, { recursive: true, mode: 0o700 }); // private, as the daemon wants it
  const r = w.h.mori('init', w.h.project, '--name', name, '--agent', 'claude', '--backend', 'direct', '--task', 'tidy the build');
  if (r.code !== 0) throw new Error(`mori init failed: ${r.stderr}`);
  w.h.env['FAKE_AGENT_PERMISSION_MODE'] = mode;
  return w;
}

describe.skipIf(!existsSync(CHROMIUM) && !process.env['CI'])("the agent's permission mode in the header", () => {
  let w: WindowHarness;
  beforeAll(async () => {
    await buildRenderer();
  }, 120_000);
  afterAll(async () => {
    await w?.stop();
  });

  it("shows the mode the agent's record says, in Mori's words", async () => {
    // One fake claude per daemon: its environment says the mode, so each mode gets a window of its own.
    w = windowWith('window-mode', undefined, 'automatic', 'auto');
    await w.start();
    const { page } = w;
    await page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /automatic/ }).click();
    await page.getByRole('heading', { level: 1, name: 'automatic' }).waitFor({ timeout: 25_000 });
    const header = page.locator('header.session-header');
    await header.getByText('(auto mode)').waitFor({ timeout: 25_000 });
    await w.shot('header-permission-mode-auto');
    await axeClean(w, 'header.session-header');
    await w.stop();

    w = windowWith('window-mode-bypass', SMALL, 'bypassing', 'bypassPermissions');
    await w.start();
    await w.page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /bypassing/ }).click();
    await w.page.getByRole('heading', { level: 1, name: 'bypassing' }).waitFor({ timeout: 25_000 });
    await w.page.locator('header.session-header').getByText('(bypass mode)').waitFor({ timeout: 25_000 });
    await w.shot('header-permission-mode-bypass-1280');
    await axeClean(w, 'header.session-header');
  }, 180_000);
});
