// The supervisor's typed input goes through deliverText (main/supervisor/typing/typed-input.ts), here
// with the fake agent in real direct ptys: a nudge the agent does not take (its Enter is lost) ends in
// a restart with the resume command; an agent retrying a request by itself is left alone (nothing
// typed, `send` refused) and nudged once its retries ran out; `send` of a long text is taken.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { SupervisorEvent } from '../../../common/events.js';
import type { Supervisor } from '../../../main/supervisor/supervisor.js';
import { SupervisorHarness } from '../../support/supervisor-harness.js';
import { until } from '../../../testkit/until.js';

let h: SupervisorHarness;
let events: SupervisorEvent[] = [];

beforeEach(() => {
  h = new SupervisorHarness('sup-typing');
  events = h.events;
});
afterEach(() => h.cleanup());

/** The agent's hooks are off: these tests prove typing against what the screen alone shows. */
async function start(name: string, script: string): Promise<Supervisor> {
  await h.session(name);
  const sup = h.supervisor({ env: h.env({ FAKE_AGENT_SCRIPT: script, FAKE_AGENT_NO_HOOKS: '1' }), verify: false });
  expect((await sup.start()).ok).toBe(true);
  return sup;
}

const starts = (): Record<string, unknown>[] => h.starts();
const inputs = (): string[] => h.inputs();
const workLog = (name: string): string => h.workLog(name);
const activity = (to: string): boolean => events.some((e) => e.type === 'session.activity' && e.to === to);

it('a nudge the agent does not take (Enter lost) is tried twice, then the agent is restarted with its resume command', async () => {
  const s = await start('deaf', 'deaf');
  await until('waiting', () => activity('waiting'));
  s.interruptSession('deaf', 'network');
  await s.resumeSession('deaf', 'network');
  await until('the restart', () => starts().length === 2);
  const [first, second] = starts();
  expect((second!['argv'] as string[]).slice(0, 2)).toEqual(['--resume', first!['sessionId']]);
  expect(inputs()).toEqual([]); // never submitted
  expect(workLog('deaf')).toMatch(/agent still running, waiting, but the nudge was not taken \(the agent did not start working after Enter \(sent 2 times\)\): restarted; agent relaunched with its resume command/);
  // One resume, one entry: the restart is said by the relaunch's SESSION RESUMED alone.
  expect(workLog('deaf').match(/SESSION RESUMED - /g)).toHaveLength(1);
}, 60_000);

it('an agent retrying by itself gets nothing typed and `send` is refused; once its retries run out it is nudged', async () => {
  const s = await start('retry', '');
  await until('waiting', () => activity('waiting'));
  expect((await s.send('retry', 'retry:9000')).ok).toBe(true);
  await until('the retry countdown on screen', () => readFileSync(h.record, 'utf8').includes('"event":"retrying"'));
  // Its screen read once more after the countdown appeared (the harness reads within a few ms of output).
  await sleep(500);
  s.interruptSession('retry', 'network');
  await s.resumeSession('retry', 'network');
  expect(workLog('retry')).toMatch(/agent still running, retrying a request by itself: left to it/);
  const sent = await s.send('retry', 'hello');
  expect(sent.ok).toBe(false);
  expect(!sent.ok && sent.message).toMatch(/retrying a request by itself; nothing was typed/);
  expect(inputs()).toEqual(['retry:9000']);
  // The countdown ends in the connection-error screen; the watcher then resumes, which nudges.
  await until('the nudge', () => inputs().some((l) => l.startsWith('You were interrupted')), () => workLog('retry'), 30_000);
  // The resume's log line is written once the nudge is confirmed, which can be after the agent read it.
  // A follow-up on the resume already said: a note, not a second SESSION RESUMED for one interruption.
  await until('the nudge noted', () => /SESSION NOTE - after the resume from network lost: agent still running, error: nudged to continue/.test(workLog('retry')), () => workLog('retry'), 10_000);
  expect(workLog('retry').match(/SESSION RESUMED - /g)).toHaveLength(1);
  expect(starts()).toHaveLength(1);
}, 60_000);

it('send: a text of 170+ characters is taken whole, and the call says so', async () => {
  const s = await start('send', '');
  await until('waiting', () => activity('waiting'));
  const text = `Please ${'carefully '.repeat(16)}check the build and report back what failed first.`;
  expect(text.length).toBeGreaterThan(170);
  const sent = await s.send('send', text);
  expect(sent).toEqual({ ok: true, value: { chars: text.length } });
  expect(inputs()).toEqual([text]);
}, 60_000);

it('a nudge the agent took while the supervisor began to stop is said in the work log, so the next supervisor does not type it again', async () => {
  const s = await start('late', '');
  await until('waiting', () => activity('waiting'));
  // The supervisor's stop begins as the nudge starts to be typed: it waits for the typing to end.
  const typist = (s as unknown as { parts: { typist: { type: (...a: unknown[]) => Promise<{ kind: string }> } } }).parts.typist;
  const type = typist.type.bind(typist);
  let stopping: Promise<void> | null = null;
  typist.type = async (...a: unknown[]) => {
    const typing = type(...a);
    setTimeout(() => (stopping = s.shutdown()), 0);
    return typing;
  };
  s.interruptSession('late', 'sleep');
  await s.resumeSession('late', 'sleep');
  await until('the stop to begin', () => stopping !== null, () => workLog('late'), 20_000);
  await stopping;
  expect(inputs().filter((l) => l.startsWith('You were interrupted'))).toHaveLength(1);
  expect(workLog('late')).toMatch(/SESSION RESUMED - system sleep[^\n]*agent still running, waiting: nudged to continue as the supervisor stopped/);
}, 60_000);

it('no nudge into an agent whose screen shows it working, though the supervisor last read it waiting', async () => {
  await h.session('busy');
  // The monitor reads the screen only 10 s after output: what the supervisor knows stays "waiting"
  // while the agent works, as after a wake or a turn begun unseen.
  const s = h.supervisor({ env: h.env({ FAKE_AGENT_SCRIPT: '', FAKE_AGENT_NO_HOOKS: '1' }), verify: false, activity: { readDelayMs: 10_000, settleMs: 100 } });
  expect((await s.start()).ok).toBe(true);
  await until('waiting', () => activity('waiting'), undefined, 20_000);
  expect((await s.send('busy', 'work:20000')).ok).toBe(true);
  expect(events.filter((e) => e.type === 'session.activity').at(-1)).toMatchObject({ to: 'waiting' });
  s.interruptSession('busy', 'network');
  await s.resumeSession('busy', 'network');
  await until('the resume logged', () => /SESSION RESUMED - network lost/.test(workLog('busy')), () => workLog('busy'), 10_000);
  expect(workLog('busy')).toMatch(/SESSION RESUMED - network lost[^\n]*agent still running, working by itself: nothing typed/);
  expect(inputs()).toEqual(['work:20000']);
  expect(starts()).toHaveLength(1);
}, 60_000);

it('no Enter after a nudge into an agent that began a turn by itself while the nudge was typed', async () => {
  // Idle when the nudge is about to be typed; the typed text starts its own turn before any Enter (as
  // an agent whose own turn, a wake's overdue timer, a background task, begins in that moment).
  const s = await start('self', 'selfturn:20000');
  await until('waiting', () => activity('waiting'));
  s.interruptSession('self', 'network');
  await s.resumeSession('self', 'network');
  await until('the resume logged', () => /SESSION RESUMED - network lost/.test(workLog('self')), () => workLog('self'), 20_000);
  expect(readFileSync(h.record, 'utf8')).toContain('"event":"self-turn"');
  expect(workLog('self')).toMatch(/SESSION RESUMED - network lost[^\n]*agent still running, working by itself: nothing typed/);
  expect(inputs()).toEqual([]);
  expect(starts()).toHaveLength(1);
}, 60_000);
