// Records of the programs this process runs in direct terminals, one small JSON file each under
// `<runDir>/direct/`, so the next Mori process can end what a crashed one left behind (orphans,
// `setsid` children). Runs in the supervisor's process.
import { mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { collectTree, killTree, procInfo } from '../os/process-tree.js';

export interface PidRecord {
  id: string;
  marker: string;
  pid: number;
  startTime: number;
  ownerPid: number;
  ownerStartTime: number;
}

const recordDir = (runDir: string): string => path.join(runDir, 'direct');
const recordFile = (runDir: string, id: string): string => path.join(recordDir(runDir), `${id}.json`);

/** The same process as recorded: alive, and not a new process that reused the pid. */
function stillRuns(pid: number, startTime: number): boolean {
  const info = procInfo(pid);
  return info !== null && (startTime === 0 || info.startTime === startTime);
}

export function writePidRecord(runDir: string, record: Omit<PidRecord, 'startTime' | 'ownerPid' | 'ownerStartTime'>): void {
  mkdirSync(recordDir(runDir), { recursive: true });
  const full: PidRecord = {
    ...record,
    startTime: procInfo(record.pid)?.startTime ?? 0,
    ownerPid: process.pid,
    ownerStartTime: procInfo(process.pid)?.startTime ?? 0,
  };
  const file = recordFile(runDir, record.id);
  writeFileSync(`${file}.tmp`, JSON.stringify(full));
  renameSync(`${file}.tmp`, file);
}

export function removePidRecord(runDir: string, id: string): void {
  try {
    unlinkSync(recordFile(runDir, id));
  } catch {
    // already gone
  }
}

export function readPidRecords(runDir: string): PidRecord[] {
  let names: string[];
  try {
    names = readdirSync(recordDir(runDir));
  } catch {
    return [];
  }
  const out: PidRecord[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    try {
      out.push(JSON.parse(readFileSync(path.join(recordDir(runDir), name), 'utf8')) as PidRecord);
    } catch {
      // half-written or corrupt: its processes can still be found by marker on the next sweep
    }
  }
  return out;
}

/**
 * Ends the processes of direct terminals whose owning Mori process is gone, and forgets their
 * records. Records of live owners (another Mori process) are left alone. Returns the pids ended.
 */
export async function sweepOrphans(runDir: string): Promise<number[]> {
  const swept: number[] = [];
  for (const record of readPidRecords(runDir)) {
    if (stillRuns(record.ownerPid, record.ownerStartTime)) continue;
    const root = stillRuns(record.pid, record.startTime) ? record.pid : null;
    if (root !== null || collectTree(null, record.marker).length > 0) swept.push(...(await killTree(root, record.marker)));
    removePidRecord(runDir, record.id);
  }
  return swept;
}
