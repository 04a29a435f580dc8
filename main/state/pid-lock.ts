// An exclusive lock file holding the owner's pid and boot id (DESIGN.md §3). A lock whose pid is gone,
// or that was written in another boot, is stale and may be taken over. Used for the per-session lock
// (one supervisor drives a session) and for short registry updates. Any Node process.
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { bootId } from './boot-id.js';
import { pidAlive } from './pid-alive.js';

export interface LockOwner {
  pid: number;
  bootId: string;
  acquiredAt: string;
  purpose: string;
}

export type LockAttempt = { ok: true; release: () => void } | { ok: false; holder: LockOwner | null };

export function isStale(owner: LockOwner | null, currentBoot = bootId()): boolean {
  if (owner === null) return true;
  return owner.bootId !== currentBoot || !pidAlive(owner.pid);
}

export function readLockOwner(file: string): LockOwner | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number' || typeof parsed.bootId !== 'string') return null;
    return { pid: parsed.pid, bootId: parsed.bootId, acquiredAt: String(parsed.acquiredAt ?? ''), purpose: String(parsed.purpose ?? '') };
  } catch {
    return null;
  }
}

/** This process as a lock owner, now. */
export function currentOwner(purpose: string): LockOwner {
  return { pid: process.pid, bootId: bootId(), acquiredAt: new Date().toISOString(), purpose };
}

/** Tries once to take the lock; takes over a stale one. Never waits. */
export function tryLock(file: string, purpose: string): LockAttempt {
  const owner = currentOwner(purpose);
  const tmp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  writeFileSync(tmp, JSON.stringify(owner) + '\n', { mode: 0o600 });
  try {
    // Two tries: the second after moving a stale lock aside.
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        linkSync(tmp, file); // atomic create-with-content: fails if the lock exists
        return { ok: true, release: () => releaseIfOurs(file, owner) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = readLockOwner(file);
      if (!isStale(holder)) return { ok: false, holder };
      if (!takeOverStale(file, holder)) return { ok: false, holder: readLockOwner(file) };
    }
    return { ok: false, holder: readLockOwner(file) };
  } finally {
    unlinkSync(tmp);
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

/**
 * Moves a stale lock aside under a unique name, then checks that what was moved is the stale lock we
 * judged. If another process had already replaced it with a live lock, that lock is put back.
 */
function takeOverStale(file: string, judged: LockOwner | null): boolean {
  const aside = `${file}.stale.${process.pid}.${randomUUID()}`;
  try {
    renameSync(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true; // released meanwhile: retry
    throw err;
  }
  const moved = readLockOwner(aside);
  const same = moved === null ? judged === null : judged !== null && moved.pid === judged.pid && moved.acquiredAt === judged.acquiredAt;
  if (!same && !isStale(moved)) {
    try {
      linkSync(aside, file);
    } catch {
      // a third process took the lock meanwhile; it holds it either way
    }
    unlinkSync(aside);
    return false;
  }
  unlinkSync(aside);
  return true;
}

function releaseIfOurs(file: string, owner: LockOwner): void {
  const current = readLockOwner(file);
  if (current && current.pid === owner.pid && current.acquiredAt === owner.acquiredAt) {
    try {
      unlinkSync(file);
    } catch {
      // already gone
    }
  }
}
