// Agent hooks under a real `mori up` (DESIGN.md §4 "Hooks"): the fake agent reads Mori's
// `--settings` layer as Claude Code does and runs its hook commands (the real report script) at its
// start, on a prompt, on a permission question and at a turn's end. With the screen not read
// (MORI_TEST_HOOKS_ONLY) a hook's needs-input is the daemon's within a second of the hook call, and
// a `mori ls --json` run a second after the call shows it; with it read, a later screen change still
// wins; a SessionStart(clear) with a new id is recorded in session.json and the relaunch after a
// SIGKILL resumes that id.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runMoriAsync } from '../../../../testkit/mori-cli.js';
import { DEADLINE_MS, hasEvent, until, UpHarness } from '../../../support/mori-up.js';

/** The promise: a hook's needs-input shows in `mori ls` within a second of the hook call. */
const HOOK_TO_LS_MS = 1_000;

let h: UpHarness;
afterEach(() => h.cleanup());

const hooksRecorded = (name: string): number =>
  readFileSync(h.record, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"event":"hook"') && l.includes(`"name":"${name}"`)).length;
/** When the fake agent called its hook `name` (epoch ms). */
const hookCalledAt = (name: string): number => {
  const line = readFileSync(h.record, 'utf8')
    .split('\n')
    .find((l) => l.includes('"event":"hook"') && l.includes(`"name":"${name}"`));
  return (JSON.parse(line ?? '{}') as { calledAt?: number }).calledAt ?? NaN;
};
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
    // `mori ls` run back to back from the moment `ask` is typed (neither blocks this process).
    const lsRun = () => runMoriAsync(['ls', '--json'], { home: h.home, cwd: h.project, env: h.env });
    const asking = runMoriAsync(['send', 'hk', 'ask'], { home: h.home, cwd: h.project, env: h.env });
    let shownAt: number | null = null;
    let lsMs = 0;
    for (const end = Date.now() + DEADLINE_MS; shownAt === null && Date.now() < end; ) {
      const t0 = Date.now();
      const ls = await lsRun();
      if (/"needs-input"/.test(ls.stdout)) shownAt = Date.now();
      lsMs = Date.now() - t0;
    }
    const asked = await asking;
    expect(asked.code, asked.stderr).toBe(0);
    expect(shownAt, 'mori ls never said needs-input').not.toBeNull();
    expect(hooksRecorded('PermissionRequest')).toBe(1);
    const calledAt = hookCalledAt('PermissionRequest');
    // The daemon's state, which `mori ls` reads, says so within a second of the hook call.
    await until('the needs-input event on the stream', () => hasEvent(u, 'session.activity', { to: 'needs-input' }));
    const event = u.lines().find((e) => e['type'] === 'session.activity' && e['to'] === 'needs-input');
    const toState = Number(event?.['at']) - calledAt;
    expect(toState).toBeLessThanOrEqual(HOOK_TO_LS_MS);
    // A `mori ls` run a second after the hook call shows it.
    await new Promise((r) => setTimeout(r, Math.max(0, calledAt + HOOK_TO_LS_MS - Date.now())));
    const late = await lsRun();
    expect(late.stdout).toContain('"needs-input"');
    // Polled, the first `mori ls` to show it ended this long after the call: its own run counts, and so
    // does the one before it, which ran as the word arrived.
    console.log(`hook call → daemon state needs-input ${toState} ms; → end of the first mori ls showing it ${(shownAt as number) - calledAt} ms (that ls took ${lsMs} ms)`);
  });

  it('the screen still wins after a later change, and /clear moves the recorded id the resume uses', async () => {
    // No status file: the SessionStart hook alone names each new conversation (with it, claude's status
    // file can name the id first, in its own words; hooks-off tests below cover that path).
    h = new UpHarness('hooks-clear', { FAKE_AGENT_NO_STATUS: '1' });
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
    const said = new RegExp(`AGENT SESSION CHANGED - Claude Code session ${first} → ${cleared}: the conversation was cleared`);
    await until('the work log says so', () => said.test(h.workLog('cl')), () => h.workLog('cl'));
    // A compaction whose SessionStart names another conversation moves the id too, said as such.
    const compacted = '5d0f3a2b-8c1e-4f6a-9b7d-2e3c4a5b6c7d';
    sent('cl', `compact:${compacted}`);
    await until('the compacted id in session.json', () => sessionJson('cl').agent.sessionId === compacted);
    await until('the work log says so', () => h.workLog('cl').includes(`AGENT SESSION CHANGED - Claude Code session ${cleared} → ${compacted}: the conversation was compacted`), () => h.workLog('cl'));
    const pid = h.starts()[0]?.pid as number;
    process.kill(pid, 'SIGKILL');
    await until('the relaunch', () => h.starts().length === 2, () => u.stderr());
    expect(h.starts()[1]?.resumeId).toBe(compacted);
    // The first run's spool dir went with it.
    await until('one spool dir left', () => readdirSync(path.join(h.home, 'hooks')).filter((n) => /^[0-9a-f]{32}$/.test(n)).length === 1);
  });

  it("with the agent's hooks off, /clear still moves the recorded id: claude's status file names the new conversation", async () => {
    h = new UpHarness('hooks-off-clear', { FAKE_AGENT_HOOKS_OFF: '1' });
    h.init('off', 'direct');
    const u = h.up();
    await until('the agent to start', () => h.starts().length === 1);
    const first = h.starts()[0]?.sessionId as string;
    await until('waiting', () => hasEvent(u, 'session.activity', { to: 'waiting' }));
    sent('off', 'clear');
    await until('the new id in session.json', () => {
      const id = sessionJson('off').agent.sessionId;
      return id !== null && id !== first;
    });
    const cleared = sessionJson('off').agent.sessionId as string;
    // session.json is written first, the work log's line just after.
    const said = new RegExp(`AGENT SESSION CHANGED - Claude Code session ${first} → ${cleared}: its status file names a new conversation`);
    await until('the work log says so', () => said.test(h.workLog('off')), () => h.workLog('off'));
    // No hook ran: the id came from the status file alone.
    expect(readFileSync(h.record, 'utf8')).not.toMatch(/"event":"hook"/);
    process.kill(h.starts()[0]?.pid as number, 'SIGKILL');
    await until('the relaunch', () => h.starts().length === 2, () => u.stderr());
    expect(h.starts()[1]?.resumeId).toBe(cleared);
  });

  it("with the agent's hooks off, an id in claude's status file that is not claude's form is never recorded or resumed", async () => {
    h = new UpHarness('hooks-off-bad-id', { FAKE_AGENT_HOOKS_OFF: '1' });
    h.init('bad', 'direct');
    const u = h.up();
    await until('the agent to start', () => h.starts().length === 1);
    const first = h.starts()[0]?.sessionId as string;
    await until('waiting', () => hasEvent(u, 'session.activity', { to: 'waiting' }));
    // The agent's status file names a conversation a shell would read as code; its screen moves, so
    // the status file is read again while it says so.
    const hostile = 'not-a-uuid $(touch pwned) --dangerously-skip-permissions';
    // Typed with its own carriage return: `mori send`'s Enter would wait for the recorded conversation
    // to take the prompt, and the agent now writes another one.
    for (const line of [`clear:${hostile}`, 'print:still here']) expect(h.mori('send', 'bad', '--no-enter', `${line}\r`).code).toBe(0);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(sessionJson('bad').agent.sessionId).toBe(first);
    // A well-formed id after it is taken: the status file was being read all along.
    const next = '0b6c5d1e-7f2a-4c3b-9d8e-1a2b3c4d5e6f';
    sent('bad', `clear:${next}`);
    await until('the well-formed id in session.json', () => sessionJson('bad').agent.sessionId === next);
    const log = h.workLog('bad');
    expect(log.match(/AGENT SESSION CHANGED/g)).toHaveLength(1);
    expect(log).not.toContain('not-a-uuid');
    process.kill(h.starts()[0]?.pid as number, 'SIGKILL');
    await until('the relaunch', () => h.starts().length === 2, () => u.stderr());
    expect(h.starts()[1]?.resumeId).toBe(next);
  });

  it('a status file still naming the conversation a /clear left is older than the SessionStart hook: the recorded id is not moved back', async () => {
    // Claude writes its status file on its own schedule: here it names the old conversation for a
    // while after the SessionStart hook named the new one.
    const lagMs = 3_000;
    h = new UpHarness('hooks-status-lag', { FAKE_AGENT_STATUS_LAG_MS: String(lagMs) });
    h.init('lag', 'direct');
    const u = h.up();
    await until('the agent to start', () => h.starts().length === 1);
    const first = h.starts()[0]?.sessionId as string;
    await until('waiting', () => hasEvent(u, 'session.activity', { to: 'waiting' }));
    const cleared = '7e1d2c3b-4a5f-4e6d-8c7b-9a0f1e2d3c4b';
    // Typed with their own carriage return: `mori send`'s Enter would wait for the new conversation's status.
    const typed = (line: string): void => expect(h.mori('send', 'lag', '--no-enter', `${line}\r`).code).toBe(0);
    const clearedAt = Date.now();
    typed(`clear:${cleared}`);
    await until('the new id in session.json', () => sessionJson('lag').agent.sessionId === cleared, () => u.stderr());
    // The screen moves while the file still names the old conversation, and after it names the new
    // one: each move is a read of the file.
    for (let i = 0; Date.now() < clearedAt + lagMs + 1_500; i++) {
      typed(`print:read ${i}`);
      await new Promise((r) => setTimeout(r, 400));
    }
    expect(sessionJson('lag').agent.sessionId).toBe(cleared);
    const log = h.workLog('lag');
    expect(log.match(/AGENT SESSION CHANGED/g)).toHaveLength(1);
    expect(log).toContain(`AGENT SESSION CHANGED - Claude Code session ${first} → ${cleared}: the conversation was cleared`);
  });
});
