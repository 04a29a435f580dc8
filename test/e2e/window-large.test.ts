// Large inputs in the window, in Debian's Chromium through a real `mori ui` and daemon: a 5 MB
// session_state.md opens in the editor, takes typing without lag (input delay, key press to the
// next painted frame, printed; its 50 ms budget is bench/window-large.bench.ts's), marks its tab
// unsaved, and a save larger than one request may carry is refused in words with nothing written; a
// work log of 10,000 entries pages in the view ("Older entries") and through `log.tail` on the
// daemon's socket, each page a contiguous run of entries, all of them reached; a request the daemon
// does not answer (the daemon stopped with SIGSTOP) ends, after the protocol's time limit, in an
// error where it was asked and a notice in the window's list. Figures are printed.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WINDOW_REQUEST_TIMEOUT_ENV } from '../../common/web-session.js';
import { ControlClient } from '../../main/daemon-client/control-client.js';
import { buildRenderer, CHROMIUM, WindowHarness } from '../support/window-harness.js';
import { existsSync } from 'node:fs';

/** The page's request time limit in this file (10 s instead of 30: the last test waits it out). */
const PAGE_REQUEST_TIMEOUT_MS = 10_000;

let w: WindowHarness;
/** The size the brief names: a state file an agent let grow far past what anyone reads. */
const BIG_BYTES = 5 * 1024 * 1024;
const LOG_ENTRIES = 10_000;
/**
 * Median input delay that fails the test: an editor that re-reads the whole 5 MB document per key
 * costs hundreds of ms on every key, so the median shows it. The median, not the 95th percentile:
 * on a runner busy with other test files a few keys land behind another process's burst (CI saw a
 * p95 of 162 ms once while its p95 is ~27 ms alone). The 50 ms p95 budget (below what a person
 * perceives as lag) is checked by bench/window-large.bench.ts, run alone.
 */
const MEDIAN_REGRESSION_MS = 150;

/** A markdown session_state.md of about `bytes`: the usual headings, then many sections of notes. */
function bigState(bytes: number): string {
  const parts = ['# session_state.md\n\n## Current Task\nKeep the big file editable.\n\n## Next Steps\n- type at the end\n\n## Notes\n'];
  let size = parts[0]?.length ?? 0;
  for (let i = 0; size < bytes; i++) {
    const block = `\n### Note ${i}\n- a line of notes about step ${i}, with \`code\`, **bold** and a [link](https://example.com/${i})\n- another line that wraps in a narrow editor because it goes on for a while and says little\n`;
    parts.push(block);
    size += block.length;
  }
  return parts.join('') + '\nTHE END\n';
}

function workLog(entries: number): string {
  const out = ['# work_log.md\n'];
  for (let i = 1; i <= entries; i++) out.push(`\n## 2026-01-01 00:00\n- entry ${i} of the big log\n`);
  return out.join('');
}

const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};

describe.skipIf(!existsSync(CHROMIUM) && !process.env['CI'])('the window with large inputs', () => {
  beforeAll(async () => {
    await buildRenderer();
    w = new WindowHarness('window-large');
    // The page's request time limit, shortened: the last test waits it out. Long enough for a 5 MB
    // state file's read and write on a loaded runner.
    w.h.env[WINDOW_REQUEST_TIMEOUT_ENV] = String(PAGE_REQUEST_TIMEOUT_MS);
    w.h.init('big', 'direct');
    writeFileSync(path.join(w.h.stateDir('big'), 'session_state.md'), bigState(BIG_BYTES));
    writeFileSync(path.join(w.h.stateDir('big'), 'work_log.md'), workLog(LOG_ENTRIES));
    await w.start();
    w.page.setDefaultTimeout(20_000);
    await w.page.getByRole('option', { name: /big/ }).waitFor();
  }, 90_000);
  afterAll(async () => {
    const pid = w?.daemonPid();
    if (pid) process.kill(pid, 'SIGCONT');
    await w?.stop();
  }, 120_000);

  it('opens a 5 MB session_state.md and types into it without lag; a save too large for a request is refused in words', async () => {
    const { page } = w;
    await page.getByRole('option', { name: /big/ }).click();
    const opened = Date.now();
    await page.getByRole('tab', { name: 'session_state.md' }).click();
    const editor = page.getByRole('textbox', { name: 'session_state.md text' });
    await editor.getByText('Keep the big file editable.').waitFor({ timeout: 30_000 });
    const openMs = Date.now() - opened;
    await editor.click();
    await page.keyboard.press('Control+End');
    await editor.getByText('THE END').waitFor();
    // Input delay: from each key press (its event time) to the first frame painted after it.
    await page.evaluate(() => {
      const lat: number[] = [];
      (window as unknown as { inputDelays: number[] }).inputDelays = lat;
      window.addEventListener(
        'keydown',
        (e) => {
          const t0 = e.timeStamp;
          requestAnimationFrame(() => setTimeout(() => lat.push(performance.now() - t0), 0));
        },
        true,
      );
    });
    const typed = 'typed at the end of a very large file, one key at a time, as a person does';
    // 30 ms between keys: a fast typist (about 400 characters a minute).
    await page.keyboard.type(typed, { delay: 30 });
    await page.waitForTimeout(200);
    const delays = await page.evaluate(() => (window as unknown as { inputDelays: number[] }).inputDelays);
    const p50 = percentile(delays, 50);
    process.stdout.write(`5 MB session_state.md: opened in ${openMs} ms; input delay over ${delays.length} keys: p50 ${p50.toFixed(1)} ms, p95 ${percentile(delays, 95).toFixed(1)} ms, max ${Math.max(...delays).toFixed(1)} ms\n`);
    expect(delays.length).toBe(typed.length);
    expect(p50).toBeLessThanOrEqual(MEDIAN_REGRESSION_MS);
    await page.getByRole('tab', { name: /session_state\.md.*unsaved/ }).waitFor();
    // One request carries at most IPC_MAX_TEXT_CHARS: the save is refused in words, the file left as it was, the edit still unsaved.
    const file = path.join(w.h.stateDir('big'), 'session_state.md');
    const before = readFileSync(file, 'utf8');
    await page.keyboard.press('Control+s');
    await page.getByRole('status').filter({ hasText: /^Not saved: session_state\.md would be [\d,]+ characters; the window saves at most 500,000/ }).waitFor();
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(await page.getByRole('tab', { name: /session_state\.md.*unsaved/ }).count()).toBe(1);
    await w.shot('large-editor');
  }, 120_000);

  it('pages a work log of 10,000 entries in the view and through log.tail', async () => {
    const { page } = w;
    await page.getByRole('tab', { name: 'work_log.md' }).click();
    const list = page.getByRole('list', { name: 'Work log entries' });
    await list.getByText(`entry ${LOG_ENTRIES} of the big log`).waitFor();
    const first = await list.getByRole('listitem').count();
    expect(first).toBeGreaterThanOrEqual(50);
    const older = page.getByRole('button', { name: 'Older entries' });
    for (let i = 1; i <= 3; i++) {
      await older.click();
      await expect.poll(() => list.getByRole('listitem').count()).toBe(first + 50 * i);
    }
    // The seeded entries shown run without a gap from the newest back (the daemon appended a few of its own).
    const nums = (await list.getByRole('listitem').allTextContents()).flatMap((t) => /entry (\d+) of the big log/.exec(t)?.[1] ?? []).map(Number);
    expect(Math.max(...nums)).toBe(LOG_ENTRIES);
    expect(new Set(nums).size).toBe(nums.length);
    expect(nums.length).toBe(LOG_ENTRIES - Math.min(...nums) + 1);
    expect(nums.length).toBeGreaterThan(150);
    await w.shot('large-work-log');

    // The API: from the newest page back to the first entry, each page contiguous.
    const c = await ControlClient.connect(w.h.home, { client: 'window-large test' });
    if (!c.ok) throw new Error(c.message);
    const seen = new Set<number>();
    let before: number | undefined;
    let pages = 0;
    let slowest = 0;
    let total = 0;
    for (;;) {
      const t0 = performance.now();
      const r = await c.value.request('log.tail', { session: 'big', limit: 200, ...(before !== undefined ? { before } : {}) });
      slowest = Math.max(slowest, performance.now() - t0);
      if (!r.ok) throw new Error(r.message);
      const idx = r.value.entries.map((e) => e.index);
      idx.forEach((n, i) => expect(i === 0 || n === (idx[i - 1] ?? -2) + 1, `page ${pages} contiguous`).toBe(true));
      for (const n of idx) seen.add(n);
      total = r.value.total;
      pages++;
      if (!r.value.more) break;
      before = idx[0];
    }
    c.value.close();
    process.stdout.write(`work log of ${total} entries: ${pages} pages of 200 through log.tail, the slowest ${slowest.toFixed(1)} ms\n`);
    expect(total).toBeGreaterThanOrEqual(LOG_ENTRIES);
    expect(seen.size).toBe(total);
  }, 120_000);

  it('a request the daemon does not answer ends in an error and a notice', async () => {
    const { page } = w;
    const pid = w.daemonPid();
    expect(pid).not.toBeNull();
    process.kill(pid as number, 'SIGSTOP');
    try {
      await page.getByRole('tab', { name: 'environment.md' }).click();
      const notices = page.getByRole('region', { name: 'Notifications' });
      const notice = notices.getByRole('listitem').filter({ hasText: 'No answer from the Mori daemon' });
      await notice.waitFor({ timeout: PAGE_REQUEST_TIMEOUT_MS + 15_000 });
      expect(await notice.textContent()).toMatch(/state\.read: no answer from the Mori supervisor within 10 s/);
      await page.getByRole('status').filter({ hasText: 'Cannot read environment.md: state.read: no answer' }).waitFor();
      await w.shot('request-timeout');
    } finally {
      process.kill(pid as number, 'SIGCONT');
    }
  }, PAGE_REQUEST_TIMEOUT_MS + 60_000);
});
