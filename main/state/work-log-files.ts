// The low-level opens, reads and appends the work-log modules share:
// every open refuses a symlink (O_NOFOLLOW) and an append refuses a file with other hard links
// (state-file-guard.ts); an append the disk cut short is taken back (takeBackShortAppend). Any Node process.
import { closeSync, fstatSync, fsyncSync, ftruncateSync, readSync, statfsSync, writeSync } from 'node:fs';
import path from 'node:path';
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

/**
 * Takes back an append that stopped part-way (a full disk writes what fits in the last block and no
 * more): the first `written` bytes of `bytes`, at the end of the file, are cut off again, so the file
 * is as it was and no torn line is left for the next writer's line to join. Only while they are still
 * the file's last bytes, read back through a second descriptor of the same file: another writer's
 * append after them (possible only once space came back) is never cut. True when taken back.
 */
export function takeBackShortAppend(fd: number, file: string, bytes: Buffer, written: number): boolean {
  try {
    const st = fstatSync(fd);
    if (written <= 0 || st.size < written) return false;
    const rfd = openForRead(file);
    try {
      const rst = fstatSync(rfd);
      if (rst.ino !== st.ino || rst.dev !== st.dev) return false;
      const tail = Buffer.alloc(written);
      if (readSync(rfd, tail, 0, written, st.size - written) !== written || !tail.equals(bytes.subarray(0, written))) return false;
    } finally {
      closeSync(rfd);
    }
    // Read again just before the cut: an append that came meanwhile is not ours to cut.
    if (fstatSync(fd).size !== st.size) return false;
    ftruncateSync(fd, st.size - written);
    return true;
  } catch {
    return false;
  }
}

/**
 * The error of an append that wrote `written` of `length` bytes: ENOSPC when the disk has no space
 * left (a short write carries no error of its own), and whether the part written was taken back.
 */
export function shortAppendError(file: string, written: number, length: number, takenBack: boolean): Error {
  let full = false;
  try {
    full = statfsSync(path.dirname(file)).bavail === 0;
  } catch {
    // the reason stays unknown
  }
  const err = new Error(
    `${file}: ${full ? 'no space left on device (ENOSPC): ' : ''}short write (${written} of ${length} bytes), ${takenBack ? 'taken back: the file is as it was' : 'left in place: other lines followed it'}`,
  ) as NodeJS.ErrnoException;
  if (full) err.code = 'ENOSPC';
  return err;
}

export function readWhole(file: string): Buffer {
  const fd = openForRead(file);
  try {
    return readFd(fd);
  } finally {
    closeSync(fd);
  }
}

