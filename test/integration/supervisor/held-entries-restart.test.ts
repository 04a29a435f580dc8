// A work-log entry a daemon held while its session's disk was full outlives that daemon: a real
// `mori up` on a project on a small full disk (a tmpfs; skipped with the reason where none can be
// mounted) sees its direct fake agent killed, holds the SESSION INTERRUPTED it cannot write and is
// SIGKILLed before it writes it; space comes back, and the next daemon writes that entry before the
// one SESSION RESUMED it answers, so no resume stands without its interruption.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitRepo } from '../../../testkit/mori-cli.js';
import { fill, mountSmallDisk, release, unmountSmallDisk, type Mounted } from '../../../testkit/small-disk.js';
import { until } from '../../../testkit/until.js';
import { checkInterruptions } from '../../../soak/invariants.js';
import { readStateProblem } from '../../../main/supervisor/session/state-problems.js';
import { DEADLINE_MS, hasEvent, UpHarness, type Up } from '../../support/mori-up.js';

/** Room for the project's repository and state dir, filled in a few milliseconds. */
const DISK_BYTES = 4 * 1024 * 1024;
/** The killed daemon's restart delay: it must still be waiting when it is killed. */
const FIRST_RESTART_MS = 600_000;

let h: UpHarness;
let disk: Mounted | { skipped: string };
beforeEach(() => {
  h = new UpHarness('held-entries');
  // The project dir itself is the small disk: mounted over the empty repository made for it.
  disk = mountSmallDisk(h.project, DISK_BYTES);
  if ('dir' in disk) gitRepo(h.project);
});
afterEach(() => {
  if ('dir' in disk) unmountSmallDisk(disk);
  h.cleanup();
});

const wait = (what: string, cond: () => boolean, u: Up): Promise<void> => until(what, cond, () => u.stderr(), DEADLINE_MS);

describe('a daemon killed while it holds entries its full disk refused', () => {
  it('leaves them to the next daemon, which writes them before its resume', async (ctx) => {
    if ('skipped' in disk) return ctx.skip(disk.skipped);
    const dir = disk.dir;
    h.init('full', 'direct');
    const id = (JSON.parse(readFileSync(`${h.stateDir('full')}/session.json`, 'utf8')) as { id: string }).id;
    const first = h.up([], { MORI_RESTART_BASE_MS: String(FIRST_RESTART_MS) });
    await wait('the agent to wait', () => hasEvent(first, 'session.activity', { to: 'waiting' }), first);

    fill(dir);
    process.kill(h.starts()[0]!.pid, 'SIGKILL');
    await wait('the crash, unwritable', () => hasEvent(first, 'session.interrupted', { reason: 'crash' }), first);
    expect(h.workLog('full')).not.toContain('SESSION INTERRUPTED - agent crashed');
    first.child.kill('SIGKILL');
    await first.exited;

    release(dir);
    const second = h.up();
    await wait('the resume', () => hasEvent(second, 'session.resumed') && h.starts().length === 2, second);
    await wait('the record cleared', () => readStateProblem(h.home, id) === null, second);
    const log = h.workLog('full');
    expect(log.match(/^- SESSION INTERRUPTED - agent crashed/gm), log).toHaveLength(1);
    expect(log.match(/^- SESSION RESUMED - agent crashed/gm), log).toHaveLength(1);
    expect(log.indexOf('SESSION INTERRUPTED - agent crashed')).toBeLessThan(log.indexOf('SESSION RESUMED - agent crashed'));
    expect(log).toMatch(/STATE WRITTEN LATE - \d+ entr(y|ies) above could not be written since [\d-]+ [\d:]+: ENOSPC/);
    expect(checkInterruptions(log, true)).toEqual([]);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
