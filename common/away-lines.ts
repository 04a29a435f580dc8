// What Mori's own work-log lines say, read back for the report of the time away (DESIGN.md §9,
// "mori report"): `SESSION INTERRUPTED - …`, `SESSION RESUMED - …`, `VERIFIED - checks 3/4 passed
// (tests failed)`, and the others the supervisor writes (main/supervisor/). The work log is the one
// record of these that outlives the daemon, so the report reads it; an agent can write the same
// words, and the report only ever shows them as text. Pure TypeScript (the CLI and the daemon).

export type AwayLine =
  | { kind: 'interrupted'; words: string; cause: InterruptCause }
  | { kind: 'limited'; words: string }
  | { kind: 'resumed'; words: string; how: ResumeHow }
  | { kind: 'handed-off'; words: string }
  | { kind: 'attention'; reason: string; message: string }
  | { kind: 'stopped'; words: string }
  | { kind: 'finished'; words: string }
  | { kind: 'checks'; text: string; passed: number; total: number; failing: string[] };

export type InterruptCause = 'crash' | 'sleep' | 'network' | 'usage-limit' | 'reboot' | 'mori' | 'other';
/** By the agent's own id, fresh with the resume prompt, or the live agent went on (nudged or not). */
export type ResumeHow = 'by-id' | 'fresh' | 'went-on';

/** `WORDS IN CAPITALS - rest`: the shape of every line Mori writes; a checkpoint's has its id before the dash. */
const MORI_LINE = /^([A-Z][A-Z]+(?: [A-Z]+)*)(?: [0-9a-f]{7,40})? - (.*)$/;
/** The verification summary (common/checks.ts summarizeResults), inside a VERIFIED or a RESUMED line. */
const CHECKS = /checks (\d+)\/(\d+) passed(?: \((.*?)\))?(?:;|$)/;

/** Whether a work-log line has the shape of Mori's own (the agent's lines are its account). */
export const isMoriLine = (line: string): boolean => MORI_LINE.test(line);

function causeOf(words: string): InterruptCause {
  if (words.startsWith('agent crashed') || words.startsWith('agent exited')) return 'crash';
  if (words.startsWith('system sleep')) return 'sleep';
  if (words.startsWith('network lost')) return 'network';
  if (words.startsWith('after usage limit')) return 'usage-limit';
  if (words.startsWith('reboot')) return 'reboot';
  if (words.startsWith('Mori exited') || words.startsWith('supervisor stopped')) return 'mori';
  return 'other';
}

function howResumed(words: string): ResumeHow {
  if (words.includes('relaunched with its resume command')) return 'by-id';
  if (words.includes('started fresh')) return 'fresh';
  return 'went-on';
}

/** The names of the checks a summary's brackets list as failed or timed out. */
export function failingChecks(brackets: string | undefined): string[] {
  if (brackets === undefined) return [];
  return brackets
    .split('; ')
    .flatMap((part) => {
      const m = /^(.*) (?:failed|timed out)$/.exec(part);
      return m ? (m[1] as string).split(', ') : [];
    })
    .filter((n) => n.length > 0);
}

function checksIn(text: string): AwayLine | null {
  const m = CHECKS.exec(text);
  if (m === null) return null;
  return { kind: 'checks', text: m[0].replace(/;$/, ''), passed: Number(m[1]), total: Number(m[2]), failing: failingChecks(m[3]) };
}

/** What one line says, as facts for the report: none, one, or two (a resume with its checks). */
export function readAwayLine(line: string): AwayLine[] {
  const m = MORI_LINE.exec(line);
  if (m === null) return [];
  const [, marker, rest] = m as unknown as [string, string, string];
  switch (marker) {
    case 'SESSION INTERRUPTED':
      return [{ kind: 'interrupted', words: rest, cause: causeOf(rest) }];
    case 'SESSION LIMITED':
      return [{ kind: 'limited', words: rest }];
    case 'SESSION RESUMED': {
      const checks = checksIn(rest);
      return [...(checks ? [checks] : []), { kind: 'resumed', words: rest, how: howResumed(rest) }];
    }
    case 'SESSION HANDED OFF':
      return [{ kind: 'handed-off', words: rest }];
    case 'SESSION NEEDS ATTENTION': {
      const colon = rest.indexOf(': ');
      return [colon < 0 ? { kind: 'attention', reason: rest, message: '' } : { kind: 'attention', reason: rest.slice(0, colon), message: rest.slice(colon + 2) }];
    }
    case 'SESSION STOPPED':
      return [{ kind: 'stopped', words: rest }];
    case 'SESSION FINISHED':
      return [{ kind: 'finished', words: rest }];
    case 'VERIFIED': {
      const checks = checksIn(rest);
      return checks ? [checks] : [];
    }
    default:
      return [];
  }
}
