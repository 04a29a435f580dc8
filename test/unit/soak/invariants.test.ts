// The soak's invariant checkers on hand-made logs: each holds on a log that keeps its invariant and
// fails on one that breaks it.
import { describe, expect, it } from 'vitest';
import {
  checkCpu,
  checkFootprint,
  checkLeftovers,
  checkSessionFiles,
  checkGoesOn,
  checkInterruptions,
  checkNotStuck,
  checkNudgeWhileWorking,
  checkOrphans,
  checkTypedTwice,
  checkUnowned,
  checkWorkLogLines,
  type AgentRecord,
} from '../../../soak/invariants.js';

const log = (...lines: string[]): string => `# Work log\n\n${lines.map((l) => `## 2026-12-06 10:00\n${l}\n`).join('\n')}`;

describe('interruptions', () => {
  it('holds when each interruption is answered once', () => {
    const ok = log(
      '- SESSION STARTED - agent claude',
      '- SESSION INTERRUPTED - agent crashed (signal SIGKILL); restarting in 1s',
      '- SESSION RESUMED - agent crashed; agent relaunched',
      '- SESSION INTERRUPTED - system sleep',
      '- SESSION INTERRUPTED - supervisor stopped',
      '- REATTACHED - tmux session mori-x was still running (pid 4)',
      '- SESSION INTERRUPTED - agent crashed',
      '- SESSION NEEDS ATTENTION - crash-loop: 5 crashes in 10 minutes',
    );
    expect(checkInterruptions(ok, true)).toEqual([]);
  });

  it('takes a re-attach as the answer to the supervisor stopping only: a sleep pending under it still needs its resume', () => {
    const slept = ['- SESSION INTERRUPTED - system sleep', '- SESSION INTERRUPTED - supervisor stopped', '- REATTACHED - tmux session mori-x was still running (pid 4)'];
    expect(checkInterruptions(log(...slept), true)).toEqual([expect.stringContaining('never answered: "- SESSION INTERRUPTED - system sleep"')]);
    expect(checkInterruptions(log(...slept, '- SESSION RESUMED - system sleep; agent still running, waiting: nudged to continue'), true)).toEqual([]);
    expect(checkInterruptions(log('- SESSION INTERRUPTED - supervisor stopped', '- REATTACHED - tmux session mori-x was still running (pid 4)'), true)).toEqual([]);
  });

  it('fails on two resumes for one interruption', () => {
    const bad = log('- SESSION INTERRUPTED - system sleep', '- SESSION RESUMED - system sleep; nudged', '- SESSION RESUMED - system sleep; nudged');
    expect(checkInterruptions(bad, true)).toEqual([expect.stringContaining('a second resume')]);
  });

  it('fails on an interruption never answered once settled, not before', () => {
    const bad = log('- SESSION INTERRUPTED - system sleep', '- soak s0 #3 ok');
    expect(checkInterruptions(bad, false)).toEqual([]);
    expect(checkInterruptions(bad, true)).toEqual([expect.stringContaining('never answered')]);
  });

  it("holds for one resume after an attention (the person's start), not for two", () => {
    const attention = ['- SESSION INTERRUPTED - agent crashed', '- SESSION NEEDS ATTENTION - launch-failed: session_state.md: is a named pipe'];
    expect(checkInterruptions(log(...attention, '- SESSION RESUMED - started again on request; agent relaunched'), true)).toEqual([]);
    const twice = log(...attention, '- SESSION RESUMED - started again on request; agent relaunched', '- SESSION RESUMED - started again on request; agent relaunched');
    expect(checkInterruptions(twice, true)).toEqual([expect.stringContaining('a second resume')]);
  });

  it('fails on an attention without its reason', () => {
    expect(checkInterruptions(log('- SESSION INTERRUPTED - agent crashed', '- SESSION NEEDS ATTENTION'), true)).toEqual([expect.stringContaining('without its reason')]);
  });
});

describe('work-log lines', () => {
  const lines = (tag: string, ns: number[]): string[] => ns.map((n) => `- soak ${tag} #${n} ok`);

  it('holds when every written line is there, in order, whole (another agent\'s lines beside)', () => {
    expect(checkWorkLogLines(log(...lines('s0', [1, 2]), ...lines('s1', [1]), ...lines('s0', [4])), 's0', [1, 2, 4])).toEqual([]);
  });

  it('fails on a lost line', () => {
    expect(checkWorkLogLines(log(...lines('s0', [1, 3])), 's0', [1, 2, 3])).toEqual([expect.stringContaining('#2')]);
  });

  it('fails on lines out of order or twice', () => {
    expect(checkWorkLogLines(log(...lines('s0', [1, 3, 2])), 's0', [1, 2, 3])).toHaveLength(1);
    expect(checkWorkLogLines(log(...lines('s0', [1, 2, 2])), 's0', [1, 2])).toHaveLength(1);
  });

  it('fails on a torn line', () => {
    expect(checkWorkLogLines(`- soak s0 #1 ok\n- soak s0 #2- soak s0 #3 ok\n`, 's0', [1])).toEqual([expect.stringContaining('torn')]);
  });
});

const input = (pid: number, line: string, at: number, mode = 'idle', since = at - 5_000): AgentRecord => ({ event: 'input', pid, line, at, mode, since });

describe('typed twice', () => {
  it('holds for one nudge per fault, and for the same text into another process', () => {
    expect(checkTypedTwice([input(1, 'continue', 1_000), input(1, 'continue', 9_000), input(2, 'continue', 9_500)], [5_000])).toEqual([]);
  });

  it('fails on the same text twice into one process with no fault between', () => {
    expect(checkTypedTwice([input(1, 'continue', 1_000), input(1, 'continue', 1_400)], [500])).toHaveLength(1);
  });
});

describe('nudge while working', () => {
  it('holds for input at the prompt, or just as a turn began', () => {
    expect(checkNudgeWhileWorking([input(1, 'go', 10_000), input(1, 'go', 10_000, 'working', 9_000)])).toEqual([]);
  });

  it('fails on input well into a turn', () => {
    expect(checkNudgeWhileWorking([input(1, 'go', 10_000, 'working', 4_000)])).toHaveLength(1);
  });
});

describe('stuck, footprint, orphans, unowned files', () => {
  it('stuck: running, limited and attention are settled; anything else fails', () => {
    expect(checkNotStuck([{ name: 'a', state: 'running' }, { name: 'b', state: 'limited' }, { name: 'c', state: 'attention' }])).toEqual([]);
    expect(checkNotStuck([{ name: 'a', state: 'backoff' }, { name: 'b', state: 'running but not writing' }])).toHaveLength(2);
  });

  it('footprint: within 10 % holds, beyond fails', () => {
    expect(checkFootprint({ rssKiB: 100_000, fds: 40 }, { rssKiB: 109_000, fds: 44 })).toEqual([]);
    expect(checkFootprint({ rssKiB: 100_000, fds: 40 }, { rssKiB: 111_000, fds: 45 })).toHaveLength(2);
    expect(checkFootprint(null, { rssKiB: 1, fds: 1 })).toHaveLength(1);
  });

  it('orphans: one of each holds; two agents, two servers, anything after down fails', () => {
    const down = { agents: 0, daemons: 0, privateGitDirs: 0, directAgents: 0 };
    expect(checkOrphans({ agents: new Map([[0, [5]]]), tmux: [7], daemons: [9] }, down)).toEqual([]);
    expect(checkOrphans({ agents: new Map([[0, [5, 6]]]), tmux: [7, 8], daemons: [9, 10] }, down)).toHaveLength(3);
    expect(checkOrphans({ agents: new Map(), tmux: [], daemons: [] }, { agents: 0, daemons: 1, privateGitDirs: 2, directAgents: 1 })).toHaveLength(3);
  });

  it('unowned: a changed file fails', () => {
    expect(checkUnowned(new Map([['a', 'h1']]), new Map([['a', 'h1']]))).toEqual([]);
    expect(checkUnowned(new Map([['a', 'h1']]), new Map([['a', 'h2']]))).toEqual(['a changed']);
  });
});

describe('goes on after a bad file is put back', () => {
  const restores = [{ session: 's0', file: '/p/.mori/s0/session_state.md', at: 10_000 }];
  const running = new Map([['s0', { state: 'running', attention: null }]]);

  it('holds when the agent wrote a line after the restore, or the session ended in attention for another reason', () => {
    expect(checkGoesOn(restores, new Map([['s0', [5_000, 12_000]]]), running)).toEqual([]);
    expect(checkGoesOn(restores, new Map([['s0', [5_000]]]), new Map([['s0', { state: 'attention', attention: 'crash-loop: 5 crashes' }]]))).toEqual([]);
  });

  it('fails when no line came after the restore, or the attention still names the file put back', () => {
    expect(checkGoesOn(restores, new Map([['s0', [5_000]]]), running)).toEqual([expect.stringContaining('did not go on')]);
    const named = new Map([['s0', { state: 'attention', attention: 'launch-failed: /p/.mori/s0/session_state.md: is a named pipe' }]]);
    expect(checkGoesOn(restores, new Map([['s0', [5_000]]]), named)).toEqual([expect.stringContaining('did not go on')]);
  });
});

describe('a full disk and the daemon back to idle', () => {
  it('session files: whole JSON holds; an empty, a torn or a missing session.json fails, a missing backup does not', () => {
    const ok = [
      { file: 's/session.json', text: '{"id":"x"}\n', optional: false },
      { file: 's/session.json.bak', text: null, optional: true },
    ];
    expect(checkSessionFiles(ok)).toEqual([]);
    const bad = [
      { file: 'a/session.json', text: '', optional: false },
      { file: 'b/session.json', text: '{"id":"x", "na', optional: false },
      { file: 'c/session.json', text: null, optional: false },
      { file: 'c/session.json.bak', text: '', optional: true },
    ];
    expect(checkSessionFiles(bad)).toEqual([
      'a/session.json is empty',
      expect.stringContaining('b/session.json is not JSON'),
      'c/session.json is missing',
      'c/session.json.bak is empty',
    ]);
  });

  it('leftovers: a write in flight, or one there before, holds; a new marker or temp file seconds old fails', () => {
    const before = new Set(['work_log.appending.7.aaaaaaaaaaaa']);
    const now = [
      { name: 'work_log.md', ageMs: 60_000, size: 900 },
      { name: 'work_log.appending.7.aaaaaaaaaaaa', ageMs: 60_000, size: 0 },
      { name: 'work_log.appending.9.bbbbbbbbbbbb', ageMs: 10, size: 0 },
      { name: 'session.json.0123456789ab.tmp', ageMs: 50, size: 0 },
    ];
    expect(checkLeftovers(before, now)).toEqual([]);
    const left = [...now, { name: 'work_log.appending.9.cccccccccccc', ageMs: 5_000, size: 0 }, { name: 'session.json.ba9876543210.tmp', ageMs: 3_000, size: 12 }];
    expect(checkLeftovers(before, left)).toEqual([expect.stringContaining('work_log.appending.9.cccccccccccc (0 bytes'), expect.stringContaining('session.json.ba9876543210.tmp (12 bytes')]);
  });

  it('cpu: back near the warm-up level holds; well above it, unread, or a process spinning fails', () => {
    expect(checkCpu(0.04, 0.09, [])).toEqual([]);
    expect(checkCpu(0.04, 0.2, [])).toEqual([expect.stringContaining('4 % of a core after warm-up → 20 %')]);
    expect(checkCpu(null, 0.05, [])).toEqual([expect.stringContaining('could not be read (warm-up)')]);
    expect(checkCpu(0.04, 0.05, [{ what: '123 (parent 1: tmux -C attach-session)', share: 0.97 }])).toEqual(['123 (parent 1: tmux -C attach-session) spinning: 97 % of a core']);
  });
});
