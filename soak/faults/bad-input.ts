// The soak's bad-input faults: what an agent can do to the files of its own state dir while the other
// faults run. session.json truncated or replaced by garbage, session_state.md or environment.md
// replaced by a FIFO or by a symlink to a file outside the project, a 5 MB session_state.md, the work
// log rewritten (a new file renamed over it). The session's agent is killed meanwhile, so a resume
// reads the bad file. After a hold, the fault checks that the daemon still runs, the bad file is
// still there as it was made, and (for a corrupt file) something names it; then it puts the good
// file back and, as a person who fixed it would, starts the session again if its attention named the
// file. Runs in the soak's process.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, lstatSync, openSync, readFileSync, readlinkSync, readSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { World } from '../world.js';
import type { BadInputKind } from '../schedule.js';
import { killAgent, type Outcome } from './processes.js';

/** What the issue names: a session_state.md of 5 MB, far past what any parser of it reads whole. */
const HUGE_BYTES = 5 * 1024 * 1024;
/** `mori ls` is a Node start on a loaded machine: asked at most twice a second. */
const POLL_MS = 500;
/** After the hold, the bad file is looked for in what Mori says for at most this long: a `mori ls` or two on a loaded machine. */
const NAMED_GRACE_MS = 10_000;

/** A bad-input fault's result: the note, and the sentences of any violation of "left in place and named". */
export interface BadInputOutcome extends Outcome {
  problems: string[];
  /** The file put back and when, for "the session goes on" at the end; null when nothing was restored. */
  restored: { file: string; at: number } | null;
}

interface Made {
  file: string;
  /** Whether Mori must name it (a corrupt or unusable file); a big or rewritten file is valid input. */
  mustName: boolean;
  /** What it is now, to tell at the end of the hold that nothing replaced or removed it. */
  identity: string;
  /** Puts the good file back; null when the change is the agent's to keep (a rewritten log). */
  restore: (() => void) | null;
  note: string;
}

const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex').slice(0, 16);

/** What a name is now: its type, inode and (for a regular file) content, or its link's target. */
export function identityOf(file: string): string {
  let st;
  try {
    st = lstatSync(file);
  } catch {
    return 'absent';
  }
  if (st.isSymbolicLink()) return `symlink ${st.ino} → ${readlinkSync(file)}`;
  if (st.isFIFO()) return `fifo ${st.ino}`;
  if (!st.isFile()) return `other ${st.ino}`;
  return `file ${st.ino} ${sha(readFileSync(file))}`;
}

/** `variant` (from the schedule) picks between the kind's forms: which state file, truncated or garbage. */
function make(world: World, kind: BadInputKind, session: number, variant: number): Made {
  const dir = world.stateDir(session);
  const stateFile = path.join(dir, variant % 2 === 0 ? 'session_state.md' : 'environment.md');
  switch (kind) {
    case 'bad-session-json': {
      const file = path.join(dir, 'session.json');
      const good = readFileSync(file);
      const bad = variant % 2 === 0 ? good.subarray(0, Math.floor(good.length / 2)) : Buffer.from('\u0000garbage{{{ not json\n');
      // Written in place, as a crashed editor or a careless `>` leaves it.
      writeFileSync(file, bad);
      return { file, mustName: true, identity: identityOf(file), restore: () => putBack(file, good), note: variant % 2 === 0 ? 'truncated' : 'garbage' };
    }
    case 'fifo-state': {
      const good = readFileSync(stateFile);
      rmSync(stateFile);
      execFileSync('mkfifo', [stateFile]);
      return { file: stateFile, mustName: true, identity: identityOf(stateFile), restore: () => putBack(stateFile, good), note: 'a FIFO' };
    }
    case 'symlink-state': {
      const good = readFileSync(stateFile);
      // A file of the person's outside every project, with content that reads as a state file.
      const outside = path.join(world.root, `outside-${session}.md`);
      writeFileSync(outside, '# Notes of the person\n\n## Checks\n- not for Mori\n');
      rmSync(stateFile);
      symlinkSync(outside, stateFile);
      const outsideBefore = sha(readFileSync(outside));
      return {
        file: stateFile,
        mustName: true,
        identity: `${identityOf(stateFile)}; outside ${outsideBefore}`,
        restore: () => putBack(stateFile, good),
        note: `a symlink to ${outside}`,
      };
    }
    case 'huge-state': {
      const file = path.join(dir, 'session_state.md');
      const good = readFileSync(file);
      writeFileSync(file, Buffer.concat([good, Buffer.from(`\n## Notes\n${'- a long note of the agent\n'.repeat(Math.ceil(HUGE_BYTES / 27))}`)]));
      return { file, mustName: false, identity: identityOf(file), restore: () => putBack(file, good), note: `${lstatSync(file).size} bytes` };
    }
    case 'rewrite-work-log': {
      const file = path.join(dir, 'work_log.md');
      rewriteByRename(file);
      return { file, mustName: false, identity: '', restore: null, note: 'rewritten and renamed over' };
    }
  }
}

/** Puts a good file back under `file` by a rename, as an editor saves: whatever is there (a FIFO, a link) is replaced, not written through. */
function putBack(file: string, good: Buffer): void {
  const tmp = `${file}.soak-restore`;
  writeFileSync(tmp, good);
  renameSync(tmp, file);
}

/** The agent's own note, added as it rewrites its work log. */
const NOTE = Buffer.from('\n- the agent tidied this log\n');
/** Where an entry of Mori's begins (main/state/work-log.ts formatEntry): a newline, then its heading. */
const ENTRY_START = '\n## ';

/**
 * The bytes `late` (appended to the old file after it was read) less each entry of Mori's that the
 * new file already has past `since` (its first bytes: the old text and the note). The agent's own
 * lines, and anything else, are kept.
 */
export function notCarried(late: Buffer, file: string, since: number): Buffer {
  const fresh = readFileSync(file).subarray(since).toString('utf8');
  const text = late.toString('utf8');
  const parts: string[] = [];
  let at = 0;
  while (at < text.length) {
    const next = text.indexOf(ENTRY_START, at + 1);
    parts.push(text.slice(at, next === -1 ? text.length : next));
    at = next === -1 ? text.length : next;
  }
  // An entry is its heading and its bullets; an agent's line after it in the same part stays.
  const kept = parts.flatMap((part) => {
    if (!part.startsWith(ENTRY_START)) return [part];
    const soakLine = part.search(/^- soak \S+ #\d+ ok$/m);
    const entry = soakLine === -1 ? part : part.slice(0, soakLine);
    const rest = soakLine === -1 ? '' : part.slice(soakLine);
    return fresh.includes(entry) ? [rest] : [part];
  });
  return Buffer.from(kept.join(''), 'utf8');
}

/**
 * The agent rewrites its work log as an editor saves: the whole file with a note of its own added,
 * to a new file renamed over the old. Lines appended to the old file between the read and the rename
 * (the agent's own turn ending, Mori's entry) are carried over from the old inode, so the soak loses
 * none itself; any lost after is lost by whoever wrote into the old file. Mori carries over an entry
 * of its own that it finds went into the old file (main/state/work-log-carry.ts): one already in the
 * new file since the rename is not carried twice.
 */
function rewriteByRename(file: string): void {
  const fd = openSync(file, 'r');
  try {
    const read = (from: number): Buffer => {
      const size = fstatSync(fd).size;
      const buf = Buffer.alloc(Math.max(0, size - from));
      let done = 0;
      while (done < buf.length) done += readSync(fd, buf, done, buf.length - done, from + done);
      return buf;
    };
    const text = read(0);
    const tmp = `${file}.soak-rewrite`;
    writeFileSync(tmp, Buffer.concat([text, NOTE]));
    renameSync(tmp, file);
    const late = read(text.length);
    if (late.length > 0) writeFileSync(file, notCarried(late, file, text.length + NOTE.length), { flag: 'a' });
  } finally {
    closeSync(fd);
  }
}

/** The live entry of one session in `mori ls --json`, as text (its error, state problem, attention). */
function listed(world: World, name: string): { text: string; attention: string | null } | null {
  const r = world.mori('ls', '--json');
  try {
    const sessions = (JSON.parse(r.stdout) as { sessions: { stateDir?: string; session?: { name?: string }; live?: { name?: string; attention?: { message?: string } } }[] }).sessions;
    const entry = sessions.find((s) => s.session?.name === name || s.live?.name === name || s.stateDir?.endsWith(`/${name}`));
    if (!entry) return null;
    return { text: JSON.stringify(entry), attention: entry.live?.attention?.message ?? null };
  } catch {
    return null;
  }
}

/** Whether Mori names `file` as a problem: in the session's listing (`<file>: …`) or in its work log. */
function named(world: World, session: number, file: string): boolean {
  const quoted = JSON.stringify(`${file}:`).slice(1, -1);
  if (listed(world, world.names[session]!)?.text.includes(quoted)) return true;
  try {
    return readFileSync(path.join(world.stateDir(session), 'work_log.md'), 'utf8').includes(`${file}:`);
  } catch {
    return false;
  }
}

export async function badInput(world: World, kind: BadInputKind, session: number, holdMs: number): Promise<BadInputOutcome> {
  const made = make(world, kind, session, holdMs);
  const killed = killAgent(world, session);
  const problems: string[] = [];
  const name = world.names[session]!;
  let wasNamed = false;
  const holdEnd = Date.now() + holdMs;
  while (Date.now() < holdEnd) {
    if (made.mustName && !wasNamed) wasNamed = named(world, session, made.file);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  for (const graceEnd = Date.now() + NAMED_GRACE_MS; made.mustName && !wasNamed && Date.now() < graceEnd; ) {
    wasNamed = named(world, session, made.file);
    if (!wasNamed) await new Promise((r) => setTimeout(r, POLL_MS));
  }
  if (made.mustName && !wasNamed) problems.push(`${name}: ${made.file} (${made.note}) was not named by mori ls nor the work log`);
  if (world.daemonPid() === null) problems.push(`${name}: no daemon answers after ${made.file} became ${made.note}`);
  const now = kind === 'symlink-state' ? `${identityOf(made.file)}; outside ${sha(readFileSync(path.join(world.root, `outside-${session}.md`)))}` : identityOf(made.file);
  if (made.restore && now !== made.identity) problems.push(`${name}: ${made.file} (${made.note}) was replaced or removed: ${made.identity} → ${now}`);
  if (!made.restore) return { note: `${kind} ${made.file}: ${made.note}; ${killed.note}`, problems, restored: null };
  made.restore();
  const at = Date.now();
  // The person who fixed the file starts the session again when its attention was about that file.
  const attention = listed(world, name)?.attention ?? null;
  let started = '';
  if (attention?.includes(made.file)) {
    const r = world.mori('start', name);
    started = `; mori start → ${r.code}`;
  }
  return { note: `${kind} ${made.file}: ${made.note}; ${killed.note}${started}`, problems, restored: { file: made.file, at } };
}
