// The daemon's usage book (main/daemon/usage-book.ts) on the real Claude Code fixture: a listing's
// wait for the reads leaves no timer behind once the read has won the race.
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionRecord } from '../../../common/session.js';
import { LISTING_WAIT_MS, UsageBook } from '../../../main/daemon/usage-book.js';

const FIXTURES = path.join(import.meta.dirname, '../..', 'support', 'fixtures', 'usage');
const CLAUDE_ID = '0f5e3a52-5c1e-4b8e-9a43-6c1f2d7b9e10';
const session = { id: 's1', name: 's1', projectDir: '/fixture/project', agent: { profile: 'claude', sessionId: CLAUDE_ID, cwd: '/fixture/project' } } as unknown as SessionRecord;

afterEach(() => void vi.useRealTimers());

describe('UsageBook', () => {
  it('clears a listing’s wait once the read is done: no timer per session is left pending', async () => {
    // Only the timers are faked: the record is read from disk for real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const book = new UsageBook({ CLAUDE_CONFIG_DIR: path.join(FIXTURES, 'claude') }, 'UTC');
    for (let listing = 0; listing < 3; listing++) {
      const u = await book.read(session, LISTING_WAIT_MS);
      expect(u).toMatchObject({ problem: null, partial: false, total: { requests: 2 } });
      expect(vi.getTimerCount()).toBe(0);
    }
  });
});
