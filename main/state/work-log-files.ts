// The low-level opens, reads and appends the work-log modules share:
// every open refuses a symlink (O_NOFOLLOW) and an append refuses a file with other hard links
// (state-file-guard.ts). Any Node process.
import { closeSync, fsyncSync, writeSync } from 'node:fs';
import { openRegularSync, openStateFileSync, readFd } from './state-file-guard.js';

export { readFd };

/** Opens a log for appending: never through a symlink, never a file with other names, never a FIFO. */
export function openForAppend(file: string): number {
  return openStateFileSync(file);
}

/** Opens a log for reading: a regular file only (a FIFO would block the read), never through a symlink. */
export function openForRead(file: string): number {
  return openRegularSync(file, false);
}

/** Appends all of `bytes` and fsyncs. */
export function appendDurably(file: string, bytes: Buffer): void {
  const fd = openForAppend(file);
  try {
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function readWhole(file: string): Buffer {
  const fd = openForRead(file);
  try {
    return readFd(fd);
  } finally {
    closeSync(fd);
  }
}

