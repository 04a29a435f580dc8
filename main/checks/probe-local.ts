// The local check kinds (DESIGN.md §7): `file` (exists, relative to the project dir) and `pid` (alive,
// and in the same boot as when the pid was written: after a reboot the number may belong to anything).
// Runs in the supervisor and the CLI.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ProbeResult } from './probe-network.js';
import { pidAlive } from '../os/pid-alive.js';

export async function probeFile(target: string, projectDir: string): Promise<ProbeResult> {
  const file = path.resolve(projectDir, target);
  try {
    const st = await stat(file);
    return { status: 'pass', detail: st.isDirectory() ? `${target} exists (a directory)` : `${target} exists (${st.size} bytes)` };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { status: 'fail', detail: code === 'ENOENT' ? `${target}: no such file in ${projectDir}` : `${target}: ${code ?? (err as Error).message}` };
  }
}

/**
 * The pid verdict, pure: a pid recorded in another boot fails even when that number is alive now.
 * `recordedBoot` null means Mori has no record of the pid's boot (the caller records it first).
 */
export function pidVerdict(pid: number, alive: boolean, recordedBoot: string | null, currentBoot: string): ProbeResult {
  if (recordedBoot !== null && recordedBoot !== currentBoot) {
    return {
      status: 'fail',
      detail: `pid ${pid} was written in another boot (${recordedBoot.slice(0, 8)}…, now ${currentBoot.slice(0, 8)}…); ${alive ? 'that number now belongs to some other process' : 'it is gone'}`,
    };
  }
  return alive ? { status: 'pass', detail: `pid ${pid} is running` } : { status: 'fail', detail: `pid ${pid} is not running` };
}

export function probePid(target: string, recordedBoot: string | null, currentBoot: string): ProbeResult {
  const pid = Number(target);
  return pidVerdict(pid, pidAlive(pid), recordedBoot, currentBoot);
}
