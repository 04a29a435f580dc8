// Whether a process runs inside a supervised agent's process tree: the question every approving
// request asks of whoever sent it (DESIGN.md §7, §11: approvals come only from the person). A process
// is inside when it or any of its ancestors is an agent's program, belongs to an agent's session or
// process group, has an agent's terminal as its controlling terminal or on its stdin/stdout/stderr,
// or carries a Mori terminal's marker in its environment. Reads /proc on Linux; elsewhere `ps` gives
// the ancestry, sessions and groups (no terminals, no environments). Runs in the supervisor and the CLI.
import { environNames, stdioTtys } from '../os/process-stdio.js';
import { hasProc, listProcesses, procInfo, TERMINAL_MARKER_ENV, type ProcInfo } from '../os/process-tree.js';

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
    const tty = (procInfo(a.pid)?.ttyNr ?? 0);
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
    const onTerminal = ttys.get(p.ttyNr);
    if (onTerminal) return { inside: true, reason: `${who(depth, p)} runs on the terminal of session "${onTerminal.name}"`, agent: onTerminal };
    const onStdio = stdioTtys(p.pid)
      .map((t) => ttys.get(t))
      .find((a) => a !== undefined);
    if (onStdio) return { inside: true, reason: `${who(depth, p)} reads or writes the terminal of session "${onStdio.name}"`, agent: onStdio };
  }
  for (const [depth, p] of chain.entries()) {
    if (environNames(p.pid, TERMINAL_MARKER_ENV)) return { inside: true, reason: `${who(depth, p)} was started in a Mori terminal (${TERMINAL_MARKER_ENV} in its environment)`, agent: null };
  }
  return { inside: false };
}
