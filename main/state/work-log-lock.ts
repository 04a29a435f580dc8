// Shared/exclusive locking of work_log.md between Mori's appenders (shared: any number at once) and
// its compaction (exclusive), across processes, with plain files (Node has no flock):
//   - an appender creates a marker file `work_log.appending.<pid>.<random>`, THEN looks for the
//     compaction lock; if a live compaction holds it, the appender removes its marker, waits, retries;
//   - compaction takes `work_log.compact.lock` (pid-lock), THEN waits until no live marker is left.
// Each side writes its own file before looking for the other's, so at least one of them sees the
// other: an appender's write can never land in the old file after compaction's last read of it.
// Appenders come first: one that had to wait leaves a `work_log.waiting.<pid>.<random>` marker, and
// no compaction starts while one exists (compaction is only deferred to a later append; an entry
// that waits for seconds is not). Markers and locks of processes that died are stale and ignored
// (markers are removed). Any process.
import { readdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { unlinkQuietly } from './atomic-write.js';
import { pidAlive } from '../os/pid-alive.js';
import { currentOwner, inspectLock, isStale, tryLock, UNPARSABLE_LOCK_STALE_MS } from './pid-lock.js';
import { WORK_LOG } from '../../common/state-files.js';

export const COMPACT_LOCK = 'work_log.compact.lock';
const MARKER_PREFIX = 'work_log.appending.';
const WAITING_PREFIX = 'work_log.waiting.';
/**
 * How long an appender waits for a compaction before giving up with an error. Compaction of a
 * 256 KiB log takes milliseconds; seconds mean the compactor is stopped (SIGSTOP, a debugger).
 */
export const APPEND_WAIT_MS = 5_000;
/** How long compaction waits for appenders in flight (each one write + fsync) before skipping this time. */
const COMPACT_WAIT_MS = 1_000;
/** Poll interval of both waits, with jitter so waiting processes spread out. */
const POLL_MS = 2;

/** Blocks the thread for `ms` (only in the short waits above; appendEntry is synchronous by contract). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * The live compaction's pid, or null. A lock that is a FIFO, symlink or other non-file throws
 * UnsafeStateFile (the append is refused, naming it); an unparsable one older than
 * UNPARSABLE_LOCK_STALE_MS is stale.
 */
function compactionRunning(stateDir: string): { pid: number } | null {
  const seen = inspectLock(path.join(stateDir, COMPACT_LOCK));
  if (seen === null) return null;
  // Unparsable and young: being written this instant (it is created whole by link, so rarely); wait.
  if (seen.owner === null) return seen.ageMs > UNPARSABLE_LOCK_STALE_MS ? null : { pid: 0 };
  return isStale(seen.owner) ? null : { pid: seen.owner.pid };
}

function createMarker(stateDir: string, prefix: string): string {
  const marker = path.join(stateDir, `${prefix}${process.pid}.${randomBytes(6).toString('hex')}`);
  try {
    writeFileSync(marker, JSON.stringify(currentOwner('work log append')) + '\n', { flag: 'wx', mode: 0o600 });
  } catch (err) {
    // Created and not written (a full disk: the name takes no space, its content does): an empty
    // marker of a live process would be left for every append that failed.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') unlinkQuietly(marker);
    throw err;
  }
  return marker;
}

function busyError(stateDir: string, pid: number): Error {
  return new Error(`${path.join(stateDir, WORK_LOG)}: being compacted by pid ${pid} for over ${APPEND_WAIT_MS} ms; entry not written`);
}

/**
 * One attempt at the shared side: the release when it is taken, else the compactor's pid (and a
 * waiting marker is left, so no further compaction starts before this append).
 */
function attempt(stateDir: string, waiting: { marker: string | null }): (() => void) | { pid: number } {
  const marker = createMarker(stateDir, MARKER_PREFIX);
  let running: { pid: number } | null;
  try {
    running = compactionRunning(stateDir);
  } catch (err) {
    // A lock that is not a file: this append is refused, and leaves nothing behind.
    unlinkQuietly(marker);
    if (waiting.marker !== null) unlinkQuietly(waiting.marker);
    throw err;
  }
  if (running === null) {
    return () => {
      unlinkQuietly(marker);
      if (waiting.marker !== null) unlinkQuietly(waiting.marker);
    };
  }
  unlinkQuietly(marker);
  waiting.marker ??= createMarker(stateDir, WAITING_PREFIX);
  return running;
}

/** A compaction holds the log and the caller chose not to wait (beginAppendSync with no wait). */
export class CompactionBusy extends Error {
  readonly code = 'compaction-busy';
}

/**
 * Takes the shared side for one append; returns the release. Throws when a compaction never ends.
 * `waitMs` 0: never sleeps (a process with an event loop to keep: the daemon); throws CompactionBusy
 * at once instead, and the caller appends later without blocking (beginAppend).
 */
export function beginAppendSync(stateDir: string, waitMs = APPEND_WAIT_MS): () => void {
  if (waitMs === 0) {
    const waiting = { marker: null as string | null };
    const r = attempt(stateDir, waiting);
    if (typeof r === 'function') return r;
    if (waiting.marker !== null) unlinkQuietly(waiting.marker);
    throw new CompactionBusy(`${path.join(stateDir, WORK_LOG)}: being compacted by pid ${r.pid}`);
  }
  const deadline = Date.now() + waitMs;
  const waiting = { marker: null as string | null };
  for (;;) {
    const r = attempt(stateDir, waiting);
    if (typeof r === 'function') return r;
    if (Date.now() > deadline) {
      if (waiting.marker !== null) unlinkQuietly(waiting.marker);
      throw busyError(stateDir, r.pid);
    }
    sleepSync(POLL_MS + Math.random() * POLL_MS);
  }
}

/** beginAppendSync, waiting without blocking the event loop. */
export async function beginAppend(stateDir: string): Promise<() => void> {
  const deadline = Date.now() + APPEND_WAIT_MS;
  const waiting = { marker: null as string | null };
  for (;;) {
    const r = attempt(stateDir, waiting);
    if (typeof r === 'function') return r;
    if (Date.now() > deadline) {
      if (waiting.marker !== null) unlinkQuietly(waiting.marker);
      throw busyError(stateDir, r.pid);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS + Math.random() * POLL_MS));
  }
}

/**
 * Runs `fn` holding the exclusive side, once no append is in flight. Returns null, without running
 * it, when another compaction holds the lock, when appenders stay in flight past COMPACT_WAIT_MS, or
 * when an append of this very process is in flight (it cannot finish while this thread waits).
 * `waitMs` 0: never sleeps; appenders in flight mean it is skipped this time.
 */
export function withExclusiveSync<T>(stateDir: string, fn: () => T, waitMs = COMPACT_WAIT_MS): T | null {
  if (liveMarkers(stateDir, WAITING_PREFIX).length > 0) return null; // an appender waits: it goes first
  const lock = tryLock(path.join(stateDir, COMPACT_LOCK), 'work log compaction');
  if (!lock.ok) return null;
  try {
    const deadline = Date.now() + waitMs;
    for (;;) {
      if (liveMarkers(stateDir, WAITING_PREFIX).length > 0) return null;
      const live = liveMarkers(stateDir, MARKER_PREFIX);
      if (live.length === 0) break;
      if (live.some((m) => m.pid === process.pid) || Date.now() >= deadline) return null;
      sleepSync(POLL_MS + Math.random() * POLL_MS);
    }
    return fn();
  } finally {
    lock.release();
  }
}

/** Markers of processes still alive; markers left by dead processes are removed. */
function liveMarkers(stateDir: string, prefix: string): { pid: number }[] {
  const live: { pid: number }[] = [];
  for (const name of readdirSync(stateDir)) {
    if (!name.startsWith(prefix)) continue;
    const file = path.join(stateDir, name);
    let seen: ReturnType<typeof inspectLock>;
    try {
      seen = inspectLock(file);
    } catch {
      continue; // not a file (a FIFO, a symlink): not a marker of Mori's; left as it is
    }
    if (seen === null) continue;
    const owner = seen.owner;
    if (owner === null) {
      // Created this instant and not yet written (writeFileSync is open-then-write): its pid is in the
      // name. Past UNPARSABLE_LOCK_STALE_MS it is garbage, whoever's pid the name says.
      const pid = Number(name.slice(prefix.length).split('.')[0]);
      if (!pidAlive(pid) || seen.ageMs > UNPARSABLE_LOCK_STALE_MS) unlinkQuietly(file);
      else live.push({ pid });
      continue;
    }
    if (isStale(owner)) unlinkQuietly(file);
    else live.push({ pid: owner.pid });
  }
  return live;
}
