// Agent hooks under a real `mori up` (DESIGN.md §4 "Hooks"): the fake agent reads Mori's
// `--settings` layer as Claude Code does and runs its hook commands (the real report script) at its
// start, on a prompt, on a permission question and at a turn's end. With the screen not read
// (MORI_TEST_HOOKS_ONLY) a hook's needs-input reaches `mori ls --json` within a second; with it read,
// a later screen change still wins; a SessionStart(clear) with a new id is recorded in session.json
// and the relaunch after a SIGKILL resumes that id.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEADLINE_MS, hasEvent, until, UpHarness } from '../helpers/mori-up.js';

let h: UpHarness;
afterEach(() => h.cleanup());

/** The one session's activity as `mori ls --json` prints it (the only session: its row says needs-input or not). */
const lsActivity = (): string => (/"needs-input"/.test(h.mori('ls', '--json').stdout) ? 'needs-input' : 'other');
const hooksRecorded = (name: string): number =>
  readFileSync(h.record, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"event":"hook"') && l.includes(`"name":"${name}"`)).length;
const sessionJson = (name: string): { agent: { sessionId: string | null } } => JSON.parse(readFileSync(path.join(h.stateDir(name), 'session.json'), 'utf8')) as { agent: { sessionId: string | null } };

/** `mori send` that fails the test with what the command said when the text was not taken. */
const sent = (name: string, text: string): void => {
  const r = h.mori('send', name, text);
  expect(r.code, `mori send ${name} ${text}: ${r.stdout}${r.stderr}`).toBe(0);
};

describe('hooks under mori up', () => {
  it("a hook's needs-input reaches mori ls within a second with the screen not read", async () => {
    h = new UpHarness('hooks-only', { MORI_TEST_HOOKS_ONLY: '1' });
    h.init('hk', 'tmux');
    const u = h.up();
    await until('the agent started with --settings', () => typeof h.starts()[0]?.settings === 'string');
    await until('its SessionStart hook', () => existsSync(h.record) && hooksRecorded('SessionStart') === 1);
    // The first turn's Stop leaves it waiting by the hook alone.
    await until('waiting by the hook', () => hasEvent(u, 'session.activity', { to: 'waiting' }), () => u.stderr());
    sent('hk', 'ask');
    await until('the PermissionRequest hook ran', () => hooksRecorded('PermissionRequest') === 1);
    const asked = Date.now();
    await until('needs-input in mori ls', () => lsActivity() === 'needs-input', () => h.mori('ls', '--json').stdout, DEADLINE_MS, 20);
    // From the hook call's end to `mori ls` showing it (the `mori ls` process itself takes part of it).
    expect(Date.now() - asked).toBeLessThan(1_000 + 1_500);
    await until('the needs-input event on the stream', () => hasEvent(u, 'session.activity', { to: 'needs-input' }));
  });

  it('the screen still wins after a later change, and /clear moves the recorded id the resume uses', async () => {
    h = new UpHarness('hooks-clear');
    h.init('cl', 'tmux');
    const u = h.up();
    await until('the agent to start', () => h.starts().length === 1);
    const first = h.starts()[0]?.sessionId as string;
    await until('waiting', () => hasEvent(u, 'session.activity', { to: 'waiting' }));
    // `print:` fires no hook: the hook's last word (waiting) stands, then `ask` by hook and screen.
    sent('cl', 'ask');
    await until('needs-input', () => hasEvent(u, 'session.activity', { to: 'needs-input' }));
    // Answering paints a working screen, then Stop: back to waiting without a hook saying working first.
    sent('cl', '1');
    await until('waiting again', () => u.lines().filter((e) => e['type'] === 'session.activity' && e['to'] === 'waiting').length >= 2);

    sent('cl', 'clear');
    await until('the new id in session.json', () => {
      const id = sessionJson('cl').agent.sessionId;
      return id !== null && id !== first;
    });
    const cleared = sessionJson('cl').agent.sessionId as string;
    expect(h.workLog('cl')).toMatch(new RegExp(`AGENT SESSION CHANGED - Claude Code session ${first} → ${cleared}: the conversation was cleared`));
    const pid = h.starts()[0]?.pid as number;
    process.kill(pid, 'SIGKILL');
    await until('the relaunch', () => h.starts().length === 2, () => u.stderr());
    expect(h.starts()[1]?.resumeId).toBe(cleared);
    // The first run's spool dir went with it.
    await until('one spool dir left', () => readdirSync(path.join(h.home, 'hooks')).filter((n) => /^[0-9a-f]{32}$/.test(n)).length === 1);
  });
});
