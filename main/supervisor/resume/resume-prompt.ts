// Builds the resume prompt (DESIGN.md §5) from the state files, git and the verification results,
// within a character budget. Pure: every input is passed in; `mori prompt` and the supervisor gather
// them. Sections are filled by priority (the instructions and failing checks first, old log entries
// last) and printed in reading order; what does not fit is cut with a visible "… N more" line, and a
// last line names every section cut, so the agent knows to read those in the state files.
import type { CheckResultRecord } from '../../../common/session.js';
import type { TaskState } from '../../state/session-state.js';
import type { WorkLogEntry } from '../../state/work-log.js';

/** DESIGN.md §5: big enough for a useful prompt, small enough not to pollute the agent's context. */
export const RESUME_PROMPT_BUDGET = 6_000;
/** Output tail lines of a failing check shown in the prompt; the full tail stays in session.json. */
const FAILING_TAIL_LINES = 12;

export interface Interruption {
  reason: string;
  /** How long the agent was away, in ms, when known. */
  awayMs: number | null;
}

export interface ResumePromptInput {
  sessionName: string;
  stateDir: string;
  state: TaskState;
  recentLog: WorkLogEntry[];
  gitChanged: string[];
  interruption: Interruption | null;
  verification: CheckResultRecord[] | null;
  /** The person rolled files back since the agent last heard (rollback-notice.ts's text). */
  rollback?: string | null;
  budget?: number;
}

interface Block {
  title: string | null;
  lines: string[];
  /** Lower is more important: filled first when the budget is short. */
  priority: number;
}

export function buildResumePrompt(input: ResumePromptInput): string {
  const budget = input.budget ?? RESUME_PROMPT_BUDGET;
  const dir = input.stateDir;
  const s = input.state;
  const blocks: Block[] = [
    { title: null, priority: 0, lines: [headline(input)] },
    {
      title: 'State files',
      priority: 0,
      lines: [
        `- ${dir}/session_state.md: read this first; keep it current as you work`,
        `- ${dir}/environment.md: setup, services, test command`,
        `- ${dir}/work_log.md: append an entry for each step (never rewrite old ones)`,
      ],
    },
    { title: 'Rolled back by the person', priority: 1, lines: input.rollback ? [input.rollback] : [] },
    verificationBlock(input.verification),
    {
      title: 'Current task',
      priority: 2,
      lines: [...s.task.map((t) => `- ${t}`), ...(s.lastWorkingState ? [`- Last working state: ${s.lastWorkingState}`] : [])],
    },
    { title: 'Files in progress', priority: 3, lines: filesInProgress(s.filesTouched, input.gitChanged) },
    { title: 'Next steps', priority: 2, lines: s.nextSteps.map((t, i) => `${i + 1}. ${t}`) },
    { title: 'Decisions (do not re-argue)', priority: 3, lines: s.decisions.map((t) => `- ${t}`) },
    { title: 'Context', priority: 5, lines: s.context.map((t) => `- ${t}`) },
    { title: 'Re-read these files', priority: 4, lines: s.contextFiles.map((t) => `- ${t}`) },
    { title: 'Recent work log', priority: 6, lines: input.recentLog.flatMap(logLines) },
    {
      title: null,
      priority: 1,
      lines: [
        input.verification?.some((r) => r.status !== 'pass' && r.status !== 'skipped')
          ? 'Fix what the failing checks show first, then continue with the next step.'
          : 'Verify the current state (run the tests, check the services), then continue with the next step.',
      ],
    },
  ].filter((b) => b.lines.length > 0);

  // The note naming the cut sections takes room too: fitted again without it until the whole fits.
  let room = budget;
  for (;;) {
    const counts = fit(blocks, room);
    const note = cutNote(blocks, counts);
    const text = render(blocks, counts, note);
    if (text.length <= budget || room <= 0) return text;
    room -= text.length - budget;
  }
}

/** `Cut to keep this prompt short: Context (3 of 5 lines), Recent work log (all 8 lines) — …`, or null when nothing was cut. */
function cutNote(blocks: Block[], counts: number[]): string | null {
  const cut = blocks.flatMap((b, i) => {
    const n = counts[i] ?? 0;
    if (b.title === null || n >= b.lines.length) return [];
    return [`${b.title} (${n === 0 ? `all ${b.lines.length} lines` : `${b.lines.length - n} of ${b.lines.length} lines`})`];
  });
  return cut.length === 0 ? null : `Cut to keep this prompt short: ${cut.join(', ')}; read them in the state files.`;
}

function headline(input: ResumePromptInput): string {
  const i = input.interruption;
  if (i === null) return `You are working in the Mori session "${input.sessionName}". Its state files tell you where things stand.`;
  const away = i.awayMs === null ? '' : ` after ${formatDuration(i.awayMs)} away`;
  return `Mori resumed the session "${input.sessionName}"${away}: it was interrupted by ${i.reason}. Pick up where you left off.`;
}

function verificationBlock(results: CheckResultRecord[] | null): Block {
  if (results === null || results.length === 0) return { title: 'Verification', priority: 1, lines: [] };
  const bad = results.filter((r) => r.status !== 'pass' && r.status !== 'skipped');
  const passed = results.filter((r) => r.status === 'pass').length;
  const lines = [`${passed}/${results.length} checks passed.`];
  for (const r of bad) {
    lines.push(`- ${r.status.toUpperCase()}: ${r.kind} ${r.target} (${r.source}) — ${r.detail}`);
    const tail = (r.outputTail ?? '').split('\n').filter((l) => l.trim() !== '').slice(-FAILING_TAIL_LINES);
    for (const t of tail) lines.push(`    ${t}`);
  }
  for (const r of results.filter((x) => x.status === 'pass' || x.status === 'skipped')) {
    lines.push(`- ${r.status}: ${r.kind} ${r.target}`);
  }
  return { title: 'Verification (failing first)', priority: 1, lines };
}

function filesInProgress(touched: string[], changed: string[]): string[] {
  const lines = touched.map((f) => `- ${f}${changed.includes(f) ? ' (changed, uncommitted)' : ''}`);
  const extra = changed.filter((f) => !touched.includes(f));
  if (extra.length > 0) lines.push(`- also changed since the last commit: ${extra.join(', ')}`);
  return lines;
}

function logLines(e: WorkLogEntry): string[] {
  return [`## ${e.heading}`, ...e.lines.map((l) => `- ${l}`)];
}

export function formatDuration(ms: number): string {
  const min = Math.round(ms / 60_000);
  if (min < 1) return `${Math.max(1, Math.round(ms / 1000))}s`;
  const h = Math.floor(min / 60);
  const m = min % 60;
  if (h === 0) return `${m}m`;
  return m === 0 ? `${h}h` : `${h}h ${m}m`;
}

/**
 * How many lines of each block fit: blocks are filled in priority order, line by line; a block that
 * does not fit whole keeps its first lines and a "… N more" marker. Log blocks keep their LAST lines.
 */
function fit(blocks: Block[], budget: number): number[] {
  const counts = blocks.map(() => 0);
  let used = 0;
  const order = blocks.map((b, i) => ({ b, i })).sort((x, y) => x.b.priority - y.b.priority);
  for (const { b, i } of order) {
    const header = b.title === null ? 1 : b.title.length + 2;
    const marker = 40; // room for the "… N more" line
    if (used + header + marker > budget) continue;
    used += header;
    let n = 0;
    const lines = b.title === 'Recent work log' ? [...b.lines].reverse() : b.lines;
    for (const line of lines) {
      const cost = line.length + 1;
      if (used + cost + (n + 1 < lines.length ? marker : 0) > budget) break;
      used += cost;
      n++;
    }
    if (n < b.lines.length) used += marker;
    counts[i] = n;
  }
  return counts;
}

function render(blocks: Block[], counts: number[], note: string | null): string {
  const out: string[] = [];
  blocks.forEach((b, i) => {
    const n = counts[i] ?? 0;
    if (n === 0) return;
    const isLog = b.title === 'Recent work log';
    const shown = isLog ? b.lines.slice(b.lines.length - n) : b.lines.slice(0, n);
    const cut = b.lines.length - n;
    const part = [...(b.title ? [`${b.title}:`] : []), ...(isLog && cut > 0 ? [`… ${cut} earlier lines`] : []), ...shown];
    if (!isLog && cut > 0) part.push(`… ${cut} more (see the state files)`);
    out.push(part.join('\n'));
  });
  if (note !== null) out.push(note);
  return out.join('\n\n') + '\n';
}
