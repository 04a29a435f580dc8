// A small filesystem for a project, the soak's and the disk-full tests' (Linux, root or CAP_SYS_ADMIN):
// a tmpfs mounted on a dir before anything is made in it, filled to the last byte by a filler file (as
// an agent's runaway output fills a disk), emptied again, and unmounted at the end. Where no tmpfs can
// be mounted it says why (the soak does not draw its disk-full fault; a test is skipped with the
// reason). Runs in the soak's process and in tests.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, statfsSync, statSync, truncateSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * The small disk's size: room for the project's repository and state (a few hundred KiB), the
 * agent's bad-input fault's 5 MB session_state.md while it lasts, and the work log's growth over a
 * night; small enough that filling it is a few milliseconds of memory.
 */
export const SMALL_DISK_BYTES = 8 * 1024 * 1024;
/** The filler's name in the project: an agent's runaway output. */
export const FILLER = 'runaway-output.log';
/** Filler chunks: large while they fit, then one byte at a time down to the last free byte. */
const CHUNKS = [1024 * 1024, 64 * 1024, 4096, 512, 1] as const;

export interface Mounted {
  dir: string;
}

/** Mounts a tmpfs of `bytes` on `dir` (made if absent): the mount, or the reason it cannot be. */
export function mountSmallDisk(dir: string, bytes = SMALL_DISK_BYTES): Mounted | { skipped: string } {
  if (process.platform !== 'linux') return { skipped: `a tmpfs needs Linux (this is ${process.platform})` };
  if (process.getuid?.() !== 0) return { skipped: 'mounting a tmpfs needs root (CAP_SYS_ADMIN); the soak runs as uid ' + String(process.getuid?.()) };
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0755`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) return { skipped: `mount -t tmpfs failed: ${(r.stderr || r.error?.message || `exit ${r.status}`).trim()}` };
  return { dir };
}

/** Unmounts it; lazily when something still has it open (a process the cleanup could not end). */
export function unmountSmallDisk(m: Mounted): void {
  if (spawnSync('umount', [m.dir], { stdio: 'ignore' }).status === 0) return;
  spawnSync('umount', ['-l', m.dir], { stdio: 'ignore' });
}

/** Bytes still free on the filesystem of `dir`. */
export function freeBytes(dir: string): number {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}

/**
 * Fills the filesystem of `dir` with a filler file written until ENOSPC, each chunk size in turn,
 * so not a byte is left; returns the filler's size.
 */
export function fill(dir: string): number {
  const file = path.join(dir, FILLER);
  const fd = openSync(file, 'a');
  let size = 0;
  try {
    for (const chunk of CHUNKS) {
      const buf = Buffer.alloc(chunk, 0x2e);
      for (;;) {
        try {
          size += writeSync(fd, buf);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw err;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return size;
}

/** Gives back the filler's last `bytes` (a block's worth frees one block): a disk nearly full. */
export function freeUp(dir: string, bytes: number): void {
  const file = path.join(dir, FILLER);
  truncateSync(file, Math.max(0, statSync(file).size - bytes));
}

/** Removes the filler: the space comes back. */
export function release(dir: string): void {
  rmSync(path.join(dir, FILLER), { force: true });
}
