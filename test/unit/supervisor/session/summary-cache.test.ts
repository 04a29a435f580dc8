// The daemon's cached session summaries (main/state/session-summary.ts, summarizeCached): the same
// as reading the files every time, through every way they change — the task rewritten in place, a
// work-log entry appended, session.json replaced atomically, a file deleted or made unreadable, a
// session's lock taken, its holder gone while the file stays — and a removed session's entry is
// forgotten.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { currentOwner, tryLock } from '../../../../main/state/pid-lock.js';
import { bootId } from '../../../../main/os/boot-id.js';
import { processStartTime } from '../../../../main/os/process-start.js';
import { SESSION_LOCK, summarize, summarizeCached } from '../../../../main/state/session-summary.js';
import { writeAtomicSync } from '../../../../main/state/atomic-write.js';
import { createSession } from '../../../../main/state/state-dir.js';
import { appendEntry } from '../../../../main/state/work-log.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'mori-summary-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('cached session summaries', () => {
  it('say what the files say after every kind of change', async () => {
    const project = path.join(root, 'p');
    mkdirSync(project);
    const created = await createSession({ projectDir: project, name: 'cached', profile: 'claude', backend: 'direct', home: path.join(root, 'home'), task: 'first task' });
    if (!created.ok) throw new Error(created.message);
    const dir = created.value.stateDir;
    const same = (): void => expect(summarizeCached(dir)).toEqual(summarize(dir));

    same();
    expect(summarizeCached(dir).task).toBe('first task');
    // The task rewritten in place (same inode): a new size or mtime.
    const statePath = path.join(dir, 'session_state.md');
    writeFileSync(statePath, readFileSync(statePath, 'utf8').replace('first task', 'second task, longer'));
    same();
    expect(summarizeCached(dir).task).toBe('second task, longer');
    // A work-log entry appended.
    appendEntry(dir, ['- CACHE TEST - an entry']);
    same();
    expect(summarizeCached(dir).lastLog?.lines.join('\n')).toContain('CACHE TEST');
    // session.json replaced atomically (a new inode).
    const json = path.join(dir, 'session.json');
    writeAtomicSync(json, JSON.stringify({ ...(JSON.parse(readFileSync(json, 'utf8')) as object), intent: { kind: 'user-stopped' } }, null, 2));
    same();
    expect(summarizeCached(dir).error ?? '').toBe('');
    expect(summarizeCached(dir).session?.intent).toEqual({ kind: 'user-stopped' });
    // Taken by a supervisor: who holds the lock is read every time, the files unchanged.
    const lock = tryLock(path.join(dir, SESSION_LOCK), 'supervising');
    if (!lock.ok) throw new Error('no lock');
    expect(summarizeCached(dir).supervisedBy?.pid).toBe(process.pid);
    lock.release();
    expect(summarizeCached(dir).supervisedBy).toBeNull();
    same();
    // A state file deleted, then session.json unreadable: said as the uncached read says it.
    unlinkSync(statePath);
    same();
    expect(summarizeCached(dir).task).toBeNull();
    if (process.getuid?.() !== 0) {
      chmodSync(path.join(dir, 'session.json'), 0o000);
      same();
      expect(summarizeCached(dir).ok).toBe(false);
      chmodSync(path.join(dir, 'session.json'), 0o600);
    }
    writeFileSync(path.join(dir, 'session.json'), '{ not json');
    same();
    expect(summarizeCached(dir).ok).toBe(false);
  });

  it('asks whether the lock\'s holder is alive every time, though its file is read once', async () => {
    const project = path.join(root, 'q');
    mkdirSync(project);
    const created = await createSession({ projectDir: project, name: 'held', profile: 'claude', backend: 'direct', home: path.join(root, 'home') });
    if (!created.ok) throw new Error(created.message);
    const dir = created.value.stateDir;
    const lockFile = path.join(dir, SESSION_LOCK);
    // Another process holds the lock; the file is never touched again.
    const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
    const pid = holder.pid as number;
    const start = processStartTime(pid);
    writeFileSync(lockFile, JSON.stringify({ pid, bootId: bootId(), acquiredAt: 'then', purpose: 'supervising', ...(start ? { startTime: start } : {}), token: 't1' }));
    expect(summarizeCached(dir).supervisedBy).toEqual({ pid, since: 'then' });
    expect(summarizeCached(dir).supervisedBy).toEqual({ pid, since: 'then' });
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    expect(summarizeCached(dir).supervisedBy).toBeNull();
    expect(summarize(dir).supervisedBy).toBeNull();
    // This process's pid, written by an earlier process that had it (another start time): stale.
    writeFileSync(lockFile, JSON.stringify({ ...currentOwner('supervising'), startTime: 'linux:1', acquiredAt: 'earlier' }));
    expect(summarizeCached(dir).supervisedBy).toBeNull();
    expect(summarize(dir).supervisedBy).toBeNull();
    // Held by this very process: the new file is read.
    unlinkSync(lockFile);
    const lock = tryLock(lockFile, 'supervising');
    if (!lock.ok) throw new Error('no lock');
    expect(summarizeCached(dir).supervisedBy?.pid).toBe(process.pid);
    lock.release();
    expect(summarizeCached(dir).supervisedBy).toBeNull();
  });
});
