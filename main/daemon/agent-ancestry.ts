// Whether a process runs inside a supervised agent's process tree: the question every approving
// request asks of whoever sent it (DESIGN.md §7, §11: approvals come only from the person). A process
// is inside when it or any of its ancestors is an agent's program, belongs to an agent's session or
// process group, has an agent's terminal as its controlling terminal or on its stdin/stdout/stderr,
// or carries a Mori terminal's marker in its environment. Reads /proc on Linux; elsewhere `ps` gives
// the ancestry, sessions and groups (no terminals, no environments). Runs in the supervisor and the CLI.
import { readFileSync, statSync } from 'node:fs';
import { listProcesses, procInfo, TERMINAL_MARKER_ENV, type ProcInfo } from '../os/process-tree.js';

/** One running agent as the supervisor knows it. */
export interface AgentProcess {
  /** The session's name, for the refusal. */
  name: string;
  /** The agent's program: a direct pty's child, a tmux pane's process. */
  pid: number;
  /** The session's state dir, where a refusal is recorded for the person (the daemon knows it). */
  stateDir?: string;
}

/** Why a process counts as inside an agent's tree: names the process, the session and the link. */
export type AncestryVerdict = { inside: false } | { inside: true; reason: string; agent: AgentProcess | null };

/**
 * Ancestors looked at, at most: real chains are a dozen deep; the bound only guards against a cycle
 * read from a /proc that changed under us (a pid reused while walking).
 */
const MAX_DEPTH = 256;

const hasProc = (() => {
  try {
    statSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

/** The controlling terminal's device number (field 7 of /proc/<pid>/stat), 0 when none or unknown. */
function controllingTty(pid: number): number {
  if (!hasProc) return 0;
  try {
    const line = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name: state(0) ppid(1) pgrp(2) session(3) tty_nr(4).
    const tty = Number(line.slice(line.lastIndexOf(')') + 2).split(' ')[4]);
    return Number.isFinite(tty) ? tty : 0;
  } catch {
    return 0;
  }
}

/** Device numbers of the terminals on a process's stdin, stdout and stderr (Linux). */
function stdioTtys(pid: number): number[] {
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

/** Whether a process's environment holds a Mori terminal's marker (Linux; the environment it was started with). */
function carriesMarker(pid: number): boolean {
  if (!hasProc) return false;
  try {
    const environ = readFileSync(`/proc/${pid}/environ`);
    const needle = Buffer.from(`${TERMINAL_MARKER_ENV}=`);
    for (let at = environ.indexOf(needle); at >= 0; at = environ.indexOf(needle, at + 1)) if (at === 0 || environ[at - 1] === 0) return true;
    return false;
  } catch {
    return false;
  }
}

/** The process and its ancestors up to init, nearest first; stops where /proc (or ps) has no more. */
export function ancestry(pid: number): ProcInfo[] {
  // Without /proc, one `ps` for the whole walk rather than one per ancestor.
  const table = hasProc ? null : new Map(listProcesses().map((p) => [p.pid, p]));
  const chain: ProcInfo[] = [];
  const seen = new Set<number>();
  for (let at: number | undefined = pid; at !== undefined && at > 0 && !seen.has(at) && chain.length < MAX_DEPTH; ) {
    seen.add(at);
    const info: ProcInfo | null = table ? (table.get(at) ?? null) : procInfo(at);
    if (!info) break;
    chain.push(info);
    at = info.ppid;
  }
  return chain;
}

/**
 * Whether `pid` runs inside one of `agents`' process trees. A process that left the tree entirely (a
 * double fork to init after `setsid`, its stdio moved off the agent's terminal, the marker removed from
 * its environment) is not seen: the lookup knows only what the process table still ties to an agent.
 */
export function insideAgent(pid: number, agents: readonly AgentProcess[]): AncestryVerdict {
  const byPid = new Map<number, AgentProcess>();
  for (const a of agents) if (a.pid > 0) byPid.set(a.pid, a);
  const ttys = new Map<number, AgentProcess>();
  for (const a of byPid.values()) {
    const tty = controllingTty(a.pid);
    if (tty !== 0) ttys.set(tty, a);
  }
  const chain = ancestry(pid);
  const who = (depth: number, p: ProcInfo): string => (depth === 0 ? `process ${p.pid}` : `process ${pid}'s ancestor ${p.pid}`);
  // Strongest link first, so the refusal names the plainest reason.
  for (const [depth, p] of chain.entries()) {
    const agent = byPid.get(p.pid);
    if (agent) return { inside: true, reason: `${who(depth, p)} is the agent of session "${agent.name}"`, agent };
  }
  for (const [depth, p] of chain.entries()) {
    const leader = byPid.get(p.sid) ?? byPid.get(p.pgid);
    if (leader) return { inside: true, reason: `${who(depth, p)} belongs to the process session or group of session "${leader.name}"'s agent`, agent: leader };
  }
  for (const [depth, p] of chain.entries()) {
    const onTerminal = ttys.get(controllingTty(p.pid));
    if (onTerminal) return { inside: true, reason: `${who(depth, p)} runs on the terminal of session "${onTerminal.name}"`, agent: onTerminal };
    const onStdio = stdioTtys(p.pid)
      .map((t) => ttys.get(t))
      .find((a) => a !== undefined);
    if (onStdio) return { inside: true, reason: `${who(depth, p)} reads or writes the terminal of session "${onStdio.name}"`, agent: onStdio };
  }
  for (const [depth, p] of chain.entries()) {
    if (carriesMarker(p.pid)) return { inside: true, reason: `${who(depth, p)} was started in a Mori terminal (${TERMINAL_MARKER_ENV} in its environment)`, agent: null };
  }
  return { inside: false };
}
