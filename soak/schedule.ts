// The soak's fault schedule: which fault, on which session, after what pause and for how long, drawn
// from a seed alone, so the same seed gives the same faults. Pure; any process.
import { rng, type Rng } from './prng.js';

/** The agent's bad input (soak/faults/bad-input.ts): its own state files made corrupt, unusable, huge or rewritten. */
export const BAD_INPUT_KINDS = ['bad-session-json', 'fifo-state', 'symlink-state', 'huge-state', 'rewrite-work-log'] as const;
export type BadInputKind = (typeof BAD_INPUT_KINDS)[number];
export const isBadInput = (k: string): k is BadInputKind => (BAD_INPUT_KINDS as readonly string[]).includes(k);

/** The network's faults (soak/faults/network.ts, usage-limit.ts): the network lost, an API outage alone, a usage limit. */
export const NETWORK_KINDS = ['network', 'api-outage', 'usage-limit'] as const;

export const FAULT_KINDS = ['kill-agent', 'kill-group', 'kill-daemon', 'kill-tmux', 'down-up', 'sleep', ...BAD_INPUT_KINDS, ...NETWORK_KINDS, 'disk-full'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  /** Its place in the schedule, from 0. */
  i: number;
  kind: FaultKind;
  /** The session it aims at (an index below `sessions`); the daemon-wide faults ignore it. */
  session: number;
  /** The pause before it, ms. */
  gapMs: number;
  /** How long it lasts: the time a killed daemon stays down, a `down` before the `up`, a sleep, the network away; a usage limit's reset ahead. */
  holdMs: number;
}

/**
 * How often each fault comes, in parts of their sum (about 100). The agent kills are the commonest fault of a real night;
 * the daemon-wide ones are rarer as each costs seconds of a loaded machine (a Node start, a sleep
 * past the drift detector's 5 s), and every agent they hit counts toward its crash-loop guard. The
 * agent's bad input comes about one fault in ten, each holding for seconds. A full disk (of the one
 * project on a small disk) about one in thirty: it holds for seconds and kills that project's agent.
 */
export const FAULT_WEIGHTS: Readonly<Record<FaultKind, number>> = {
  'kill-agent': 40,
  'kill-group': 25,
  'kill-daemon': 7,
  'kill-tmux': 6,
  'down-up': 7,
  sleep: 5,
  'bad-session-json': 3,
  'fifo-state': 2,
  'symlink-state': 2,
  'huge-state': 1,
  'rewrite-work-log': 2,
  // On top of the 100 above (a weight counts in proportion to the sum): the network's faults hold
  // every session for seconds each (a limit one session for a minute, and the run's end waits out
  // its reset), so they come rarer than the kills, yet a short run meets each.
  network: 4,
  'api-outage': 3,
  'usage-limit': 2,
  'disk-full': 3,
};

/** Pauses between faults: short enough that faults overlap a resume under way, long enough for ~1 fault a second. */
const GAP_MS = [100, 800] as const;
/** A killed daemon or a `mori down` stays down up to 2 s before `mori up --daemon`, as a login item restarts it. */
const DOWN_MS = [0, 2_000] as const;
/** A sleep must outlast the drift detector's 5 s threshold (plus its 1 s tick) to be seen as one. */
const SLEEP_MS = [6_500, 9_000] as const;
/** A bad file stays a few seconds before it is put back: long enough for a `mori ls` and a resume to meet it. */
const BAD_INPUT_MS = [2_000, 4_000] as const;
/**
 * The network away from a blip the daemon never sees (its probe calls it lost after three failed
 * rounds, ~5 s at the soak's 1 s interval) to longer than a soak agent's own retries (10 s), whose
 * turn then ends on its API error until the daemon nudges it after the network's return.
 */
const NETWORK_MS = [3_000, 20_000] as const;
/**
 * An API outage alone, the probe still answering: inside a soak agent's 10 s of retries in some
 * draws (its own retry brings the turn back), past them in others (its turn ends on its API error,
 * and the daemon's API-error watch nudges it a minute later, main/supervisor/resume/error-watch.ts).
 */
const API_OUTAGE_MS = [2_000, 25_000] as const;
/** A usage limit's reset about a minute ahead (a clock-time form rounds it up to its minute). */
const LIMIT_AHEAD_MS = [60_000, 75_000] as const;
/**
 * A disk stays full past Mori's retry of what it could not write (5 s) in some draws and not in
 * others, and long enough for the killed agent's resume and a turn or two to meet it.
 */
const DISK_FULL_MS = [4_000, 8_000] as const;

/** `skip`: kinds this run cannot inject (said in its JSON's `skipped`), never drawn. */
export function schedule(seed: number, faults: number, sessions: number, skip: readonly FaultKind[] = []): Fault[] {
  const r = rng(seed);
  const out: Fault[] = [];
  const weights = Object.fromEntries(Object.entries(FAULT_WEIGHTS).filter(([k]) => !skip.includes(k as FaultKind))) as Record<FaultKind, number>;
  for (let i = 0; i < faults; i++) {
    const kind = r.pick(weights);
    const session = r.int(0, sessions - 1);
    const gapMs = r.int(GAP_MS[0], GAP_MS[1]);
    const holdMs =
      kind === 'sleep'
        ? r.int(SLEEP_MS[0], SLEEP_MS[1])
        : kind === 'kill-daemon' || kind === 'down-up'
          ? r.int(DOWN_MS[0], DOWN_MS[1])
          : isBadInput(kind)
            ? r.int(BAD_INPUT_MS[0], BAD_INPUT_MS[1])
            : kind === 'disk-full'
              ? r.int(DISK_FULL_MS[0], DISK_FULL_MS[1])
              : networkHold(kind, r);
    out.push({ i, kind, session, gapMs, holdMs });
  }
  return out;
}

/** The hold of a network fault; 0 for any other kind. */
function networkHold(kind: FaultKind, r: Rng): number {
  if (kind === 'network') return r.int(NETWORK_MS[0], NETWORK_MS[1]);
  if (kind === 'api-outage') return r.int(API_OUTAGE_MS[0], API_OUTAGE_MS[1]);
  if (kind === 'usage-limit') return r.int(LIMIT_AHEAD_MS[0], LIMIT_AHEAD_MS[1]);
  return 0;
}
