// How the report of the time away says its items, the same in `mori report` and the window: an
// interruption with its outcome, a check run, a checkpoint, the usage. Returns plain text (what an
// agent wrote is in it as written: the CLI makes it visible, the window shows it as text). Pure.
import type { AwayChecks, AwayCheckpoint, AwayInterruption, AwayItem, AwaySession, Outcome } from './away-report.js';
import { costText } from './usage-figures.js';

const CAUSE: Record<AwayInterruption['cause'], string> = {
  crash: 'agent crashed',
  sleep: 'system sleep',
  network: 'network lost',
  'usage-limit': 'reached its usage limit',
  reboot: 'reboot',
  mori: 'Mori stopped',
  other: 'interrupted',
  attention: 'stopped for attention',
};

export const OUTCOME_WORDS: Record<Outcome, string> = {
  'resumed-by-id': 'resumed by id',
  'resumed-fresh': 'resumed fresh',
  resumed: 'resumed',
  'handed-off': 'handed off',
  attention: 'still in attention',
  stopped: 'stopped by the person',
  finished: 'finished',
  open: 'not resumed yet',
};

function interruptionText(i: AwayInterruption): string {
  const cause = i.cause === 'crash' && i.times > 1 ? `crash loop (${i.times} crashes)` : i.times > 1 ? `${CAUSE[i.cause]} (${i.times} times)` : CAUSE[i.cause];
  const why = i.outcome === 'attention' || i.outcome === 'handed-off' ? `: ${i.detail}` : '';
  return `${cause} → ${OUTCOME_WORDS[i.outcome]}${why}`;
}

function checksText(c: AwayChecks): string {
  const moves = [...(c.wentRed.length > 0 ? [`went red: ${c.wentRed.join(', ')}`] : []), ...(c.cameBack.length > 0 ? [`came back: ${c.cameBack.join(', ')}`] : [])];
  return `${c.text}${moves.length > 0 ? ` — ${moves.join('; ')}` : ''}`;
}

function checkpointText(c: AwayCheckpoint): string {
  return `checkpoint #${c.seq} ${c.id} (${c.reason}, ${c.files} file${c.files === 1 ? '' : 's'} changed)`;
}

/** One line of a session's timeline, without its time. */
export function awayItemText(i: AwayItem): string {
  return i.kind === 'interruption' ? interruptionText(i) : i.kind === 'checks' ? checksText(i) : checkpointText(i);
}

/** The usage line: requests, tokens and cost from the day the period began, or why none. */
export function awayUsageText(u: AwaySession['usage']): string {
  if ('problem' in u) return `usage: ${u.problem}`;
  return `usage since ${u.fromDay}: ${u.requests} request${u.requests === 1 ? '' : 's'}, ${u.tokens} tokens, ${costText(u)} (${u.priceTable})`;
}

/** "before: checks 2/2 passed · now: checks 1/2 passed (npm test failed)", or null when none ran. */
export function awayChecksLine(s: AwaySession): string | null {
  if (s.checksBefore === null && s.checksNow === null) return null;
  return `checks before: ${s.checksBefore?.text ?? 'none run'} · now: ${s.checksNow?.text ?? 'none run'}`;
}
