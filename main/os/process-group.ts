// Process groups (of the commands Mori runs: checks, services, git): signal a whole group, and tell
// whether a group still has a live member. On Linux a process that exited but was never
// reaped (a zombie: in containers pid 1 often does not reap) still answers signal 0, so liveness
// reads the process state from /proc instead. Any Node process.
import { readdirSync, readFileSync } from 'node:fs';

/** Sends a signal to every process in the group; false when the group is already gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

interface ProcStat {
  state: string;
  pgrp: number;
}

/** Fields of /proc/<pid>/stat after the command name (which may itself contain spaces and parens). */
function procStat(pid: number | string): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '?', pgrp: Number(fields[2]) };
  } catch {
    return null;
  }
}

const hasProc = process.platform === 'linux';

/** Live (non-zombie) members of a process group. */
export function groupMembers(pgid: number): number[] {
  if (!hasProc) {
    try {
      process.kill(-pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const st = procStat(entry);
    if (st && st.pgrp === pgid && st.state !== 'Z' && st.state !== 'X') out.push(Number(entry));
  }
  return out;
}

export function groupAlive(pgid: number): boolean {
  return groupMembers(pgid).length > 0;
}
