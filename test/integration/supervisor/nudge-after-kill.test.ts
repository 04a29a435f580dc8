// A supervisor SIGKILLed right after the Enter of a wake's nudge, before it saw the agent take it,
// leaves the session interrupted by the sleep with the nudge on record in session.json; the next
// supervisor re-attaches the same agent (tmux outlives the daemon), finds it took the nudge (its
// transcript), and types nothing again. `mori up` as real processes, the fake agent in a real tmux.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { hasEvent, UpHarness } from '../../support/mori-up.js';
import { call, client } from '../../support/daemon.js';
import { until } from '../../../testkit/until.js';

let h: UpHarness;
let killFile: string;

beforeEach(() => {
  h = new UpHarness('sup-nudge-kill');
  killFile = path.join(h.tmp, 'kill-at-nudge');
  h.env['FAKE_AGENT_KILL_AT_NUDGE'] = killFile;
});
afterEach(() => h.cleanup());

const records = (): Record<string, unknown>[] =>
  readFileSync(h.record, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const nudges = (): Record<string, unknown>[] => records().filter((r) => r['event'] === 'input' && String(r['line']).startsWith('You were interrupted'));
const sessionFile = (): Record<string, unknown> => JSON.parse(readFileSync(path.join(h.stateDir('s'), 'session.json'), 'utf8')) as Record<string, unknown>;

it('a nudge typed by a supervisor killed before it saw it taken is not typed again by the next one', async () => {
  h.init('s', 'tmux');
  const first = h.up();
  await until('the agent to wait', () => hasEvent(first, 'session.activity', { to: 'waiting' }), first.stderr);
  // Its status says idle before it takes the task, and a nudge into a working agent is not typed: the
  // sleep comes once the task's turn ended (its Stop) and the supervisor's reading settled at waiting
  // (it settles over 1.5 s: nothing new for 2 s).
  await until('the first turn to end', () => records().some((r) => r['event'] === 'hook' && r['name'] === 'Stop'), first.stderr);
  let seen = -1;
  let quietSince = Date.now();
  await until('the reading to settle at waiting', () => {
    const acts = first.lines().filter((e) => e['type'] === 'session.activity');
    if (acts.length !== seen) {
      seen = acts.length;
      quietSince = Date.now();
    }
    return acts.at(-1)?.['to'] === 'waiting' && Date.now() - quietSince >= 2_000;
  }, first.stderr);
  // A sleep as the app's power events tell it; the wake's resume nudges the agent, which SIGKILLs this
  // supervisor as it takes the nudge's Enter: before the supervisor could see it taken.
  writeFileSync(killFile, String(first.child.pid));
  const { c } = await client(h.home);
  await call(c, 'hint.power', { kind: 'suspend' });
  await call(c, 'hint.power', { kind: 'resume' });
  c.close();
  await until('the nudging supervisor killed', () => first.child.signalCode !== null, () => `${h.workLog('s')}\n${first.stderr()}`);
  expect(records().some((r) => r['event'] === 'killed' && r['target'] === first.child.pid)).toBe(true);
  expect(nudges()).toHaveLength(1);
  expect(h.workLog('s')).toMatch(/^- SESSION INTERRUPTED - system sleep/m);
  expect(h.workLog('s')).not.toMatch(/^- SESSION RESUMED/m);
  expect(sessionFile()['intent']).toEqual({ kind: 'interrupted', reason: 'sleep' });
  expect(sessionFile()['nudgeTyped']).toMatchObject({ reason: 'sleep', pid: nudges()[0]!['pid'] });

  const next = h.up();
  await until('the resume', () => /^- SESSION RESUMED - system sleep/m.test(h.workLog('s')), () => `${h.workLog('s')}\n${next.stderr()}`);
  expect(nudges()).toHaveLength(1);
  expect(h.workLog('s')).toMatch(/SESSION RESUMED - system sleep;[^\n]*agent still running, waiting: the nudge typed before the supervisor stopped was taken: nothing typed/);
  expect(h.workLog('s').match(/^- SESSION RESUMED/gm)).toHaveLength(1);
  expect(h.starts()).toHaveLength(1); // the same agent throughout
  expect(sessionFile()['nudgeTyped']).toBeNull();
  expect(sessionFile()['intent']).toEqual({ kind: 'running' });
  next.child.kill('SIGTERM');
  await next.exited;
}, 90_000);
