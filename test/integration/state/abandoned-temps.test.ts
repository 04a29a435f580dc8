// Temp files a killed writer left in a state dir: removed when the daemon brings the session up, once
// old enough that no writer is left; nothing an agent made of the same look is touched (a FIFO, a link,
// another name). Real files, a real FIFO, and a real `mori up`.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ABANDONED_AFTER_MS, removeAbandonedTemps } from '../../../main/state/abandoned-temps.js';
import { until } from '../../../testkit/until.js';
import { DEADLINE_MS, hasEvent, UpHarness } from '../../support/mori-up.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A file written `ageMs` ago. */
function written(file: string, ageMs: number, text = ''): string {
  writeFileSync(file, text);
  const at = new Date(Date.now() - ageMs);
  utimesSync(file, at, at);
  return file;
}

describe('abandoned temp files in a state dir', () => {
  it("removes Mori's old ones and leaves the fresh, the foreign and the agent's FIFOs and links", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mori-temps-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const old = ABANDONED_AFTER_MS * 2;
    const gone = [written(path.join(dir, 'session.json.1d17493d3862.tmp'), old), written(path.join(dir, 'session.json.bak.0123456789ab.tmp'), old), written(path.join(dir, 'work_log.md.abcdefabcdef.tmp'), old, '- a line\n')];
    const kept = [
      written(path.join(dir, 'session_state.md.aaaaaaaaaaaa.tmp'), 1000), // a write under way
      written(path.join(dir, 'notes.md.bbbbbbbbbbbb.tmp'), old), // not a state file's
      written(path.join(dir, 'session.json.cccccccccccc.tmp.keep'), old),
    ];
    const fifo = path.join(dir, 'environment.md.dddddddddddd.tmp');
    execFileSync('mkfifo', [fifo]);
    utimesSync(fifo, new Date(Date.now() - old), new Date(Date.now() - old));
    const outside = written(path.join(dir, 'outside.txt'), old, 'keep me');
    const link = path.join(dir, 'session.json.eeeeeeeeeeee.tmp');
    symlinkSync(outside, link);
    expect(await removeAbandonedTemps(dir, Date.now())).toBe(gone.length);
    for (const f of gone) expect(existsSync(f), f).toBe(false);
    for (const f of kept) expect(existsSync(f), f).toBe(true);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
    // A dir that is not there: nothing, no throw.
    expect(await removeAbandonedTemps(path.join(dir, 'absent'), Date.now())).toBe(0);
  });

  it('are removed by the daemon as it brings the session up', async () => {
    const h = new UpHarness('temps');
    cleanups.push(() => h.cleanup());
    h.init('temps', 'direct');
    const temp = written(path.join(h.stateDir('temps'), 'session.json.1d17493d3862.tmp'), ABANDONED_AFTER_MS * 2);
    const up = h.up();
    await until('the agent at its prompt', () => hasEvent(up, 'session.activity', { to: 'waiting' }), () => up.stderr(), DEADLINE_MS);
    await until('the temp file removed', () => !existsSync(temp), () => up.stderr(), DEADLINE_MS);
  });
});
