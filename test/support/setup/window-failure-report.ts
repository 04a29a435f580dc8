// Test setup for the window's tests: when a test fails, each window still open (WindowHarness)
// is reported where a CI log shows it — the page's address, its accessibility tree (what a screen
// reader would find: which view, which banner, which dialog), the page's console errors and the
// tail of `mori ui`'s stderr — and a screenshot goes to out/e2e-failures/. A failure seen only on a
// loaded runner is then read from the log, not guessed at.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { beforeEach } from 'vitest';
import { REPO } from '../../../testkit/mori-cli.js';
import { openWindows } from '../window-harness.js';

const FAILURES = path.join(REPO, 'out', 'e2e-failures');
/** Each step of the report gets this long: a page that hangs must not hang the report too. */
const STEP_MS = 5_000;
/** Enough of the tree to name the view and its dialogs; a whole terminal's rows are not needed. */
const TREE_CHARS = 6_000;

function within<T>(p: Promise<T>, fallback: T): Promise<T> {
  return Promise.race([p.catch(() => fallback), new Promise<T>((r) => setTimeout(() => r(fallback), STEP_MS))]);
}

beforeEach((ctx) => {
  ctx.onTestFailed(async () => {
    const name = `${path.basename(ctx.task.file.name, '.test.ts')}-${ctx.task.name}`.replace(/[^\w.-]+/g, '-').slice(0, 120);
    for (const w of openWindows) {
      const page = w.page;
      if (!page || page.isClosed()) continue;
      mkdirSync(FAILURES, { recursive: true });
      const shot = path.join(FAILURES, `${name}.png`);
      const [tree, focused] = await Promise.all([
        within(page.locator('body').ariaSnapshot(), '(no tree: the page did not answer)'),
        within(page.evaluate(() => document.activeElement?.outerHTML.slice(0, 300) ?? '(none)'), '(unknown)'),
        within(page.screenshot({ path: shot }).then(() => undefined), undefined),
      ]);
      process.stderr.write(
        [
          `--- the window when "${ctx.task.name}" failed (screenshot: ${path.relative(REPO, shot)})`,
          `address: ${page.url()}`,
          `focused: ${focused}`,
          `console errors: ${w.consoleErrors.slice(-10).join('\n  ') || 'none'}`,
          `mori ui stderr (tail): ${w.uiErr.slice(-1_500) || 'none'}`,
          'accessibility tree:',
          tree.slice(0, TREE_CHARS),
          '---',
          '',
        ].join('\n'),
      );
    }
  });
});
