// Keeping the machine awake while agents work (main/power/keep-awake.ts, sleep-inhibitor.ts): which
// sessions count as at work, the hold kept through a grace period after the last and given up at its
// end, nothing held while the setting is off, the words, and the command per platform (each told to
// end with the daemon).
import { describe, expect, it } from 'vitest';
import { awakeStep, awakeWords, NOT_HOLDING, workingCount } from '../../../main/power/keep-awake.js';
import { inhibitorCommand, SleepInhibitor } from '../../../main/power/sleep-inhibitor.js';

const on = { enabled: true, graceMs: 120_000 };

describe('keep awake', () => {
  it('counts an agent at work and Mori verifying, resuming or starting one; not one waiting, asking or stopped', () => {
    expect(
      workingCount([
        { state: 'running', activity: 'working' },
        { state: 'verifying', activity: 'unknown' },
        { state: 'resuming', activity: 'waiting' },
        { state: 'starting', activity: 'unknown' },
        { state: 'running', activity: 'waiting' },
        { state: 'running', activity: 'needs-input' },
        { state: 'stopped', activity: 'working' },
        { state: 'limited', activity: 'error' },
      ]),
    ).toBe(4);
  });

  it('holds while any works, through the grace period after the last, then lets go', () => {
    const t0 = 1_000_000;
    const working = awakeStep(NOT_HOLDING, 2, t0, on);
    expect(working).toEqual({ holding: true, releaseAt: null, working: 2 });
    const pause = awakeStep(working, 0, t0 + 1_000, on);
    expect(pause).toEqual({ holding: true, releaseAt: t0 + 121_000, working: 0 });
    // The grace period is not moved by looking again.
    expect(awakeStep(pause, 0, t0 + 60_000, on)).toEqual(pause);
    // Work again within it: held, the release forgotten.
    expect(awakeStep(pause, 1, t0 + 60_000, on)).toEqual({ holding: true, releaseAt: null, working: 1 });
    expect(awakeStep(pause, 0, t0 + 121_000, on)).toEqual(NOT_HOLDING);
    // Nothing was held: nothing to keep.
    expect(awakeStep(NOT_HOLDING, 0, t0, on)).toEqual(NOT_HOLDING);
  });

  it('holds nothing while the setting is off, and lets go at once when it is turned off', () => {
    expect(awakeStep(NOT_HOLDING, 3, 0, { enabled: false, graceMs: 120_000 })).toEqual(NOT_HOLDING);
    expect(awakeStep({ holding: true, releaseAt: null, working: 3 }, 3, 0, { enabled: false, graceMs: 120_000 })).toEqual(NOT_HOLDING);
  });

  it('says how many work, or until when it holds', () => {
    expect(awakeWords({ holding: true, releaseAt: null, working: 2 }, String)).toBe('keeping the machine awake (2 working)');
    expect(awakeWords({ holding: true, releaseAt: 5, working: 0 }, (ms) => `t${ms}`)).toBe('keeping the machine awake until t5 (nothing working)');
    expect(awakeWords(NOT_HOLDING, String)).toBeNull();
  });

  it('holds only idle sleep, until the daemon ends: systemd-inhibit on Linux, caffeinate on macOS, nothing of its own on Windows', () => {
    expect(inhibitorCommand('linux', 42, 'agents work')).toEqual({
      program: 'systemd-inhibit',
      args: ['--what=idle:sleep', '--who=Mori', '--why=agents work', '--mode=block', 'tail', '--pid=42', '-f', '/dev/null'],
    });
    expect(inhibitorCommand('darwin', 42, 'agents work')).toEqual({ program: 'caffeinate', args: ['-i', '-w', '42'] });
    expect(inhibitorCommand('win32', 42, 'agents work')).toBeNull();
  });

  it('where the daemon has no inhibitor program (Windows), says so once and counts as held until released', () => {
    const problems: string[] = [];
    const inhibitor = new SleepInhibitor(() => null, (m) => problems.push(m));
    inhibitor.hold();
    inhibitor.hold();
    expect(inhibitor.held).toBe(true);
    expect(inhibitor.pid).toBeNull();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/daemon alone cannot keep the machine awake on .*: the app does, while it runs/);
    inhibitor.release();
    expect(inhibitor.held).toBe(false);
    inhibitor.hold();
    expect(problems).toHaveLength(2);
  });
});
