// What the first agent is told when a session comes back to it at its usage limit's reset (DESIGN.md
// §5, "Hand-off"): who had the session meanwhile and what it did — the work log's entries since the
// hand-off (the agent's own; Mori's entries say nothing of the work) and the files changed since the
// checkpoint taken at it. Pure; runs in the supervisor's process.
import type { FileChangeInfo } from '../../../common/checkpoints.js';
import type { HandedOver } from '../../../common/session.js';
import type { AgentProfile } from '../../agents/profile.js';
import type { WorkLogEntry } from '../../state/work-log.js';

/** The newest entries told, at most: a few hours of another agent's steps, not its whole day. */
export const HAND_BACK_MAX_ENTRIES = 15;
/** The files named, at most: the rest is counted ("… 12 more"); `mori changes` lists them all. */
export const HAND_BACK_MAX_FILES = 30;
/** The longest line of an entry told: an entry is a step, not a page. */
const ENTRY_LINE_MAX = 300;

/** A line Mori wrote (`SESSION RESUMED - …`, `CHECKPOINT - …`): capitals, then " - ". */
const MORI_LINE = /^[A-Z][A-Z]+(?: [A-Z]+)* - /;

/** The work log's line that opened this hand-over. */
export const handedOffLine = (h: Pick<HandedOver, 'from' | 'to'>): string => `SESSION HANDED OFF - ${h.from} → ${h.to}`;

/**
 * The agent's own entries after the hand-off: those after the last entry that opened it, or, when
 * that entry is no longer in `entries` (compacted, or further back than was read), those headed at or
 * after its minute. Mori's own lines are left out, and entries left with none.
 */
export function entriesSinceHandoff(entries: readonly WorkLogEntry[], h: Pick<HandedOver, 'from' | 'to' | 'at'>): WorkLogEntry[] {
  const opener = handedOffLine(h);
  const at = entries.findLastIndex((e) => e.lines.some((l) => l.startsWith(opener)));
  const minute = Math.floor(h.at / 60_000) * 60_000;
  const after = at >= 0 ? entries.slice(at + 1) : entries.filter((e) => e.at !== null && e.at.getTime() >= minute);
  return after.map((e) => ({ ...e, lines: e.lines.filter((l) => !MORI_LINE.test(l)) })).filter((e) => e.lines.length > 0);
}

export interface HandBackInput {
  /** The agent coming back, and the one that had the session meanwhile. */
  back: AgentProfile;
  other: AgentProfile;
  /** The other agent's own conversation id, kept in previousIds; null when it was never learnt. */
  otherId: string | null;
  entries: readonly WorkLogEntry[];
  /** The files changed since the hand-off's checkpoint; null when they cannot be known (no git, no checkpoint), with why. */
  files: readonly FileChangeInfo[] | null;
  filesUnknown?: string | undefined;
}

const cut = (line: string): string => (line.length > ENTRY_LINE_MAX ? `${line.slice(0, ENTRY_LINE_MAX - 1)}…` : line);

/** The lines heading the first agent's prompt when the session comes back to it. */
export function handBackPreface(input: HandBackInput): string {
  const { back, other } = input;
  const kept = input.otherId === null ? '' : ` (its conversation ${input.otherId} is kept)`;
  const entries = input.entries.slice(-HAND_BACK_MAX_ENTRIES);
  const older = input.entries.length - entries.length;
  const lines = [
    `Mori handed this session back to you (${back.label}): your usage limit reset. While you were away ${other.label} worked on it${kept}; here is what it did. Read the state files before going on: they are current.`,
    '',
    `${other.label}'s work log entries since the hand-off:`,
    ...(entries.length === 0 ? ['- none'] : []),
    ...(older > 0 ? [`- … ${older} earlier in work_log.md`] : []),
    ...entries.flatMap((e) => e.lines.map((l, i) => `- ${i === 0 ? `${e.heading}: ` : '  '}${cut(l)}`)),
    '',
  ];
  if (input.files === null) {
    lines.push(`Files changed since the hand-off: not known (${input.filesUnknown ?? 'no checkpoint'}); see git status.`);
  } else {
    const shown = input.files.slice(0, HAND_BACK_MAX_FILES);
    lines.push(`Files changed since the hand-off: ${input.files.length === 0 ? 'none' : ''}`.trimEnd());
    for (const f of shown) lines.push(`- ${f.path} (${f.kind})`);
    if (input.files.length > shown.length) lines.push(`- … ${input.files.length - shown.length} more (\`mori changes\` lists them)`);
  }
  return lines.join('\n');
}
