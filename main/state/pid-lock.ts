// An exclusive lock file holding the owner's pid, process start time and boot id (DESIGN.md §3). A
// lock whose pid is gone, whose pid now belongs to a process that started at another time (a reused
// pid), or that was written in another boot, is stale and may be taken over. Used for the per-session
// lock (one supervisor drives a session), short registry updates and work-log compaction. Any process.
//
// Taking a lock is one link(2) of a complete file: it fails when the lock exists. Taking over a stale
// lock is race-free: each lock carries a random token, and only the process that holds
// `<lock>.takeover.<token>` (itself a lock of this kind, taken the same way) may replace the lock
// with that token, after checking the token is still there, by an atomic rename. A lock is never
// moved aside or put back, so there is no moment at which a third process could slip in.
//
// A lock file is only ever read as a regular file, without blocking (a FIFO in its place would stall
// the reader for good): anything else in its place is an UnsafeStateFile naming it, never replaced.
import { closeSync, fstatSync, linkSync, readSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { bootId } from '../os/boot-id.js';
import { pidAlive } from '../os/pid-alive.js';
import { processStartTime } from '../os/process-start.js';
import { openRegularSync } from './state-file-guard.js';

export interface LockOwner {
  pid: number;
  bootId: string;
  acquiredAt: string;
  purpose: string;
  /** processStartTime(pid) when the lock was taken; absent in locks written by older versions. */
  startTime?: string;
  /** Random identity of this lock instance; absent in locks written by older versions. */
  token?: string;
}

export type LockAttempt = { ok: true; release: () => void } | { ok: false; holder: LockOwner | null };

/**
 * A lock file whose contents cannot be parsed is stale once it is this old. Locks are created whole
 * by link(2), so they are never seen half-written; markers (work-log-lock.ts) are written right after
 * their exclusive create, a gap of microseconds. Two seconds is far past any such moment, even on a
 * loaded machine, and short next to the waits of an appender (APPEND_WAIT_MS).
 */
export const UNPARSABLE_LOCK_STALE_MS = 2_000;

/** Guards of guards: each level needs a taker killed mid-takeover, so a few levels are plenty. */
const MAX_TAKEOVER_DEPTH = 4;

export function isStale(owner: LockOwner | null, currentBoot = bootId()): boolean {
  if (owner === null) return true;
  if (owner.bootId !== currentBoot) return true;
  // This process is alive: only a start time of another process with our pid makes the lock stale.
  // (The daemon asks this of every session it holds each time `mori ls` lists them.)
  if (owner.pid === process.pid) return owner.startTime !== undefined && owner.startTime !== processStartTime(process.pid);
  if (!pidAlive(owner.pid)) return true;
  if (owner.startTime === undefined) return false;
  const now = processStartTime(owner.pid);
  // Unknown (no ps, no /proc): the pid alone decides, as it did before start times were kept.
  return now !== null && now !== owner.startTime;
}

function parseOwner(text: string): LockOwner | null {
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number' || typeof parsed.bootId !== 'string') return null;
    return {
      pid: parsed.pid,
      bootId: parsed.bootId,
      acquiredAt: String(parsed.acquiredAt ?? ''),
      purpose: String(parsed.purpose ?? ''),
      ...(typeof parsed.startTime === 'string' ? { startTime: parsed.startTime } : {}),
      ...(typeof parsed.token === 'string' ? { token: parsed.token } : {}),
    };
  } catch {
    return null;
  }
}

/** The owner of a lock file, or null when it is absent, unparsable or not a regular file. */
export function readLockOwner(file: string): LockOwner | null {
  try {
    return inspectLock(file)?.owner ?? null;
  } catch {
    return null;
  }
}

/**
 * A lock file's owner (null: unparsable) and age, or null when there is no such file. Throws
 * UnsafeStateFile when the name is a symlink, FIFO or anything but a regular file.
 */
export function inspectLock(file: string): { owner: LockOwner | null; ageMs: number } | null {
  const seen = seeLock(file);
  return seen === null ? null : { owner: seen.owner, ageMs: Date.now() - seen.mtimeMs };
}

/** This process as a lock owner, now, with a fresh token. */
export function currentOwner(purpose: string): LockOwner {
  const startTime = processStartTime(process.pid);
  return {
    pid: process.pid,
    bootId: bootId(),
    acquiredAt: new Date().toISOString(),
    purpose,
    ...(startTime !== null ? { startTime } : {}),
    token: randomUUID(),
  };
}

interface SeenLock {
  owner: LockOwner | null;
  /** Which lock instance this is: its token, or for a lock without one its inode and contents. */
  identity: string;
  mtimeMs: number;
}

/** Reads a lock file's owner and identity from one descriptor, so both describe the same file. */
function seeLock(file: string): SeenLock | null {
  let fd: number;
  try {
    fd = openRegularSync(file, false);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const st = fstatSync(fd);
    const buf = Buffer.alloc(Math.min(st.size, 64 * 1024));
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString('utf8');
    const owner = parseOwner(text);
    const identity = owner?.token ?? `i${st.ino}-${Buffer.from(text).toString('base64url').slice(0, 48)}`;
    return { owner, identity, mtimeMs: st.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** Tries once to take the lock; takes over a stale one. Never waits. */
export function tryLock(file: string, purpose: string): LockAttempt {
  return tryLockAt(file, purpose, 0);
}

function tryLockAt(file: string, purpose: string, depth: number): LockAttempt {
  const owner = currentOwner(purpose);
  const tmp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  // `wx`: a fresh name, never a file (or symlink) someone put there.
  writeFileSync(tmp, JSON.stringify(owner) + '\n', { mode: 0o600, flag: 'wx' });
  try {
    // A few rounds: a lock released or replaced between our looks is looked at again.
    for (let round = 0; round < 3; round++) {
      try {
        linkSync(tmp, file); // atomic create-with-content: fails if the lock exists
        return { ok: true, release: () => releaseIfOurs(file, owner) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const seen = seeLock(file);
      if (seen === null) continue; // released meanwhile
      if (!isStale(seen.owner)) return { ok: false, holder: seen.owner };
      if (depth >= MAX_TAKEOVER_DEPTH) return { ok: false, holder: seen.owner };
      const replaced = replaceStale(file, seen, tmp, depth);
      if (replaced === 'ours') return { ok: true, release: () => releaseIfOurs(file, owner) };
      if (replaced === 'busy') return { ok: false, holder: readLockOwner(file) };
      // 'changed': the lock was released or replaced meanwhile: look again.
    }
    return { ok: false, holder: readLockOwner(file) };
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // renamed into place
    }
  }
}

/**
 * Replaces the stale lock instance `seen` with ours, holding that instance's takeover guard: only
 * one process can hold it, and the instance is checked to still be in place before the rename.
 */
function replaceStale(file: string, seen: SeenLock, tmp: string, depth: number): 'ours' | 'busy' | 'changed' {
  const guard = tryLockAt(`${file}.takeover.${seen.identity}`, 'stale lock takeover', depth + 1);
  if (!guard.ok) return 'busy';
  try {
    const now = seeLock(file);
    if (now === null || now.identity !== seen.identity) return 'changed';
    renameSync(tmp, file);
    return 'ours';
  } finally {
    guard.release();
  }
}

function releaseIfOurs(file: string, owner: LockOwner): void {
  const current = readLockOwner(file);
  if (current && current.pid === owner.pid && current.token === owner.token && current.acquiredAt === owner.acquiredAt) {
    try {
      unlinkSync(file);
    } catch {
      // already gone
    }
  }
}

/** Waits (polling) for a lock held only briefly by others, e.g. around a registry update. */
export async function withLock<T>(file: string, purpose: string, fn: () => Promise<T> | T, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const attempt = tryLock(file, purpose);
    if (attempt.ok) {
      try {
        return await fn();
      } finally {
        attempt.release();
      }
    }
    if (Date.now() > deadline) {
      const h = attempt.holder;
      throw new Error(`${file}: lock held by pid ${h?.pid ?? '?'} (${h?.purpose ?? 'unknown'}) for over ${timeoutMs} ms`);
    }
    // 10-30 ms: registry updates take about a millisecond; jitter keeps waiting processes apart.
    await new Promise((r) => setTimeout(r, 10 + Math.random() * 20));
  }
}
