// Atomic file replacement (DESIGN.md §3): temp file in the same dir → write → fsync → rename → fsync
// the dir (POSIX), so the file is at every moment either its old or its new contents. The temp file
// is created exclusively and never through a symlink, and the rename replaces the name itself, so a
// write never lands in a file the name merely points at. A target that is a symlink (or not a regular
// file), or one in a state dir that is itself a symlink (or whose `.mori/` is), is refused with
// UnsafeStateFile rather than silently replaced. Any Node process.
import { closeSync, constants, fsyncSync, lstatSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { recordOwnWrite } from './own-writes.js';
import { assertPlainStateFile, assertStatePathOf } from './state-file-guard.js';

/** Mode of a new file; an existing file keeps its own (the process umask applies to both). */
const DEFAULT_MODE = 0o644;
const TMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** `<file>.<random>.tmp` beside the file, so the rename stays within one directory (one filesystem). */
export function tempNameFor(file: string): string {
  return `${file}.${randomBytes(6).toString('hex')}.tmp`;
}

function modeFor(file: string, mode: number | undefined): number {
  if (mode !== undefined) return mode;
  try {
    const st = lstatSync(file);
    return st.isFile() ? st.mode & 0o7777 : DEFAULT_MODE;
  } catch {
    return DEFAULT_MODE;
  }
}

/** Writes `data` to a fresh temp file beside `file` and fsyncs it; returns the temp file's name. */
export function writeTempSync(file: string, data: string | Buffer, mode?: number): string {
  assertStatePathOf(file);
  const tmp = tempNameFor(file);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const fd = openSync(tmp, TMP_FLAGS, modeFor(file, mode));
  try {
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkQuietly(tmp);
    throw err;
  }
  closeSync(fd);
  return tmp;
}

/** The asynchronous writeTempSync: the write and fsync run off the event loop. */
export async function writeTemp(file: string, data: string | Buffer, mode?: number): Promise<string> {
  assertStatePathOf(file);
  const tmp = tempNameFor(file);
  const handle = await open(tmp, TMP_FLAGS, modeFor(file, mode));
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  return tmp;
}

export function writeAtomicSync(file: string, data: string | Buffer, mode?: number): void {
  assertPlainStateFile(file);
  const tmp = writeTempSync(file, data, mode);
  try {
    renameSync(tmp, file);
  } catch (err) {
    unlinkQuietly(tmp);
    throw err;
  }
  fsyncDir(path.dirname(file));
  recordOwnWrite(file);
}

export async function writeAtomic(file: string, data: string | Buffer, mode?: number): Promise<void> {
  assertPlainStateFile(file);
  const tmp = await writeTemp(file, data, mode);
  try {
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fsyncDirAsync(path.dirname(file));
  recordOwnWrite(file);
}

/** Makes a rename or create in `dir` durable. Windows cannot open a directory; NTFS journals renames. */
export function fsyncDir(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export async function fsyncDirAsync(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}
