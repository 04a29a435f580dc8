// The one way Mori opens a file of a state dir (DESIGN.md §11). A state dir is agent-writable, so
// any name in it may be a symlink to one of the person's files, a hard link to one, a symlinked
// directory, or a FIFO that would block whoever opens or reads it. Here:
//   - every directory from `.mori/` down to the file is checked to be a real directory, not a
//     symlink (and on Linux the opened descriptor's real path is checked to be where it should be,
//     which catches a directory swapped for a symlink between that check and the open);
//   - the file itself is opened with O_NOFOLLOW | O_NONBLOCK, then fstat'd: only a regular file is
//     used, and one written in place (appended) must have exactly one link;
//   - whatever fails is an UnsafeStateFile naming the file and what was wrong. Nothing is replaced.
// Reads of state files go through readRegularFileSync, which never blocks on a FIFO. Any Node process.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readlinkSync, readSync, realpathSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** The directory of a project that holds its state dirs: `<project>/.mori/<name>/`. */
export const STATE_ROOT = '.mori';

/** A state file (or directory) Mori will not use. The message names it and says why. */
export class UnsafeStateFile extends Error {
  /** Not `code`: callers that report an OS error's code report this one's message instead. */
  readonly kind = 'unsafe-state-file';
  constructor(
    readonly file: string,
    why: string,
    remedy = 'replace it with a regular file',
  ) {
    super(`${file}: ${why}; Mori does not use it (${remedy})`);
    this.name = 'UnsafeStateFile';
  }
}

/** Open flags for appending to a state file: never through a symlink, never blocking on a FIFO. */
export const APPEND_FLAGS =
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
/** Open flags for reading a state file that is about to be rewritten. */
export const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
/** Open flags for reading a file whose name may be a symlink (read only, so not a write outside). */
const READ_FOLLOW_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

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

/** What is wrong with `file` as a state file (a symlink, not a regular file, other links), or null. */
export function stateFileDefect(file: string, appended = true): string | null {
  try {
    assertPlainStateFile(file, appended);
    return null;
  } catch (err) {
    return err instanceof UnsafeStateFile ? err.message : null;
  }
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
  // ENXIO: a FIFO opened for writing with no reader (O_NONBLOCK), or a socket.
  if (code === 'ENXIO') return new UnsafeStateFile(file, 'is a named pipe or socket, not a file');
  return err;
}

/**
 * Checks that every directory from the state dir's `.mori/` down to `file`'s directory is a real
 * directory (no symlink to elsewhere), and returns the real path of `file`'s directory. `stateDir`
 * defaults to the file's own directory.
 */
export function assertStatePath(file: string, stateDir = path.dirname(file)): string {
  return assertStateDirChain(file, path.dirname(path.resolve(file)), stateDir);
}

/** assertStatePath for a directory `dir` of the state dir (the state dir itself included). */
function assertStateDirChain(file: string, dir: string, stateDir: string): string {
  const root = path.resolve(stateDir);
  const rel = path.relative(root, dir);
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) throw new UnsafeStateFile(file, `is outside its state dir ${root}`, 'this is a bug in Mori');
  const chain = path.basename(path.dirname(root)) === STATE_ROOT ? [path.dirname(root), root] : [root];
  let at = root;
  for (const part of rel === '' ? [] : rel.split(path.sep)) chain.push((at = path.join(at, part)));
  for (const d of chain) {
    const st = lstatSync(d);
    if (st.isSymbolicLink()) throw new UnsafeStateFile(d, `is a symbolic link (to ${linkTarget(d)}), not a directory of the state dir`, 'replace it with a real directory');
    if (!st.isDirectory()) throw new UnsafeStateFile(d, 'is not a directory', 'replace it with a real directory');
  }
  return realpathSync(dir);
}

/** When `file` lies directly in a state dir (`…/.mori/<name>/file`), checks its path as assertStatePath does. */
export function assertStatePathOf(file: string): void {
  const dir = path.dirname(path.resolve(file));
  if (path.basename(path.dirname(dir)) === STATE_ROOT) assertStatePath(file, dir);
}

/**
 * Creates `<stateDir>/<name>/` when absent (never through a symlink: mkdir does not follow one) and
 * checks the whole path as assertStatePath does. Returns its path.
 */
export function ensureStateSubdir(stateDir: string, name: string): string {
  const dir = path.join(stateDir, name);
  try {
    lstatSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    try {
      // Not recursive: the state dir itself must exist already (and is checked below).
      mkdirSync(dir, { mode: 0o755 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  assertStateDirChain(dir, path.resolve(dir), stateDir);
  return dir;
}

/**
 * Opens a state file for appending (created when absent): the directories on its path and the file
 * itself are checked as described above. Returns the descriptor; throws UnsafeStateFile on a refusal.
 */
export function openStateFileSync(file: string, stateDir = path.dirname(file), mode = 0o644): number {
  const realDir = assertStatePath(file, stateDir);
  let fd: number;
  try {
    fd = openSync(file, APPEND_FLAGS, mode);
  } catch (err) {
    throw refusalFor(file, err);
  }
  try {
    assertPlainOpenedFile(file, fd, true);
    assertOpenedIn(file, fd, realDir);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return fd;
}

/** openStateFileSync with the open off the event loop. */
export async function openStateFile(file: string, stateDir = path.dirname(file), mode = 0o644): Promise<FileHandle> {
  const realDir = assertStatePath(file, stateDir);
  let handle: FileHandle;
  try {
    handle = await open(file, APPEND_FLAGS, mode);
  } catch (err) {
    throw refusalFor(file, err);
  }
  try {
    assertPlainOpenedFile(file, handle.fd, true);
    assertOpenedIn(file, handle.fd, realDir);
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle;
}

/** Everything in the open file, from its start to its size now. */
export function readFd(fd: number): Buffer {
  const size = fstatSync(fd).size;
  const buf = Buffer.alloc(size);
  let done = 0;
  while (done < size) {
    const n = readSync(fd, buf, done, size - done, done);
    if (n === 0) break;
    done += n;
  }
  return buf.subarray(0, done);
}

/**
 * The whole of a file that must be a regular file, read without ever blocking: a FIFO, socket or
 * device in its place is an UnsafeStateFile. `follow`: the name may be a symlink (a read through it
 * writes nothing); otherwise a symlink is refused too. ENOENT and other OS errors are thrown as they are.
 */
export function readRegularFileSync(file: string, follow = true): Buffer {
  const fd = openRegularSync(file, follow);
  try {
    return readFd(fd);
  } finally {
    closeSync(fd);
  }
}

/** A read-only descriptor of `file`, checked to be a regular file (see readRegularFileSync). */
export function openRegularSync(file: string, follow = true): number {
  let fd: number;
  try {
    fd = openSync(file, follow ? READ_FOLLOW_FLAGS : READ_FLAGS);
  } catch (err) {
    throw refusalFor(file, err);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UnsafeStateFile(file, `is ${kindOf(st)}, not a regular file`);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return fd;
}

function checkOpened(file: string, st: Stats, appended: boolean): void {
  if (!st.isFile()) throw new UnsafeStateFile(file, `is ${kindOf(st)}, not a regular file`);
  if (appended && st.nlink > 1) throw new UnsafeStateFile(file, `has ${st.nlink} hard links, so its bytes may also belong to a file elsewhere`);
}

/** Linux: the descriptor's real path must lie in `realDir` (a directory swapped after the checks is caught). */
function assertOpenedIn(file: string, fd: number, realDir: string): void {
  if (process.platform !== 'linux') return;
  let actual: string;
  try {
    actual = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return; // no /proc: the directory checks before the open stand alone
  }
  if (path.dirname(actual) !== realDir) throw new UnsafeStateFile(file, `was opened at ${actual}, outside its state dir (a directory on its path changed meanwhile)`);
}

function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'something else';
}

function linkTarget(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return 'somewhere else';
  }
}
