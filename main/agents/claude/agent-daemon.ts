// What Claude Code's own background service holds (DESIGN.md §5 "Agents that supervise themselves").
// `claude --bg` (and `claude respawn`) hand a conversation to a daemon of Claude's, which keeps
// `$CLAUDE_CONFIG_DIR/daemon/roster.json`: `workers`, keyed by the short id `claude agents` lists,
// each with the conversation's `sessionId`, its pty host's `pid` and `procStart` (field 22 of
// /proc/<pid>/stat) and the claude inside it (`replPid`, `replProcStart`). A conversation a live
// worker holds must not be resumed with `--resume` (claude "starts a copy"); `claude attach <short>`
// opens it. Format read from Claude Code 2.1.332's own files. The roster is read through
// main/os/agent-file.ts (anything claude runs can write there); parsing is pure. Runs in the
// supervisor's and the CLI's processes.
import path from 'node:path';
import { isAgentFileError, readAgentFile } from '../../os/agent-file.js';
import { processStartTime } from '../../os/process-start.js';
import type { Env } from '../profile.js';
import { claudeConfigDir } from './transcript.js';

/** A roster lists one small entry per background session; a bigger file is not claude's and is not read. */
const ROSTER_MAX_BYTES = 4 * 1024 * 1024;
/** `claude agents` prints 8 hex digits; kept to a short safe form before it goes into words or a command line. */
const SHORT_ID = /^[0-9a-z]{4,32}$/;

/** One background session of Claude's daemon, as its roster records it. */
export interface ClaudeDaemonWorker {
  /** The id `claude agents` lists and `claude attach` takes. */
  short: string;
  sessionId: string;
  cwd: string | null;
  /** The processes that hold it: its pty host and the claude inside, each with its recorded start. */
  processes: { pid: number; start: string | null }[];
}

export const claudeRosterPath = (env: Env): string => path.join(claudeConfigDir(env), 'daemon', 'roster.json');

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The workers of a roster's text; entries of another shape are left out, a text that is not a roster gives none. */
export function parseClaudeRoster(text: string): ClaudeDaemonWorker[] {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch {
    return []; // mid-write, or not claude's: nothing is known to be held
  }
  if (!isRecord(j) || !isRecord(j['workers'])) return [];
  const out: ClaudeDaemonWorker[] = [];
  for (const [short, w] of Object.entries(j['workers'])) {
    if (!SHORT_ID.test(short) || !isRecord(w) || typeof w['sessionId'] !== 'string') continue;
    const processes: ClaudeDaemonWorker['processes'] = [];
    for (const [pidKey, startKey] of [['pid', 'procStart'], ['replPid', 'replProcStart']] as const) {
      const pid = w[pidKey];
      const start = w[startKey];
      if (typeof pid === 'number' && Number.isInteger(pid) && pid > 0) processes.push({ pid, start: typeof start === 'string' ? start : null });
    }
    out.push({ short, sessionId: w['sessionId'], cwd: typeof w['cwd'] === 'string' ? w['cwd'] : null, processes });
  }
  return out;
}

/**
 * Whether one of the worker's processes still runs: its pid is alive and, on Linux, started when the
 * roster says (a roster left by a daemon that died before a reboot names pids others now have).
 */
export function workerAlive(w: ClaudeDaemonWorker, startOf: (pid: number) => string | null = processStartTime): boolean {
  return w.processes.some(({ pid, start }) => {
    const now = startOf(pid);
    if (now === null) return false;
    return start === null || !now.startsWith('linux:') || now === `linux:${start}`;
  });
}

/** The roster's workers, or none when it is absent, refused or unreadable. */
export async function readClaudeRoster(env: Env): Promise<ClaudeDaemonWorker[]> {
  const bytes = await readAgentFile(claudeRosterPath(env), ROSTER_MAX_BYTES);
  return isAgentFileError(bytes) ? [] : parseClaudeRoster(bytes.toString('utf8'));
}

/** The live background session of Claude's daemon holding `id` (its conversation's id or its short id), or null. */
export async function claudeDaemonHolding(env: Env, id: string, startOf?: (pid: number) => string | null): Promise<ClaudeDaemonWorker | null> {
  const workers = await readClaudeRoster(env);
  return workers.find((w) => (w.sessionId === id || w.short === id) && workerAlive(w, startOf)) ?? null;
}

/** The words of an attention for a conversation Claude's daemon holds: why Mori does not resume it, and the ways out. */
export function heldWords(w: ClaudeDaemonWorker): string {
  return (
    `Claude Code's own background service holds session ${w.sessionId} (\`claude agents\` lists it as ${w.short}); ` +
    `resuming it with --resume would start a copy. Open it with \`claude attach ${w.short}\`, ` +
    `or stop it there (\`claude stop ${w.short}\`) and start this session again.`
  );
}
