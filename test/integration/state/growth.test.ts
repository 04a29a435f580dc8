// session_state.md growing past the size the person set (state-growth-watch.ts) under a real
// `mori up`: one SESSION NOTE naming the sections that grew most, recorded in session.json; no second
// one while it stays big; back under the size and past it again, one more.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { UpHarness } from '../../support/mori-up.js';
import { until } from '../../../testkit/until.js';

let h: UpHarness | null = null;
afterEach(() => {
  h?.cleanup();
  h = null;
});

/** The smallest size settings.json takes, so the test writes kilobytes, not megabytes. */
const LIMIT = 1024;

const state = (contextLines: number): string =>
  `# Session State\n\n## Current Task\n- write the parser\n\n## Context\n${'- a note that belongs in the work log\n'.repeat(contextLines)}\n## Decisions\n${'- decided a thing\n'.repeat(10)}\n## Next Steps\n1. handle escaped quotes\n`;

it('one notice past the size, naming the sections that grew most; again only after it was back under', async () => {
  h = new UpHarness('state-growth');
  h.init('sg', 'direct');
  mkdirSync(h.home, { recursive: true });
  writeFileSync(path.join(h.home, 'settings.json'), JSON.stringify({ resume: { stateFileNoticeBytes: LIMIT } }));
  const u = h.up();
  // The control socket answers once the state dirs are watched (control-server.ts).
  await until('the daemon answering', () => existsSync(path.join(h!.home, 'mori.sock')) && u.lines().some((e) => e['type'] === 'session.started'), u.stderr);
  const file = path.join(h.stateDir('sg'), 'session_state.md');
  const notices = (): string[] => h!.workLog('sg').split('\n').filter((l) => l.includes('SESSION NOTE - session_state.md is'));
  const noticed = (): unknown => (JSON.parse(readFileSync(path.join(h!.stateDir('sg'), 'session.json'), 'utf8')) as { stateGrowthNotice: unknown }).stateGrowthNotice;

  writeFileSync(file, state(60));
  await until('the notice', () => notices().length === 1, u.stderr);
  expect(notices()[0]).toMatch(/session_state\.md is \d KiB, past the 1 KiB set \(settings\.json resume\.stateFileNoticeBytes\); grew most: Context \(2 KiB\), Decisions \(\d+ B\), Next Steps \(\d+ B\)/);
  await until('it recorded', () => noticed() !== null, u.stderr);

  // Bigger still, in several writes: no second notice.
  for (const n of [70, 80, 90]) {
    writeFileSync(file, state(n));
    await new Promise((r) => setTimeout(r, 400));
  }
  expect(notices()).toHaveLength(1);

  // Trimmed under the size: re-armed; past it again: one more.
  writeFileSync(file, state(2));
  await until('re-armed', () => noticed() === null, u.stderr);
  writeFileSync(file, state(60));
  await until('the second notice', () => notices().length === 2, u.stderr);
}, 90_000);
