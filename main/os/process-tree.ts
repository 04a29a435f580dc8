// Finding and ending every process a terminal started (DESIGN.md §6): its descendants by parent
// pid, its process group and session, and anything carrying its marker in the environment (which
// catches `setsid` children and daemons that were re-parented to init). SIGHUP and SIGTERM first,
// SIGKILL after a grace period. Linux reads /proc; elsewhere `ps` (no environment markers).
// Runs in the supervisor's process.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { pidAlive } from './pid-alive.js';

/** The environment variable that marks a terminal's processes: value `<backend>:<id>`. */
export const TERMINAL_MARKER_ENV = 'MORI_TERMINAL_ID';
/** Time a program gets to exit on SIGHUP/SIGTERM before SIGKILL (DESIGN.md §6). */
export const KILL_GRACE_MS = 2000;
/** How often we look whether the tree is gone during the grace period. */
const KILL_POLL_MS = 50;

export interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  /** The controlling terminal's device number (tty_nr), 0 when it has none. */
  ttyNr: number;
  /** Start time in clock ticks since boot (Linux); with the pid, identifies a process across pid reuse. */
  startTime: number;
}

/** Whether this system has a /proc to read processes from (Linux); elsewhere `ps` stands in. */
export const hasProc = (() => {
  try {
    readdirSync('/proc/self');
    return true;
  } catch {
    return false;
  }
})();

/**
 * Whether `pid` is `root` or runs under it (its chain of parents reaches root). Reads /proc, or one
 * `ps` listing where there is none.
 */
export function descendsFrom(pid: number, root: number): boolean {
  let parentOf: (p: number) => number | null;
  if (hasProc) parentOf = (p) => procInfo(p)?.ppid ?? null;
  else {
    const parents = new Map(listProcesses().map((p) => [p.pid, p.ppid]));
    parentOf = (p) => parents.get(p) ?? null;
  }
  let at: number | null = pid;
  // A chain deeper than this is no terminal's tree; it also ends a loop in a listing taken mid-change.
  for (let i = 0; i < 64 && at !== null && at > 1; i++) {
    if (at === root) return true;
    at = parentOf(at);
  }
  return false;
}

/** The pid a process knows itself by: the last of its NSpid line (its own pid namespace's, a sandbox's); null when unreadable. */
export function innermostPid(pid: number): number | null {
  if (!hasProc) return pid;
  try {
    const ids = /^NSpid:\s+([\d\s]+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]?.trim().split(/\s+/);
    const inner = Number(ids?.at(-1));
    return inner > 0 ? inner : null;
  } catch {
    return null;
  }
}

/** The working directory of a process (Linux); null where it cannot be read. */
export function processCwd(pid: number): string | null {
  try {
    return hasProc ? readlinkSync(`/proc/${pid}/cwd`) : null;
  } catch {
    return null;
  }
}

/**
 * The pids `root` and the processes under it know themselves by (innermost, inside a sandbox's pid
 * namespace; their own elsewhere), each to its pid here: a file a process names by its own pid is
 * found from outside its namespace.
 */
export function innerPidsUnder(root: number): Map<number, number> {
  const children = new Map<number, number[]>();
  for (const p of listProcesses()) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const out = new Map<number, number>();
  const seen = new Set<number>();
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    const inner = innermostPid(pid);
    if (inner === null || seen.has(pid)) continue;
    seen.add(pid);
    out.set(inner, pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** Parses one /proc/<pid>/stat line (the command name may hold spaces and parentheses); null for a zombie. */
export function parseProcStat(line: string): ProcInfo | null {
  const close = line.lastIndexOf(')');
  const open = line.indexOf('(');
  if (close < 0 || open < 0) return null;
  const pid = Number(line.slice(0, open).trim());
  const rest = line.slice(close + 2).split(' ');
  // Fields after the name: state(0) ppid(1) pgrp(2) session(3) tty_nr(4) ... starttime(19).
  // A zombie (Z) or dead (X) process has exited and only waits to be reaped (an init that is slow to
  // reap, as in containers, keeps it for long): it runs nothing and holds nothing, so it is not here.
  if (rest[0] === 'Z' || rest[0] === 'X') return null;
  const ppid = Number(rest[1]);
  const pgid = Number(rest[2]);
  const sid = Number(rest[3]);
  const ttyNr = Number(rest[4]);
  const startTime = Number(rest[19]);
  if (![pid, ppid, pgid, sid, ttyNr, startTime].every(Number.isFinite)) return null;
  return { pid, ppid, pgid, sid, ttyNr, startTime };
}

export function procInfo(pid: number): ProcInfo | null {
  if (!hasProc) {
    return listProcesses().find((p) => p.pid === pid) ?? null;
  }
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

export function listProcesses(): ProcInfo[] {
  if (!hasProc) {
    const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,sess='], { encoding: 'utf8' });
    return out
      .split('\n')
      .map((l) => l.trim().split(/\s+/).map(Number))
      .filter((f) => f.length >= 4 && f.every(Number.isFinite))
      .map(([pid, ppid, pgid, sid]) => ({ pid: pid as number, ppid: ppid as number, pgid: pgid as number, sid: sid as number, ttyNr: 0, startTime: 0 }));
  }
  const out: ProcInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = procInfo(Number(name));
    if (info) out.push(info);
  }
  return out;
}

/** Whether a NUL-separated environment block holds `needle` (`NAME=value\0`) as a whole entry. */
export function environHas(environ: Buffer, needle: Buffer): boolean {
  const block = environ.length > 0 && environ[environ.length - 1] !== 0 ? Buffer.concat([environ, Buffer.from([0])]) : environ;
  for (let at = block.indexOf(needle); at >= 0; at = block.indexOf(needle, at + 1)) {
    if (at === 0 || block[at - 1] === 0) return true;
  }
  return false;
}

/** Pids whose environment holds `TERMINAL_MARKER_ENV=<marker>` (Linux only; others: none). */
export function pidsWithMarker(marker: string): number[] {
  if (!hasProc) return [];
  const needle = Buffer.from(`${TERMINAL_MARKER_ENV}=${marker}\0`);
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (environHas(readFileSync(`/proc/${name}/environ`), needle)) out.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/**
 * The processes of a terminal: the root, its descendants, members of its process group and session
 * (the pty's session), and marked processes with their descendants. Never includes this process.
 */
export function collectTree(rootPid: number | null, marker: string | null): number[] {
  const all = listProcesses();
  const children = new Map<number, number[]>();
  for (const p of all) {
    const list = children.get(p.ppid) ?? [];
    list.push(p.pid);
    children.set(p.ppid, list);
  }
  const seeds = new Set<number>();
  const root = rootPid ? all.find((p) => p.pid === rootPid) : undefined;
  if (root) {
    seeds.add(root.pid);
    // Only when the root leads its own session (a pty's program does): never sweep our own group.
    if (root.sid === root.pid) for (const p of all) if (p.sid === root.sid) seeds.add(p.pid);
  }
  if (marker) for (const pid of pidsWithMarker(marker)) seeds.add(pid);
  const found = new Set<number>();
  const stack = [...seeds];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    if (found.has(pid) || pid === process.pid || pid <= 1) continue;
    found.add(pid);
    for (const c of children.get(pid) ?? []) stack.push(c);
  }
  return [...found];
}

function signalAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/**
 * Ends a terminal's process tree: SIGHUP + SIGTERM to all, SIGKILL to whatever is left (looked up
 * again, so children started meanwhile go too) after `graceMs`. Resolves with the pids signalled.
 */
export async function killTree(rootPid: number | null, marker: string | null, graceMs = KILL_GRACE_MS): Promise<number[]> {
  const first = collectTree(rootPid, marker);
  signalAll(first, 'SIGHUP');
  signalAll(first, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && first.some(pidAlive)) await new Promise((r) => setTimeout(r, KILL_POLL_MS));
  const rest = [...new Set([...first.filter(pidAlive), ...collectTree(rootPid, marker)])];
  signalAll(rest, 'SIGKILL');
  return [...new Set([...first, ...rest])];
}
