// A state problem a supervisor recorded and could not clear (it ended between a failed write of
// session.json and the next one that succeeded) is settled by the next supervisor's first write: its
// intent goes into session.json then, and the record goes, so no later start applies that intent
// over what session.json says since (a usage limit's plan, a stop). A real supervisor and fake agent.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readStateProblem, recordStateProblem } from '../../../../main/supervisor/session/state-problems.js';
import { readSessionFile } from '../../../../main/state/session-file.js';
import { SupervisorHarness } from '../../../support/supervisor-harness.js';
import { until } from '../../../../testkit/until.js';

let h: SupervisorHarness;
beforeEach(() => {
  h = new SupervisorHarness('state-problem');
});
afterEach(() => h.cleanup());

it("is settled by the next supervisor's first write: a stop written since holds at the start after", async () => {
  const dir = await h.session('stale');
  const id = (JSON.parse(readFileSync(path.join(dir, 'session.json'), 'utf8')) as { id: string }).id;
  // What a supervisor that died right after a failed write leaves: its intent (running) in the home.
  recordStateProblem(h.home, { sessionId: id, name: 'stale', stateDir: dir, message: `${dir}/session.json: EACCES`, reason: 'state-unwritable', at: new Date().toISOString(), pendingIntent: { kind: 'running' } });

  const first = h.supervisor({ env: h.env(), verify: false });
  expect((await first.start()).ok).toBe(true);
  await until('the agent runs', () => h.starts().length === 1 && first.list()[0]?.state === 'running');
  // Its writes succeed: the record is settled, session.json says what the supervisor meant.
  expect(readStateProblem(h.home, id)).toBeNull();
  await first.stopSession('stale');
  await until('stopped', () => first.list()[0]?.state === 'stopped');
  const file = readSessionFile(dir);
  expect(file.ok && file.value.intent).toEqual({ kind: 'user-stopped' });
  await first.shutdown();

  // The stop holds: no record left to turn it back into running.
  const again = h.supervisor({ env: h.env(), verify: false });
  expect((await again.start()).ok).toBe(true);
  await new Promise((r) => setTimeout(r, 1_000));
  expect(h.starts()).toHaveLength(1);
  expect(again.list()[0]?.state).toBe('stopped');
  await again.shutdown();
});
