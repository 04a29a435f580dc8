// The window's axe check (DESIGN.md §13): the serious and critical violations @axe-core/playwright
// finds on the page as it is, in the light and the dark theme, each named by view, theme, rule and
// element; the lesser ones are only printed. Shared by the e2e files, each auditing the views it opens.
import { AxeBuilder } from '@axe-core/playwright';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { SHOTS } from './window-harness.js';

const SCHEMES = ['light', 'dark'] as const;

const frames = (page: Page): Promise<unknown> => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/**
 * Serious and critical axe violations, light and dark; with `shots`, a screenshot of each
 * (a11y-VIEW-THEME.png). `within` (a CSS selector) audits that part of the page only: axe over the
 * whole window (the terminals' rows above all) takes seconds per theme on a busy runner. The page is
 * left light.
 */
export async function axeAudit(page: Page, view: string, o: { shots?: boolean; within?: string } = {}): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    await frames(page);
    if (o.shots) await page.screenshot({ path: path.join(SHOTS, `a11y-${view}-${scheme}.png`) });
    // axe.run in the page itself: the default runs each frame apart and joins the results in a new
    // blank page, a second or more per theme on a busy runner; the window has no frames to reach.
    const builder = new AxeBuilder({ page }).setLegacyMode(true);
    if (o.within) {
      if ((await page.locator(o.within).count()) === 0) throw new Error(`axe: nothing on the page matches ${o.within} (${view})`);
      builder.include(o.within);
    }
    const result = await builder.analyze();
    for (const v of result.violations) {
      if (v.impact !== 'serious' && v.impact !== 'critical') {
        process.stdout.write(`axe, ${v.impact ?? 'no impact'}: ${view} (${scheme}): ${v.id} × ${v.nodes.length}\n`);
        continue;
      }
      for (const n of v.nodes) found.push(`${view} (${scheme}): ${v.id}: ${n.target.join(' ')}: ${n.failureSummary ?? ''}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}
