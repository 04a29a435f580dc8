// The soak's full disk: the project on the small disk (world.smallDisk, a tmpfs) filled to its last
// byte by a runaway output file, its agent killed so that Mori's own writes (the interruption's
// entries, session.json, a checkpoint, the transcript) meet the full disk, held for seconds, then the
// filler removed. Meanwhile the daemon must keep answering, session.json must stay whole, and the
// problem must be named (`mori ls`: the session's state problem or attention); at the end it must be
// cleared (diskFullAtEnd). Runs in the soak's process.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fill, release } from '../../testkit/small-disk.js';
import { checkLeftovers, checkSessionFiles } from '../invariants.js';
import type { World } from '../world.js';
import { killAgent, type Outcome } from './processes.js';

/** Polls of `mori ls` while the disk is full: a Node start each. */
const POLL_MS = 500;
/** After the hold, how long Mori has to name the problem it met (its retry is 5 s; its first write is at the kill). */
const NAMED_GRACE_MS = 3_000;
/** What names a full disk: Node's error, Mori's own for a write cut short. */
const NO_SPACE = /ENOSPC|no space left/i;

export interface DiskFullOutcome extends Outcome {
  problems: string[];
  restored: { file: string; at: number } | null;
}

interface Listed {
  problem: string | null;
  attention: { reason: string; message: string } | null;
}

/** The session's state problem and attention as `mori ls --json` says; null when no daemon answers or it is not listed. */
function listed(world: World, name: string): Listed | null {
  const r = world.mori('ls', '--json');
  try {
    const sessions = (JSON.parse(r.stdout) as { sessions: { session?: { name?: string }; live?: { name?: string; attention?: Listed['attention'] }; stateProblem?: { message?: string } }[] }).sessions;
    const e = sessions.find((s) => s.session?.name === name || s.live?.name === name);
    if (!e) return null;
    return { problem: e.stateProblem?.message ?? null, attention: e.live?.attention ?? null };
  } catch {
    return null;
  }
}

const namesNoSpace = (l: Listed | null): boolean => l !== null && (NO_SPACE.test(l.problem ?? '') || NO_SPACE.test(l.attention?.message ?? ''));

/** The state dir's names, with each one's age and size (a name gone meanwhile is left out). */
function namesIn(dir: string): { name: string; ageMs: number; size: number }[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    try {
      const st = lstatSync(path.join(dir, name));
      return [{ name, ageMs: Date.now() - st.mtimeMs, size: st.size }];
    } catch {
      return [];
    }
  });
}

/** session.json and its backup, as checkSessionFiles reads them. */
export function sessionFiles(stateDir: string): { file: string; text: string | null; optional: boolean }[] {
  return [
    { name: 'session.json', optional: false },
    { name: 'session.json.bak', optional: true },
  ].map(({ name, optional }) => {
    const file = path.join(stateDir, name);
    try {
      return { file, text: readFileSync(file, 'utf8'), optional };
    } catch {
      return { file, text: null, optional };
    }
  });
}

export async function diskFull(world: World, holdMs: number): Promise<DiskFullOutcome> {
  const disk = world.smallDisk;
  if (!disk) return { note: `no small disk (${world.smallDiskSkipped ?? 'not mounted'})`, problems: [], restored: null };
  const i = world.smallDiskSession;
  const name = world.names[i]!;
  const problems: string[] = [];
  const stateDir = world.stateDir(i);
  const before = new Set(namesIn(stateDir).map((f) => f.name));
  const filled = fill(disk.dir);
  const killed = killAgent(world, i);
  let named = false;
  let silent = 0;
  const holdEnd = Date.now() + holdMs;
  while (Date.now() < holdEnd) {
    const l = listed(world, name);
    if (l === null) silent += 1;
    named ||= namesNoSpace(l);
    for (const torn of checkSessionFiles(sessionFiles(stateDir))) {
      if (!problems.some((p) => p.endsWith(torn))) problems.push(`${name}: while the disk was full, ${torn}`);
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  // Named once Mori met it: an agent it saw killed has its interruption written (a lock marker is a
  // new block, so it always fails). A session with no agent then (in backoff, in attention) may have
  // had nothing to write while the disk was full.
  const metIt = killed.note.startsWith('SIGKILL');
  for (const graceEnd = Date.now() + NAMED_GRACE_MS; metIt && !named && Date.now() < graceEnd; ) {
    named = namesNoSpace(listed(world, name));
    if (!named) await new Promise((r) => setTimeout(r, POLL_MS));
  }
  // A daemon killed by the disk would not answer for the whole hold; one `mori ls` lost to load is not that.
  if (world.daemonPid() === null) problems.push(`${name}: no daemon answers after its disk filled`);
  if (metIt && !named) problems.push(`${name}: its full disk was not named by mori ls (state problem or attention)`);
  problems.push(...checkLeftovers(before, namesIn(stateDir)).map((l) => `${name}: with its disk full, ${l}`));
  release(disk.dir);
  const at = Date.now();
  return {
    note: `filled ${filled} bytes of ${name}'s disk; ${killed.note}${silent > 0 ? `; ${silent} mori ls unanswered` : ''}`,
    problems,
    restored: { file: 'its disk', at },
  };
}

/**
 * Mori tries what it could not write again every 5 s: after the run settled, the small disk's session
 * has this long to have written it and so cleared its problem.
 */
const CLEARED_BOUND_MS = 15_000;

/**
 * After the run settled: the small disk's session no longer has its full disk as a problem (the held
 * writes went through once space came back, and cleared it), nor an attention for an unwritable state.
 */
export async function diskFullAtEnd(world: World): Promise<{ session: string; what: string }[]> {
  if (!world.smallDisk) return [];
  const name = world.names[world.smallDiskSession]!;
  let out: string[] = [];
  for (const end = Date.now() + CLEARED_BOUND_MS; ; ) {
    const l = listed(world, name);
    out = [];
    if (l === null) out.push('not listed by mori ls at the end');
    else {
      if (NO_SPACE.test(l.problem ?? '')) out.push(`its full disk is still its state problem ${CLEARED_BOUND_MS / 1000} s after the run settled: ${l.problem}`);
      if (l.attention?.reason === 'state-unwritable') out.push(`still in attention for an unwritable state after space came back: ${l.attention.message}`);
    }
    if (out.length === 0 || Date.now() > end) break;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return out.map((what) => ({ session: name, what }));
}
