// The report of the time away (common/away-report.ts) over a night on a given clock: a crash loop
// left in attention, an outage resumed by id, a usage limit resumed fresh, a check gone red and back,
// three checkpoints; each named in order with its outcome, and what needs the person first.
import { describe, expect, it } from 'vitest';
import { buildAwayReport, type AwayInput, type AwaySessionInput } from '../../../common/away-report.js';
import { failingChecks } from '../../../common/away-lines.js';
import { at, NIGHT, NIGHT_CHECKPOINTS } from '../../support/fixtures/away-night.js';

const entries = (name: 'api' | 'web'): AwaySessionInput['entries'] => NIGHT[name].map((e) => ({ atMs: at(e.minutes).getTime(), lines: e.lines }));

const task = { task: ['Parser for the config language'], nextSteps: ['Error messages with positions'], lastWorkingState: null };

function input(sinceMinutes = 0): AwayInput {
  return {
    sinceMs: at(sinceMinutes).getTime(),
    nowMs: at(540).getTime(),
    sinceDay: '2026-12-05',
    sinceFrom: 'last-looked',
    sessions: [
      {
        id: 'w',
        name: 'web',
        agent: 'claude',
        intent: { kind: 'running' },
        entries: entries('web'),
        checkpoints: NIGHT_CHECKPOINTS.map((m, i) => ({ seq: i + 2, id: `c${i}`, atMs: at(m).getTime(), reason: 'periodic', files: i + 1 })),
        changes: { sinceSeq: 2, files: [{ path: 'src/parser.ts', kind: 'modified' }] },
        usage: { priceTable: 'table 1', days: [{ day: '2026-12-04', requests: 9, cost: 9, tokens: 9, unpriced: 0 }, { day: '2026-12-05', requests: 3, cost: 1.5, tokens: 3000, unpriced: 0 }, { day: '2026-12-06', requests: 2, cost: 0.5, tokens: 1000, unpriced: 1 }] },
        task,
      },
      { id: 'a', name: 'api', agent: 'codex', intent: { kind: 'attention', reason: 'crash-loop' }, entries: entries('api'), checkpoints: [], changes: null, usage: { problem: 'no record' }, task: { problem: 'session_state.md: absent' } },
      { id: 'q', name: 'quiet', agent: 'claude', intent: { kind: 'running' }, entries: [{ atMs: at(-90).getTime(), lines: ['SESSION STARTED - agent claude (new)'] }], checkpoints: [], changes: null, usage: { problem: 'none' }, task },
    ],
  };
}

describe('the report of a night away', () => {
  it('names each interruption, check run and checkpoint in order, with its outcome', () => {
    const r = buildAwayReport(input());
    const web = r.sessions.find((s) => s.name === 'web');
    expect(web?.timeline.map((i) => (i.kind === 'interruption' ? `${i.cause}→${i.outcome}` : i.kind === 'checks' ? `checks red:${i.wentRed.join()} back:${i.cameBack.join()}` : `checkpoint #${i.seq}`))).toEqual([
      'checkpoint #2',
      'network→resumed-by-id',
      'checks red:npm test back:',
      'checkpoint #3',
      'usage-limit→resumed-fresh',
      'checks red: back:npm test',
      'checkpoint #4',
    ]);
    expect(web?.checksBefore?.text).toBe('checks 2/2 passed');
    expect(web?.checksNow?.failing).toEqual([]);
    // The usage book's days from the one the period began on.
    expect(web?.usage).toEqual({ requests: 5, cost: 2, tokens: 4000, unpriced: 1, fromDay: '2026-12-05', priceTable: 'table 1' });
    expect(web?.account).toMatchObject({ task: task.task, nextSteps: task.nextSteps, logLines: ['Parser: tokens for strings \u001b[31mdone\u001b[0m', 'Parser: the string tests pass again'] });
  });

  it('says a crash loop once, with its restarts and the attention it ended in, and puts it first', () => {
    const r = buildAwayReport(input());
    const api = r.sessions[0];
    expect(api?.name).toBe('api');
    expect(api?.timeline).toHaveLength(1);
    expect(api?.timeline[0]).toMatchObject({ kind: 'interruption', cause: 'crash', times: 3, outcome: 'attention', detail: 'crash-loop: 3 crashes within 10 min of awake time; not restarted' });
    expect(r.needsYou).toEqual([{ session: 'api', why: 'needs attention (crash-loop): crash-loop: 3 crashes within 10 min of awake time; not restarted' }]);
    expect(r.quiet).toEqual(['quiet']);
  });

  it('leaves out what came before the moment, and keeps an outage still open', () => {
    const later = buildAwayReport(input(300));
    const web = later.sessions.find((s) => s.name === 'web');
    // The limit began at 02:00 and ended in the period: it is told; the outage and two checkpoints are not.
    expect(web?.timeline.map((i) => i.kind)).toEqual(['interruption', 'checks', 'checkpoint']);
    expect(web?.checksBefore?.failing).toEqual(['npm test']);
    const open = buildAwayReport({ ...input(140), nowMs: at(150).getTime(), sessions: [{ ...input().sessions[0]!, entries: entries('web').slice(0, 3), intent: { kind: 'interrupted', reason: 'network' } }] });
    expect(open.sessions[0]?.timeline.find((i) => i.kind === 'interruption')).toMatchObject({ cause: 'network', outcome: 'open' });
    expect(open.needsYou[0]?.why).toBe('interrupted (network), not resumed yet');
  });

  it('reads the names of failed and timed-out checks from a summary', () => {
    expect(failingChecks('npm test, lint failed; http :8000 timed out; 1 not run: needs trust')).toEqual(['npm test', 'lint', 'http :8000']);
  });
});
