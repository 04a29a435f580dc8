// What a process is connected to, read from /proc (Linux; elsewhere nothing is known): the
// terminals on its stdin, stdout and stderr, and whether its environment names a variable. Used to
// tell whether a process belongs to an agent's terminal. Any Node process.
import { readFileSync, statSync } from 'node:fs';
import { environHas, hasProc } from './process-tree.js';

/** Device numbers of the terminals on a process's stdin, stdout and stderr (Linux). */
export function stdioTtys(pid: number): number[] {
  if (!hasProc) return [];
  const out: number[] = [];
  for (const fd of [0, 1, 2]) {
    try {
      const st = statSync(`/proc/${pid}/fd/${fd}`);
      if (st.isCharacterDevice()) out.push(st.rdev);
    } catch {
      // closed, gone, or not ours to read
    }
  }
  return out;
}

/** Whether the environment a process was started with holds `name=` as a whole entry (Linux). */
export function environNames(pid: number, name: string): boolean {
  if (!hasProc) return false;
  try {
    return environHas(readFileSync(`/proc/${pid}/environ`), Buffer.from(`${name}=`));
  } catch {
    return false;
  }
}
