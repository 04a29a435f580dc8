// Whether a process id is alive on this machine (signal 0; EPERM means it exists but is not ours).
// A zombie is not alive: it has exited, and only waits for its parent (or an init that may be slow to
// reap, as in containers) to collect its status; its locks and sockets are gone with it. Linux tells
// zombies apart in /proc/<pid>/stat; elsewhere signal 0 is the answer. Any Node process.
import { readFileSync } from 'node:fs';

export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

/** Linux: the state letter after the command name in /proc/<pid>/stat is Z (zombie) or X (dead). */
function isZombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may itself hold spaces or parentheses: read after the last ')'.
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch (err) {
    // Gone between the two looks: as good as a zombie. Otherwise (no /proc) signal 0's answer stands.
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}
