// Refuses to write a state file that is not plainly a file of its state dir (DESIGN.md §11): a
// symlink (which could point at any of the person's files), a hard link to some other name, or
// anything that is not a regular file. Every write path of main/state/ checks here first, and appends
// open with O_NOFOLLOW so a symlink planted between the check and the open is refused as well.
// Any Node process.
import { constants, fstatSync, lstatSync, readlinkSync, type Stats } from 'node:fs';

/** A state file Mori will not write through. The message names the file and says why. */
export class UnsafeStateFile extends Error {
  readonly code = 'unsafe-state-file';
  constructor(readonly file: string, why: string) {
    super(`${file}: ${why}; Mori does not write through it (replace it with a regular file)`);
    this.name = 'UnsafeStateFile';
  }
}

/** Open flags for appending to a state file: never through a symlink, never blocking on a FIFO. */
export const APPEND_FLAGS =
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
/** Open flags for reading a state file that is about to be rewritten. */
export const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Throws UnsafeStateFile unless `file` is absent or a regular file. `appended`: the file is written in
 * place (not replaced by a rename), so a second hard link — another name for the same bytes, possibly
 * outside the state dir — is refused too.
 */
export function assertPlainStateFile(file: string, appended = false): void {
  let st: Stats;
  try {
    st = lstatSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (st.isSymbolicLink()) throw new UnsafeStateFile(file, `is a symbolic link (to ${linkTarget(file)})`);
  checkOpened(file, st, appended);
}

/** The same checks on an open descriptor (after an O_NOFOLLOW open). */
export function assertPlainOpenedFile(file: string, fd: number, appended: boolean): void {
  checkOpened(file, fstatSync(fd), appended);
}

/** Turns the errors of an O_NOFOLLOW / O_NONBLOCK open into UnsafeStateFile where they mean one. */
export function refusalFor(file: string, err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  // ELOOP: the last component is a symlink (Linux, macOS); EMLINK: the same on FreeBSD.
  if (code === 'ELOOP' || code === 'EMLINK') return new UnsafeStateFile(file, `is a symbolic link (to ${linkTarget(file)})`);
  if (code === 'ENXIO') return new UnsafeStateFile(file, 'is a named pipe or socket, not a file');
  return err;
}

function checkOpened(file: string, st: Stats, appended: boolean): void {
  if (!st.isFile()) throw new UnsafeStateFile(file, 'is not a regular file');
  if (appended && st.nlink > 1) throw new UnsafeStateFile(file, `has ${st.nlink} hard links, so its bytes may also belong to a file elsewhere`);
}

function linkTarget(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return 'somewhere else';
  }
}
