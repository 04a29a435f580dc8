// The soak's reading of the daemon at rest, after warm-up and after the run settled: its footprint
// (the least RSS and fds of samples over a window) and its CPU over the same window (utime + stime
// from /proc/<pid>/stat), and every other process of the world that used a core's worth over it
// (an agent or tmux process left spinning); at the end, the window taken once the daemon is at rest
// (restingWindow, cpu-rest.ts's rule). Linux (/proc). Runs in the soak's process.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { anotherWindow, waitForAge } from './cpu-rest.js';
import { describe, footprint, type World } from './world.js';

/** The window: V8 collects its young generation several times over it, and the agents work a few turns. */
export const QUIET_MS = 10_000;
const QUIET_SAMPLES = 20;
/** A process of the world past this share of one core over the window is spinning: a fake agent's turn is a timer, a tmux server's work a few writes. */
export const SPINNING_SHARE = 0.3;

export interface Quiet {
  rssKiB: number;
  fds: number;
  /** The daemon's CPU over the window, as a share of one core. */
  cpu: number;
  /** Processes of the world (but the daemon) that used more than SPINNING_SHARE of a core. */
  spinning: { what: string; share: number }[];
  /** The daemon's threads that used more than THREAD_SHARE of a core over the window (its main thread, V8's and libuv's workers), busiest first. */
  threads: { name: string; share: number }[];
  /** At the end, each window's CPU (restingWindow takes up to four). */
  windows?: number[];
}

/** A daemon thread past this share of a core over the window is named in `threads`: where a busy daemon spends its time. */
const THREAD_SHARE = 0.02;

/** CPU ticks of each thread of `pid`, by thread id, with its name. */
function threadTicks(pid: number): Map<number, { name: string; ticks: number }> {
  const out = new Map<number, { name: string; ticks: number }>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), { name, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // the thread ended
    }
  }
  return out;
}

let ticksPerSecond: number | null = null;

/** The kernel's clock ticks a second (/proc's unit of CPU time). */
function clockTicks(): number {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100; // Linux's USER_HZ nearly everywhere
    }
  }
  return ticksPerSecond;
}

/** The CPU time (utime + stime, in clock ticks) a process has used, or null when it is gone. */
export function cpuTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command's `)`: state is field 3; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/** Every process of the world, the daemon's children (its tmux control clients, its ptys' agents) among them. */
function worldPids(world: World, daemon: number): number[] {
  const p = world.processes();
  const pids = new Set([...[...p.agents.values()].flat(), ...p.tmux, ...p.daemons]);
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === daemon) pids.add(Number(d));
    } catch {
      // gone
    }
  }
  pids.delete(daemon);
  return [...pids];
}

/**
 * The daemon at rest: the least RSS and fds of samples over QUIET_MS (one reading catches V8's heap
 * anywhere between two collections, ±10 % of a 120 MB daemon; the least of many is its floor), its
 * CPU over the window, and the world's processes that spun meanwhile. Null when the daemon is gone.
 */
export async function quietWindow(world: World, pid: number): Promise<Quiet | null> {
  const others = worldPids(world, pid);
  const t0 = Date.now();
  const cpu0 = cpuTicks(pid);
  const threads0 = threadTicks(pid);
  const others0 = new Map(others.map((p) => [p, cpuTicks(p)] as const));
  let best: { rssKiB: number; fds: number } | null = null;
  for (let k = 0; k < QUIET_SAMPLES; k++) {
    await new Promise((r) => setTimeout(r, QUIET_MS / QUIET_SAMPLES));
    const f = footprint(pid);
    if (f) best = best ? { rssKiB: Math.min(best.rssKiB, f.rssKiB), fds: Math.min(best.fds, f.fds) } : f;
  }
  const cpu1 = cpuTicks(pid);
  const threads1 = threadTicks(pid);
  const seconds = (Date.now() - t0) / 1000;
  if (best === null || cpu0 === null || cpu1 === null) return null;
  const share = (a: number, b: number): number => (b - a) / clockTicks() / seconds;
  const spinning = others.flatMap((p) => {
    const a = others0.get(p);
    const b = cpuTicks(p);
    if (a === null || a === undefined || b === null) return [];
    const s = share(a, b);
    return s > SPINNING_SHARE ? [{ what: describe(p), share: Math.round(s * 100) / 100 }] : [];
  });
  const threads = [...threads1]
    .map(([tid, t]) => ({ name: `${t.name} ${tid}${tid === pid ? ' (main)' : ''}`, share: Math.round(share(threads0.get(tid)?.ticks ?? 0, t.ticks) * 100) / 100 }))
    .filter((t) => t.share > THREAD_SHARE)
    .sort((a, b) => b.share - a.share);
  return { ...best, cpu: Math.round(share(cpu0, cpu1) * 1000) / 1000, spinning, threads };
}

/** A process's age (ms since it started), from /proc/<pid>/stat's start time; null when it is gone. */
export function processAgeMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command's `)`: starttime is field 22, in clock ticks after boot.
    const started = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]) / clockTicks();
    const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    return Number.isFinite(started) && Number.isFinite(uptime) ? Math.max(0, Math.round((uptime - started) * 1000)) : null;
  } catch {
    return null;
  }
}

/**
 * The daemon at rest at the end (cpu-rest.ts): no younger than the warm-up's was (`warmAgeMs`), then
 * windows taken again while the CPU is above `bound` and still falling; the last one's reading.
 */
export async function restingWindow(world: World, pid: number, warmAgeMs: number | null, bound: number): Promise<Quiet | null> {
  const wait = waitForAge(processAgeMs(pid), warmAgeMs);
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const shares: number[] = [];
  let last: Quiet | null = null;
  for (;;) {
    const q = await quietWindow(world, pid);
    if (q === null) return last;
    shares.push(q.cpu);
    last = { ...q, windows: [...shares] };
    if (!anotherWindow(shares, bound)) return last;
  }
}
