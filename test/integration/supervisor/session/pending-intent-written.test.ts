// A session whose session.json and work log both failed to be written, then session.json took its
// changes again while the work log still fails: the record in the Mori home stays (for the entries
// held), but no longer carries the intent session.json has since moved past. Left there, the next
// supervisor put a crash's `interrupted` back over the relaunch's `running` and resumed the crash a
// second time. Real files: a corrupt session.json, a work log that is a symlink.
import { readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { createSession } from '../../../../main/state/state-dir.js';
import { readSessionFile } from '../../../../main/state/session-file.js';
import { getProfile } from '../../../../main/agents/profiles.js';
import { initialRestartState } from '../../../../main/supervisor/session/restart-policy.js';
import { SessionRuntime } from '../../../../main/supervisor/session/session-runtime.js';
import { SessionStore } from '../../../../main/supervisor/session/session-store.js';
import { readStateProblem } from '../../../../main/supervisor/session/state-problems.js';
import { ManualTime } from '../../../support/fakes/manual-time.js';
import { tempDir } from '../../../../testkit/mori-cli.js';
import { SESSION_FILE, WORK_LOG } from '../../../../common/state-files.js';

it('session.json written again while the work log still fails: the record keeps the held entries, not the old intent', async () => {
  const home = tempDir('pending-intent-home');
  const created = await createSession({ projectDir: tempDir('pending-intent'), name: 'p', profile: 'claude', backend: 'direct', home });
  const profile = getProfile('claude');
  if (!created.ok || !profile.ok) throw new Error('setup');
  const stateDir = created.value.stateDir;
  const file = readSessionFile(stateDir);
  if (!file.ok) throw new Error(file.message);
  const rt = new SessionRuntime(stateDir, file.value, profile.value, initialRestartState(), () => undefined);
  const time = new ManualTime(Date.now());
  const store = new SessionStore({ home, clock: time, scheduler: time, loaded: (dir) => (dir === stateDir ? rt : null) });
  const sessionFile = path.join(stateDir, SESSION_FILE);
  const good = readFileSync(sessionFile);

  // The agent's crash is said while session.json is corrupt and the work log a link: both held.
  writeFileSync(sessionFile, '{ not json');
  expect(store.write(rt, (s) => ({ ...s, intent: { kind: 'interrupted', reason: 'crash' } }))).toBe(false);
  const log = path.join(stateDir, WORK_LOG);
  const outside = path.join(tempDir('pending-intent-outside'), 'notes.md');
  writeFileSync(outside, '# elsewhere\n');
  renameSync(log, `${log}.away`);
  symlinkSync(outside, log);
  expect(store.log(rt, 'SESSION INTERRUPTED - agent crashed (signal SIGKILL); restarting in 1s')).toBe(false);
  expect(readStateProblem(home, rt.id)?.pendingIntent).toEqual({ kind: 'interrupted', reason: 'crash' });

  // session.json is put back and takes the relaunch's running; the work log is still a link.
  writeFileSync(sessionFile, good);
  expect(store.write(rt, (s) => ({ ...s, intent: { kind: 'running' } }))).toBe(true);
  expect(readSessionFile(stateDir)).toMatchObject({ ok: true, value: { intent: { kind: 'running' } } });
  expect(store.log(rt, 'SESSION RESUMED - agent crashed; agent relaunched')).toBe(true);

  // What a next supervisor would load: no intent over the file's, the entries still held.
  const record = readStateProblem(home, rt.id);
  expect(record?.pendingIntent).toBeNull();
  expect(record?.message).toMatch(/work log|notes\.md|symlink/);
  await new Promise((r) => setTimeout(r, 100));
  expect(readStateProblem(home, rt.id)?.held?.entries.map((e) => e.line)).toEqual([
    'SESSION INTERRUPTED - agent crashed (signal SIGKILL); restarting in 1s',
    'SESSION RESUMED - agent crashed; agent relaunched',
  ]);
  expect(readFileSync(outside, 'utf8')).toBe('# elsewhere\n');
});
