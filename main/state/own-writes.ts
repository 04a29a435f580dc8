// Remembers the files this process just wrote (size + mtime after the write), so the state watcher
// can tell Mori's own writes from edits by the agent or a person. In-process only. Any Node process.
import { statSync } from 'node:fs';
import path from 'node:path';

interface Stamp {
  size: number;
  mtimeNs: bigint;
}

const stamps = new Map<string, Stamp>();

function stampOf(file: string): Stamp | null {
  try {
    const st = statSync(file, { bigint: true });
    return { size: Number(st.size), mtimeNs: st.mtimeNs };
  } catch {
    return null;
  }
}

/** Call right after writing `file`. */
export function recordOwnWrite(file: string): void {
  const s = stampOf(file);
  if (s) stamps.set(path.resolve(file), s);
}

/** True when the file is exactly as this process last wrote it. */
export function isOwnWrite(file: string): boolean {
  const mine = stamps.get(path.resolve(file));
  if (!mine) return false;
  const now = stampOf(file);
  return now !== null && now.size === mine.size && now.mtimeNs === mine.mtimeNs;
}
