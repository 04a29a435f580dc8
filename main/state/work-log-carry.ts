// An entry appended to a work log that was renamed over while it was being written (the agent's
// editor saving the whole log as a new file renamed in): the entry went into the old file, which no
// name leads to any more. It is appended again to the file the log's name leads to now, unless that
// file holds it already (the rewriter read the old file after the entry and took it along). Runs
// inside an append, under the shared side of the work log's lock, so Mori's own compaction (which
// renames the log too) is never what replaced it. Any Node process.
import { closeSync, fstatSync, fsyncSync, lstatSync, readSync, writeSync } from 'node:fs';
import { openForAppend, openForRead } from './work-log-files.js';

/** Tries at carrying an entry over: another save may rename a new file in while one try writes. */
const CARRY_TRIES = 3;
/** How far back from the log's end an entry taken along is looked for: the rewriter may add lines of its own after it. */
const LOOK_BACK_BYTES = 256 * 1024;

/** Whether the name `file` still leads to the open file `fd` (same inode on the same device). */
export function stillNamed(fd: number, file: string): boolean {
  try {
    const opened = fstatSync(fd);
    const named = lstatSync(file);
    return opened.ino === named.ino && opened.dev === named.dev;
  } catch {
    return false;
  }
}

/**
 * After `bytes` were appended through `fd`: when the log's name `file` leads to another file now,
 * they are appended to that one (a single write, fsynced) unless it holds them already. Returns the
 * size of the log the name leads to when it had to look, null when the log was not replaced. Throws
 * (UnsafeStateFile) when what is there now is not a plain file of its own: nothing is written
 * through a link, and the caller holds the entry as for any append that failed.
 */
export function carryOver(fd: number, file: string, bytes: Buffer): number | null {
  if (stillNamed(fd, file)) return null;
  let size = 0;
  for (let i = 0; i < CARRY_TRIES; i++) {
    const out = openForAppend(file);
    try {
      if (!holds(file, out, bytes)) {
        let done = 0;
        while (done < bytes.length) done += writeSync(out, bytes, done);
        fsyncSync(out);
      }
      size = fstatSync(out).size;
      if (stillNamed(out, file)) return size;
    } finally {
      closeSync(out);
    }
  }
  return size;
}

/** Whether the file open as `out` holds `bytes` within its last LOOK_BACK_BYTES, read through a second descriptor of that same file. */
function holds(file: string, out: number, bytes: Buffer): boolean {
  const rfd = openForRead(file);
  try {
    const read = fstatSync(rfd);
    const written = fstatSync(out);
    // Replaced again between the two opens: the entry is written, and the next try looks again.
    if (read.ino !== written.ino || read.dev !== written.dev) return false;
    const from = Math.max(0, read.size - LOOK_BACK_BYTES);
    const buf = Buffer.alloc(read.size - from);
    let done = 0;
    while (done < buf.length) {
      const n = readSync(rfd, buf, done, buf.length - done, from + done);
      if (n === 0) break;
      done += n;
    }
    return buf.subarray(0, done).includes(bytes);
  } finally {
    closeSync(rfd);
  }
}
