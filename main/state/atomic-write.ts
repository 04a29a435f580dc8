// Atomic file replacement (DESIGN.md §3): temp file in the same dir → write → fsync → rename →
// fsync the dir. write-file-atomic does the first four; the directory fsync, which makes the rename
// itself durable on POSIX, is ours. Runs in any Node process.
import { closeSync, fsyncSync, openSync } from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { recordOwnWrite } from './own-writes.js';

export async function writeAtomic(file: string, data: string | Buffer, mode?: number): Promise<void> {
  await writeFileAtomic(file, data, { fsync: true, ...(mode === undefined ? {} : { mode }) });
  fsyncDir(path.dirname(file));
  recordOwnWrite(file);
}

export function writeAtomicSync(file: string, data: string | Buffer, mode?: number): void {
  writeFileAtomic.sync(file, data, { fsync: true, ...(mode === undefined ? {} : { mode }) });
  fsyncDir(path.dirname(file));
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
