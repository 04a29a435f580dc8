// Claude Code's own activity file (DESIGN.md §5): while it runs it keeps
// `$CLAUDE_CONFIG_DIR/sessions/<pid>.json` with `status` idle | busy | waiting (waiting = a
// permission prompt). A better source than the screen when present. Reading is I/O; the mapping
// and the merge with the screen are pure; the files are read through main/os/agent-file.ts (a FIFO,
// symlink or oversized file there is no status). Its status capability (findClaudeAgentStatus) gives the supervisor what it says. Runs in the supervisor's process.
// Checked against Claude Code 2.1.332.
import path from 'node:path';
import { isAgentFileError, listAgentDir, statAgentFile, withAgentFile } from '../../os/agent-file.js';
import type { AgentActivity } from '../../../common/agent-activity.js';
import { pidAlive } from '../../os/pid-alive.js';
import { descendsFrom, hasProc, innerPidsUnder, processCwd } from '../../os/process-tree.js';
import type { AgentStatus, Env } from '../profile.js';
import { claudeConfigDir, claudeTranscriptPath } from './transcript.js';

/** A status file is a few hundred bytes; a bigger one is not claude's and is not read. */
const STATUS_MAX_BYTES = 64 * 1024;
/** One status file per running claude: a listing is cut here so a flooded dir is not listed whole. */
const MAX_STATUS_FILES = 10_000;

export type ClaudeStatus = 'idle' | 'busy' | 'waiting';

export interface ClaudeSessionStatus {
  pid: number;
  sessionId: string | null;
  cwd: string | null;
  status: ClaudeStatus;
  /** Epoch ms of the last status change (`statusUpdatedAt`, else `updatedAt`); typing does not change it. */
  statusUpdatedAt: number | null;
  /**
   * Epoch ms the file read was last written (its mtime, from the open file the text came from): what it
   * says is no newer than this. A signal recorded after it (a hook) supersedes it.
   */
  writtenAtMs: number;
}

function parseStatusFile(text: string, writtenAtMs: number): ClaudeSessionStatus | null {
  try {
    const j = JSON.parse(text) as Record<string, unknown>;
    const status = j['status'];
    if (status !== 'idle' && status !== 'busy' && status !== 'waiting') return null;
    return {
      pid: typeof j['pid'] === 'number' ? j['pid'] : -1,
      sessionId: typeof j['sessionId'] === 'string' ? j['sessionId'] : null,
      cwd: typeof j['cwd'] === 'string' ? j['cwd'] : null,
      status,
      statusUpdatedAt: typeof j['statusUpdatedAt'] === 'number' ? j['statusUpdatedAt'] : typeof j['updatedAt'] === 'number' ? j['updatedAt'] : null,
      writtenAtMs,
    };
  } catch {
    return null; // mid-write or another version's shape: the screen decides
  }
}

/**
 * One status file, parsed, with the mtime of the very file its text came from (claude replaces the
 * file as it writes it: a stat by name could see a newer file than the text read). Null when absent,
 * unreadable or not a status.
 */
export async function readClaudeStatusFile(file: string): Promise<ClaudeSessionStatus | null> {
  // Only a plain file, opened without waiting: a FIFO or a device says nothing about claude.
  const read = await withAgentFile(file, async (f) => {
    if (f.info.size > STATUS_MAX_BYTES) return null;
    return parseStatusFile((await f.read(0, STATUS_MAX_BYTES)).toString('utf8'), f.info.mtimeMs);
  });
  return isAgentFileError(read) ? null : read;
}

/** `sessions/<pid>.json` of that claude process, or null when absent or unreadable. */
export async function readClaudeStatusByPid(env: Env, pid: number): Promise<ClaudeSessionStatus | null> {
  return readClaudeStatusFile(path.join(claudeConfigDir(env), 'sessions', `${pid}.json`));
}

/** How findClaudeStatus looks: the terminal's process, and the readers of processes and files (a test counts through them). */
export interface StatusSearch {
  /** The terminal's process (claude itself, or a wrapper, a shell or a sandbox above it): a claude under it is the live one. */
  root?: number;
  pidsUnder?: (root: number) => ReadonlyMap<number, number>;
  cwdOf?: (pid: number) => string | null;
  read?: (file: string) => Promise<ClaudeSessionStatus | null>;
}

/**
 * The file found last for a conversation under a terminal's process, read first on the next look: the
 * activity monitor looks up to four times a second per session, and a listing and a read of every
 * file in the dir each time is what made a night's daemon busy at rest (hundreds of files left by
 * killed claudes). Kept only for a claude directly under the terminal (the best a search can find);
 * cut at this many entries, the oldest first, as terminals come and go.
 */
const lastFound = new Map<string, string>();
const LAST_FOUND_MAX = 512;

function rememberFound(key: string, file: string): void {
  lastFound.delete(key);
  lastFound.set(key, file);
  if (lastFound.size > LAST_FOUND_MAX) lastFound.delete(lastFound.keys().next().value as string);
}

/**
 * Whether the process a file names (by its own pid, not a sandbox's) is `root` or under it: a few reads
 * of /proc, not a listing. Where there is no /proc only root itself counts (`ps` per look would cost
 * more than the search it saves).
 */
const directlyUnder = (s: ClaudeSessionStatus, file: string, root: number): boolean =>
  s.pid > 0 && path.basename(file) === `${s.pid}.json` && pidAlive(s.pid) && (s.pid === root || (hasProc && descendsFrom(s.pid, root)));

/**
 * The status file of the claude process running `sessionId`, found without knowing its pid (the pty's
 * child may be a wrapper, or tmux's). The dir holds one small file per running claude, and one left by
 * each claude that was killed (it removes its own only on a clean exit): a resumed conversation keeps
 * its id, so several files may name it. The live one is taken: a claude under the terminal's process
 * `root` where it is known, else one whose pid is alive, else the one written last. Files named for
 * processes that are gone are read only when no file of a live one names it (after a night of kills
 * they are most of the dir), and the file found under a terminal is read first on the next look.
 */
export async function findClaudeStatus(env: Env, sessionId: string, search: StatusSearch = {}): Promise<ClaudeSessionStatus | null> {
  const { root, pidsUnder = innerPidsUnder, cwdOf = processCwd, read = readClaudeStatusFile } = search;
  const dir = path.join(claudeConfigDir(env), 'sessions');
  const key = root === undefined ? null : `${dir}\n${sessionId}\n${root}`;
  const known = key === null ? undefined : lastFound.get(key);
  if (key !== null && known !== undefined) {
    const s = await read(known);
    if (s !== null && s.sessionId === sessionId && directlyUnder(s, known, root as number)) return s;
    lastFound.delete(key);
  }
  const live: string[] = [];
  const gone: string[] = [];
  for (const { name } of await listAgentDir(dir, MAX_STATUS_FILES)) {
    if (!name.endsWith('.json')) continue;
    const pid = Number(/^(\d+)\.json$/.exec(name)?.[1]);
    (pid > 0 && pidAlive(pid) ? live : gone).push(path.join(dir, name));
  }
  const matching = async (files: string[]): Promise<{ file: string; s: ClaudeSessionStatus }[]> => {
    const out: { file: string; s: ClaudeSessionStatus }[] = [];
    for (const file of files) {
      const s = await read(file);
      if (s !== null && s.sessionId === sessionId) out.push({ file, s });
    }
    return out;
  };
  let matches = await matching(live);
  if (matches.length === 0) matches = await matching(gone);
  let best = matches[0];
  // Only when several name it is the process table read: the usual case is one file.
  if (matches.length > 1) {
    const under = root === undefined ? null : pidsUnder(root);
    const rank = (s: ClaudeSessionStatus): number => (under !== null && isUnder(s, under, cwdOf) ? 2 : pidAlive(s.pid) ? 1 : 0);
    const ranked = matches.map((m) => ({ m, rank: rank(m.s) }));
    ranked.sort((a, b) => b.rank - a.rank || b.m.s.writtenAtMs - a.m.s.writtenAtMs);
    best = ranked[0]?.m;
  }
  if (best === undefined) return null;
  if (key !== null && directlyUnder(best.s, best.file, root as number)) rememberFound(key, best.file);
  return best.s;
}

/**
 * Whether a status file is of a process under the root whose `pidsUnder` map is given. claude names the
 * file by the pid it knows itself by, inside a sandbox its pid namespace's, where every claude has the
 * same few pids: such a pid counts only when the file names the folder that process runs in.
 */
function isUnder(s: ClaudeSessionStatus, under: ReadonlyMap<number, number>, cwdOf: (pid: number) => string | null): boolean {
  const outer = under.get(s.pid);
  if (!(s.pid > 0) || outer === undefined) return false;
  return outer === s.pid || (s.cwd !== null && s.cwd === cwdOf(outer));
}

/**
 * The status file of a claude process running under `root` (the terminal's process: claude itself, or
 * a wrapper, a shell or a sandbox above it), whatever conversation it is on now: after a `/clear` the
 * file names the new one. claude names the file by the pid it knows itself by, inside a sandbox its
 * pid namespace's: `pidsUnder(root)` gives the pids root and the processes under it know themselves
 * by (the caller reads /proc). Every sandboxed claude has the same few pids inside, so two sandboxes
 * sharing the config dir write the same file: one named by a pid inside a sandbox is taken only when
 * it names the folder that process runs in (`cwdOf`; null: unknown, not taken).
 */
export async function findClaudeStatusUnder(
  env: Env,
  root: number,
  pidsUnder: (root: number) => ReadonlyMap<number, number>,
  cwdOf: (pid: number) => string | null = processCwd,
): Promise<ClaudeSessionStatus | null> {
  const dir = path.join(claudeConfigDir(env), 'sessions');
  const names = await listAgentDir(dir, MAX_STATUS_FILES);
  if (names.length === 0) return null;
  const under = pidsUnder(root);
  for (const { name } of names) {
    const pid = Number(/^(\d+)\.json$/.exec(name)?.[1]);
    if (!(pid > 0) || !under.has(pid)) continue;
    const parsed = await readClaudeStatusFile(path.join(dir, name));
    // The file's own pid must be the one it is named for: a file copied from another process says nothing.
    if (parsed === null || parsed.pid !== pid) continue;
    if (isUnder(parsed, under, cwdOf)) return parsed;
  }
  return null;
}

/**
 * Whether the claude running `sessionId` (in `cwd`) took a prompt since `sinceMs`: it is busy, its
 * status changed, or its transcript was written (a submitted prompt is appended at once; typing
 * writes nothing). A fast turn can go busy and idle between two looks without its status file
 * changing (2.1.197 was seen to skip it), so the transcript is the sure sign.
 */
export async function claudeBusySince(env: Env, sessionId: string, cwd: string, sinceMs: number): Promise<boolean> {
  const s = await findClaudeStatus(env, sessionId);
  if (s !== null && (s.status === 'busy' || (s.statusUpdatedAt !== null && s.statusUpdatedAt >= sinceMs))) return true;
  const written = await statAgentFile(claudeTranscriptPath(env, cwd, sessionId));
  return !isAgentFileError(written) && written.mtimeMs >= sinceMs;
}

/** busy → working, idle → waiting, waiting (a permission prompt) → needs-input. */
export function activityFromClaudeStatus(status: ClaudeStatus): AgentActivity {
  return status === 'busy' ? 'working' : status === 'idle' ? 'waiting' : 'needs-input';
}

/**
 * Merges the agent's own report with the screen: the report wins, except that an error on screen
 * stands (claude reports `busy` while it retries a lost connection), and so does a question on screen
 * while it reports `idle` (2.1.332 draws some choosers, as its offer to make auto mode the default,
 * without marking itself waiting).
 */
export function combineActivity(reported: AgentActivity | null, screen: AgentActivity): AgentActivity {
  if (screen === 'error') return 'error';
  if (screen === 'needs-input' && reported === 'waiting') return 'needs-input';
  return reported ?? screen;
}

/** Its status capability: the file naming this session (the live one of several), else the one of a claude running under the terminal's process `pid`. */
export async function findClaudeAgentStatus(env: Env, agentSessionId: string, pid: number): Promise<AgentStatus | null> {
  const s = (await findClaudeStatus(env, agentSessionId, { root: pid })) ?? (await findClaudeStatusUnder(env, pid, innerPidsUnder));
  return s === null ? null : { activity: activityFromClaudeStatus(s.status), sessionId: s.sessionId, writtenAtMs: s.writtenAtMs };
}
