// Activity detection (DESIGN.md §4): each profile's screen patterns over screens captured from the
// real CLIs (test/support/fixtures/agent-screens/, Claude Code 2.1.197 and 2.1.332 (`claude-2.1.332-*`), codex-cli 0.171.0, Gemini CLI 0.61.0, opencode 1.18.33,
// run in tmux without network or with a local stand-in API), the debouncer's one-event-per-
// transition contract under an injected clock, and the merge with claude's own status file.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AgentActivity } from '../../../common/agent-activity.js';
import { ActivityDebouncer } from '../../../main/agents/activity-debouncer.js';
import { activityFromClaudeStatus, combineActivity } from '../../../main/agents/claude/session-status.js';
import { PROFILES } from '../../../main/agents/profiles.js';
import { detectActivity } from '../../../main/agents/screen-activity.js';

const screen = (name: string): string => readFileSync(fileURLToPath(new URL(`../../support/fixtures/agent-screens/${name}`, import.meta.url)), 'utf8');

const CASES: [file: string, profile: keyof typeof PROFILES, expected: AgentActivity][] = [
  ['claude-working.txt', 'claude', 'working'],
  ['claude-idle-after-answer.txt', 'claude', 'waiting'],
  // 2.1.332: auto mode's footer, no `? for shortcuts`; the input box between its rules is the idle sign.
  ['claude-2.1.332-working.txt', 'claude', 'working'],
  ['claude-2.1.332-idle-after-answer.txt', 'claude', 'waiting'],
  ['claude-idle-after-interrupt.txt', 'claude', 'waiting'],
  ['claude-permission-prompt.txt', 'claude', 'needs-input'],
  // 2.1.332's offer to make auto mode the default, drawn after a turn in manual mode.
  ['claude-2.1.332-auto-mode-offer.txt', 'claude', 'needs-input'],
  ['claude-api-key-question.txt', 'claude', 'needs-input'],
  ['claude-retry-connection-refused.txt', 'claude', 'working'],
  ['claude-retry-api-error.txt', 'claude', 'working'],
  ['claude-api-error-connection.txt', 'claude', 'error'],
  ['claude-api-error-500.txt', 'claude', 'error'],
  ['claude-connect-error.txt', 'claude', 'error'],
  // opencode 1.18.33: its footer says `esc interrupt` while a turn runs, only `ctrl+p commands` after.
  ['opencode-working.txt', 'opencode', 'working'],
  ['opencode-idle-after-answer.txt', 'opencode', 'waiting'],
  ['codex-login.txt', 'codex', 'needs-input'],
  ['codex-trust.txt', 'codex', 'needs-input'],
  // Codex retrying by itself is working (a wake must not type into it); only its `■` line is an error.
  ['codex-reconnecting.txt', 'codex', 'working'],
  ['codex-waiting-for-network.txt', 'codex', 'working'],
  ['codex-waiting-for-network-loopback.txt', 'codex', 'working'],
  ['codex-retrying-stream.txt', 'codex', 'working'],
  ['codex-retrying-http-500.txt', 'codex', 'working'],
  ['codex-gave-up-stream.txt', 'codex', 'error'],
  ['codex-gave-up-http-500.txt', 'codex', 'error'],
  ['codex-idle-after-answer.txt', 'codex', 'waiting'],
  ['codex-idle-after-interrupt.txt', 'codex', 'waiting'],
  ['gemini-trust.txt', 'gemini', 'needs-input'],
  ['gemini-auth-choice.txt', 'gemini', 'needs-input'],
  ['gemini-working.txt', 'gemini', 'working'],
  ['gemini-working-no-network.txt', 'gemini', 'working'],
  ['gemini-retrying-offline.txt', 'gemini', 'working'],
  ['gemini-gave-up-offline.txt', 'gemini', 'error'],
  ['gemini-idle-after-answer.txt', 'gemini', 'waiting'],
  ['gemini-network-error.txt', 'gemini', 'error'],
  ['gemini-after-key.txt', 'gemini', 'error'],
  // Without colours its echo is `> text` at the margin: the refused turn's error above the nudge's answer no longer counts.
  ['gemini-resumed-after-limit.txt', 'gemini', 'waiting'],
];

describe('detectActivity over real CLI screens', () => {
  it.each(CASES)('%s → %s is %s', (file, profile, expected) => {
    expect(detectActivity(PROFILES[profile], screen(file))).toBe(expected);
  });

  it('an error from an earlier turn does not stick once a later turn succeeds', () => {
    const failed = screen('claude-api-error-connection.txt').split('\n');
    // The real screen after a failed turn, followed by the lines claude paints for a successful one.
    const later = [...failed.slice(0, failed.findIndex((l) => l.startsWith('─'))), '', '❯ try again', '', '● Done.', '', '✻ Baked for 0s', '─'.repeat(40), '❯ ', '─'.repeat(40), '  ? for shortcuts'];
    expect(detectActivity(PROFILES.claude, failed.join('\n'))).toBe('error');
    expect(detectActivity(PROFILES.claude, later.join('\n'))).toBe('waiting');
  });

  it('a profile reads only its own patterns: a claude screen means nothing to custom, an empty screen is unknown', () => {
    expect(detectActivity(PROFILES.custom, screen('claude-working.txt'))).toBe('unknown');
    expect(detectActivity(PROFILES.claude, '\n\n   \n')).toBe('unknown');
  });

  it('shell: a prompt at the end is waiting, a password question needs input', () => {
    expect(detectActivity(PROFILES.shell, 'make test\nok\nuser@host:~/proj$ ')).toBe('waiting');
    expect(detectActivity(PROFILES.shell, '$ sudo ls\n[sudo] password for me: ')).toBe('needs-input');
    expect(detectActivity(PROFILES.shell, 'compiling...')).toBe('unknown');
  });
});

describe('ActivityDebouncer', () => {
  function rig(settleMs = 1000): { d: ActivityDebouncer; advance: (ms: number) => void } {
    let now = 10_000;
    return { d: new ActivityDebouncer({ settleMs, clock: () => now }), advance: (ms) => (now += ms) };
  }

  it('emits one transition once a new reading has lasted the settle time', () => {
    const { d, advance } = rig();
    expect(d.observe('working')).toBeNull();
    expect(d.nextDeadline()).toBe(11_000);
    advance(500);
    expect(d.observe('working')).toBeNull();
    advance(499);
    expect(d.flush()).toBeNull();
    advance(1);
    expect(d.flush()).toEqual({ from: 'unknown', to: 'working', at: 10_000 });
    expect(d.current).toBe('working');
    advance(5000);
    expect(d.observe('working')).toBeNull();
    expect(d.flush()).toBeNull();
    expect(d.nextDeadline()).toBeNull();
  });

  it('a flicker shorter than the settle time emits nothing', () => {
    const { d, advance } = rig();
    d.observe('working');
    advance(1000);
    d.flush();
    d.observe('waiting');
    advance(300);
    expect(d.observe('working')).toBeNull();
    advance(2000);
    expect(d.flush()).toBeNull();
    expect(d.current).toBe('working');
  });

  it('a change of candidate restarts the wait; readings after settling emit through observe()', () => {
    const { d, advance } = rig();
    d.observe('working');
    advance(800);
    d.observe('error');
    advance(800);
    expect(d.flush()).toBeNull();
    advance(200);
    expect(d.observe('error')).toEqual({ from: 'unknown', to: 'error', at: 10_800 });
  });

  it('settles on its own clock and reports the wall time the reading was first seen', () => {
    let awake = 0;
    let wall = 1_000_000;
    const d = new ActivityDebouncer({ settleMs: 1000, clock: () => awake, wallClock: () => wall });
    d.observe('working');
    wall += 60_000; // a sleep: the wall clock moves, awake time does not
    expect(d.observe('working')).toBeNull();
    expect(d.nextDeadline()).toBe(1000);
    awake += 1000;
    wall += 1000;
    expect(d.flush()).toEqual({ from: 'unknown', to: 'working', at: 1_000_000 });
  });

  it('per-activity settle times, and reset() forgets without emitting', () => {
    let now = 0;
    const d = new ActivityDebouncer({ settleMs: 5000, settleMsFor: { 'needs-input': 100 }, clock: () => now });
    d.observe('needs-input');
    now = 100;
    expect(d.flush()?.to).toBe('needs-input');
    d.observe('working');
    d.reset('waiting');
    now = 10_000;
    expect(d.flush()).toBeNull();
    expect(d.current).toBe('waiting');
  });
});

describe('claude status file', () => {
  it('maps idle | busy | waiting and lets an error on screen stand', () => {
    expect(activityFromClaudeStatus('busy')).toBe('working');
    expect(activityFromClaudeStatus('idle')).toBe('waiting');
    expect(activityFromClaudeStatus('waiting')).toBe('needs-input');
    expect(combineActivity('working', 'error')).toBe('error');
    expect(combineActivity('needs-input', 'working')).toBe('needs-input');
    expect(combineActivity(null, 'waiting')).toBe('waiting');
    // A chooser claude draws while it says idle is a question; while it works, its report stands.
    expect(combineActivity('waiting', 'needs-input')).toBe('needs-input');
    expect(combineActivity('working', 'needs-input')).toBe('working');
  });
});
