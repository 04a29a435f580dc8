// A full disk under a session's state dir (a real tmpfs of a few MB; skipped with the reason where
// none can be mounted): a write that fails leaves each file as it was — no torn work-log entry, no
// empty or half session.json, no empty lock marker or temp file left — and says ENOSPC; the
// supervisor's store holds what it could not write and writes it once space is back.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createSession } from '../../../main/state/state-dir.js';
import { readSessionFile, updateSessionFile, updateSessionFileAsync } from '../../../main/state/session-file.js';
import { appendEntry, appendEntryAsync } from '../../../main/state/work-log.js';
import { getProfile } from '../../../main/agents/profiles.js';
import { initialRestartState } from '../../../main/supervisor/session/restart-policy.js';
import { SessionRuntime } from '../../../main/supervisor/session/session-runtime.js';
import { SessionStore, STATE_RETRY_MS } from '../../../main/supervisor/session/session-store.js';
import { readStateProblem } from '../../../main/supervisor/session/state-problems.js';
import { ManualTime } from '../../support/fakes/manual-time.js';
import { until } from '../../../testkit/until.js';
import { fill, freeUp, mountSmallDisk, release, unmountSmallDisk, type Mounted } from '../../../testkit/small-disk.js';
import { tempDir } from '../../../testkit/mori-cli.js';
import { SESSION_FILE, WORK_LOG } from '../../../common/state-files.js';

/** A disk this small fills in a few milliseconds. */
const DISK_BYTES = 1024 * 1024;
/** tmpfs counts space in pages: a file's last page takes appends until it is full, each new page is a block. */
const PAGE = 4096;

const root = tempDir('disk-full');
const disk = mountSmallDisk(path.join(root, 'disk'), DISK_BYTES);
const skipped = 'skipped' in disk ? disk.skipped : null;
if (skipped) process.stderr.write(`disk-full tests skipped: ${skipped}\n`);
afterAll(() => {
  if (!skipped) unmountSmallDisk(disk as Mounted);
});

let stateDir = '';
let home = '';
let n = 0;
beforeEach(async () => {
  if (skipped) return;
  release((disk as Mounted).dir);
  const project = path.join((disk as Mounted).dir, `p${n++}`);
  mkdirSync(project);
  home = tempDir('disk-full-home');
  const created = await createSession({ projectDir: project, name: 'full', profile: 'claude', backend: 'direct', home });
  if (!created.ok) throw new Error(created.message);
  stateDir = created.value.stateDir;
});

/** The agent's own lines, until the log ends `room` bytes before a page boundary. */
function padLog(room: number): void {
  const file = path.join(stateDir, WORK_LOG);
  const size = statSync(file).size;
  const want = Math.ceil((size + room + 32) / PAGE) * PAGE - room;
  writeFileSync(file, `${'x'.repeat(want - size - 1)}\n`, { flag: 'a' });
}

/** What Mori leaves beside its files mid-write: lock markers, temp files. */
const leftovers = (): string[] => readdirSync(stateDir).filter((f) => /^work_log\.(appending|waiting)\.|\.tmp$/.test(f));

const cases = [
  ['appendEntry', async (lines: string[]) => appendEntry(stateDir, lines)],
  ['appendEntryAsync', (lines: string[]) => appendEntryAsync(stateDir, lines)],
] as const;

describe.skipIf(skipped !== null)('a full disk under the state dir', () => {
  describe.each(cases)('%s', (_, append) => {
    it('leaves no empty lock marker behind when the disk has no block left', async () => {
      const before = readFileSync(path.join(stateDir, WORK_LOG));
      fill((disk as Mounted).dir);
      await expect(append(['SESSION INTERRUPTED - the disk is full'])).rejects.toMatchObject({ code: 'ENOSPC' });
      expect(leftovers()).toEqual([]);
      expect(readFileSync(path.join(stateDir, WORK_LOG))).toEqual(before);
    });

    it('takes back an entry the disk cut short: the log as it was, the next entry whole', async () => {
      padLog(10);
      const before = readFileSync(path.join(stateDir, WORK_LOG));
      fill((disk as Mounted).dir);
      // One block free: the lock's marker takes it, and the entry has only the log's last 10 bytes.
      freeUp((disk as Mounted).dir, PAGE);
      await expect(append(['SESSION INTERRUPTED - the disk is nearly full'])).rejects.toMatchObject({ code: 'ENOSPC' });
      expect(readFileSync(path.join(stateDir, WORK_LOG))).toEqual(before);
      expect(leftovers()).toEqual([]);
      release((disk as Mounted).dir);
      await append(['SESSION RESUMED - space again']);
      const after = readFileSync(path.join(stateDir, WORK_LOG), 'utf8');
      expect(after.slice(0, before.length)).toBe(before.toString('utf8'));
      expect(after.slice(before.length)).toMatch(/^\n## [\d-]+ [\d:]+\n- SESSION RESUMED - space again\n$/);
    });
  });

  it('session.json stays as it was when its new version cannot be written, with no temp file left', async () => {
    const file = path.join(stateDir, SESSION_FILE);
    const before = readFileSync(file);
    fill((disk as Mounted).dir);
    const sync = updateSessionFile(stateDir, (s) => ({ ...s, task: 'written on a full disk' }));
    const async = await updateSessionFileAsync(stateDir, (s) => ({ ...s, task: 'written on a full disk' }));
    expect([sync.ok, async.ok]).toEqual([false, false]);
    expect(!sync.ok && sync.message).toMatch(/ENOSPC/);
    expect(readFileSync(file)).toEqual(before);
    expect(readSessionFile(stateDir).ok).toBe(true);
    expect(leftovers()).toEqual([]);
    release((disk as Mounted).dir);
    expect(updateSessionFile(stateDir, (s) => ({ ...s, task: 'written once space came back' })).ok).toBe(true);
  });

  it('the store holds the entries and the change it could not write, and writes them in order once space is back', async () => {
    const file = readSessionFile(stateDir);
    const profile = getProfile('claude');
    if (!file.ok || !profile.ok) throw new Error('setup');
    const rt = new SessionRuntime(stateDir, file.value, profile.value, initialRestartState(), () => undefined);
    const time = new ManualTime(Date.now());
    const store = new SessionStore({ home, clock: time, scheduler: time, loaded: (dir) => (dir === stateDir ? rt : null) });
    const told: string[] = [];
    store.onUnwritable((_, message) => told.push(message));
    fill((disk as Mounted).dir);
    expect(store.write(rt, (s) => ({ ...s, intent: { kind: 'interrupted', reason: 'crash' } }))).toBe(false);
    expect(store.log(rt, 'SESSION INTERRUPTED - agent crash')).toBe(false);
    expect(store.log(rt, 'SESSION RESUMED - agent claude')).toBe(true);
    // Named: in the Mori home (another disk) and to the supervisor, which puts it in attention.
    expect(told.join('\n')).toMatch(/ENOSPC/);
    expect(readStateProblem(home, rt.id)?.message).toMatch(/ENOSPC/);
    // Still full at the first try: nothing written, nothing torn.
    time.advance(STATE_RETRY_MS);
    await new Promise((r) => setTimeout(r, 100));
    expect(readSessionFile(stateDir)).toMatchObject({ ok: true, value: { intent: { kind: 'new' } } });
    expect(readFileSync(path.join(stateDir, WORK_LOG), 'utf8')).not.toContain('SESSION INTERRUPTED - agent crash');
    release((disk as Mounted).dir);
    time.advance(STATE_RETRY_MS);
    const log = (): string => readFileSync(path.join(stateDir, WORK_LOG), 'utf8');
    await until('the held entries written', () => log().includes('STATE WRITTEN LATE'), () => log());
    expect(readSessionFile(stateDir)).toMatchObject({ ok: true, value: { intent: { kind: 'interrupted', reason: 'crash' } } });
    const at = (t: string): number => log().indexOf(t);
    expect(at('SESSION INTERRUPTED - agent crash')).toBeGreaterThan(0);
    expect(at('SESSION INTERRUPTED - agent crash')).toBeLessThan(at('SESSION RESUMED - agent claude'));
    expect(at('SESSION RESUMED - agent claude')).toBeLessThan(at('STATE WRITTEN LATE - 2 entries above could not be written'));
    expect(readStateProblem(home, rt.id)).toBeNull();
    expect(leftovers()).toEqual([]);
  });

  it('entries held by a supervisor that ended are on record; the next appends them once, in order, before its own', async () => {
    const file = readSessionFile(stateDir);
    const profile = getProfile('claude');
    if (!file.ok || !profile.ok) throw new Error('setup');
    const time = new ManualTime(Date.now());
    const first = new SessionRuntime(stateDir, file.value, profile.value, initialRestartState(), () => undefined);
    // Its own time, never moved: its retry never comes.
    const gone = new ManualTime(Date.now());
    const before = new SessionStore({ home, clock: gone, scheduler: gone, loaded: () => first });
    fill((disk as Mounted).dir);
    expect(before.log(first, 'SESSION INTERRUPTED - agent crash')).toBe(false);
    // Queued behind the one held: on record as well.
    expect(before.log(first, 'SESSION NOTE - behind it')).toBe(true);
    await until('both on record', () => readStateProblem(home, first.id)?.held?.entries.length === 2);
    expect(readStateProblem(home, first.id)?.held?.entries.map((e) => e.line)).toEqual(['SESSION INTERRUPTED - agent crash', 'SESSION NOTE - behind it']);
    // That supervisor is gone with its memory; space comes back.
    release((disk as Mounted).dir);
    const next = new SessionRuntime(stateDir, file.value, profile.value, initialRestartState(), () => undefined);
    const after = new SessionStore({ home, clock: time, scheduler: time, loaded: () => next });
    after.adopt(next);
    expect(after.log(next, 'SESSION RESUMED - agent crash')).toBe(true);
    const log = (): string => readFileSync(path.join(stateDir, WORK_LOG), 'utf8');
    await until('the record cleared', () => readStateProblem(home, next.id) === null && log().includes('SESSION RESUMED'), () => log());
    const at = (t: string): number => log().indexOf(t);
    expect(at('SESSION INTERRUPTED - agent crash')).toBeGreaterThan(0);
    expect(at('SESSION INTERRUPTED - agent crash')).toBeLessThan(at('SESSION NOTE - behind it'));
    expect(at('SESSION NOTE - behind it')).toBeLessThan(at('SESSION RESUMED - agent crash'));
    // A third supervisor finds nothing left to append.
    const third = new SessionStore({ home, clock: time, scheduler: time, loaded: () => next });
    third.adopt(next);
    time.advance(STATE_RETRY_MS);
    await new Promise((r) => setTimeout(r, 100));
    expect(log().match(/SESSION INTERRUPTED - agent crash/g)).toHaveLength(1);
  });

  it("the next supervisor takes over a problem the last one recorded: its pending intent written, the record cleared", async () => {
    const file = readSessionFile(stateDir);
    const profile = getProfile('claude');
    if (!file.ok || !profile.ok) throw new Error('setup');
    const time = new ManualTime(Date.now());
    const first = new SessionRuntime(stateDir, file.value, profile.value, initialRestartState(), () => undefined);
    const before = new SessionStore({ home, clock: time, scheduler: time, loaded: () => first });
    fill((disk as Mounted).dir);
    expect(before.write(first, (s) => ({ ...s, intent: { kind: 'user-stopped' } }))).toBe(false);
    expect(readStateProblem(home, first.id)?.pendingIntent).toEqual({ kind: 'user-stopped' });
    // That supervisor is gone with what it held; space comes back; the next one loads the session
    // with the pending intent in memory, as SessionSet does, and writes something else first.
    release((disk as Mounted).dir);
    const next = new SessionRuntime(stateDir, { ...file.value, intent: { kind: 'user-stopped' } }, profile.value, initialRestartState(), () => undefined);
    const after = new SessionStore({ home, clock: time, scheduler: time, loaded: () => next });
    expect(after.write(next, (s) => ({ ...s, lastCheckpoint: null }))).toBe(true);
    expect(readSessionFile(stateDir)).toMatchObject({ ok: true, value: { intent: { kind: 'user-stopped' } } });
    expect(readStateProblem(home, next.id)).toBeNull();
  });
});
