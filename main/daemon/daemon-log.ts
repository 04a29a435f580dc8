// The daemon's log files under `$MORI_HOME/logs/` (DESIGN.md §12): one line per event in daemon.log,
// rotated by size (daemon.log → daemon.1.log → … ), and the process's stderr in daemon.err.log,
// rotated when a daemon starts. Runs in the daemon and in the client that starts it.
import { appendFileSync, existsSync, mkdirSync, renameSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';

export const LOG_DIR = 'logs';
export const DAEMON_LOG = 'daemon.log';
export const DAEMON_ERR_LOG = 'daemon.err.log';
/** 5 MiB per file: weeks of events for a few sessions, and quick to open in any editor. */
export const LOG_MAX_BYTES = 5 * 1024 * 1024;
/** Rotated files kept besides the current one: 20 MiB of history at most. */
export const LOG_KEEP = 3;

export const logDir = (home: string): string => path.join(home, LOG_DIR);

export function ensureLogDir(home: string): string {
  const dir = logDir(home);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** file → file.1 → … → file.KEEP (the oldest dropped). `daemon.log` becomes `daemon.1.log`. */
export function rotate(file: string, keep = LOG_KEEP): void {
  const ext = path.extname(file);
  const stem = file.slice(0, file.length - ext.length);
  const nth = (n: number): string => `${stem}.${n}${ext}`;
  if (existsSync(nth(keep))) unlinkSync(nth(keep));
  for (let n = keep - 1; n >= 1; n--) if (existsSync(nth(n))) renameSync(nth(n), nth(n + 1));
  if (existsSync(file)) renameSync(file, nth(1));
}

export function rotateIfLarger(file: string, maxBytes = LOG_MAX_BYTES): void {
  try {
    if (statSync(file).size > maxBytes) rotate(file);
  } catch {
    // no file yet
  }
}

/** Appends lines to a log file, rotating it when it passes maxBytes. */
export class RotatingLog {
  private size: number;

  constructor(private readonly file: string, private readonly maxBytes = LOG_MAX_BYTES) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      this.size = statSync(file).size;
    } catch {
      this.size = 0;
    }
  }

  write(line: string): void {
    const text = line.endsWith('\n') ? line : line + '\n';
    try {
      if (this.size + text.length > this.maxBytes && this.size > 0) {
        rotate(this.file);
        this.size = 0;
      }
      appendFileSync(this.file, text, { mode: 0o600 });
      this.size += Buffer.byteLength(text);
    } catch {
      // a full disk must not stop supervision
    }
  }
}
