// What the window's "While you were away" shows (renderer/away/away-model.ts) of a night's report
// (common/away-report.ts over test/support/fixtures/away-night.ts): when it opens by itself, and
// each session's items in order with their times, outcomes' tones, the files changed and the
// agent's account as written.
import { describe, expect, it } from 'vitest';
import { buildAwayReport, type AwayInput, type AwayReport } from '../../../../common/away-report.js';
import { AWAY_MIN_MS, awayView, clock, onOpen } from '../../../../renderer/away/away-model.js';
import { at, NIGHT, NIGHT_CHECKPOINTS } from '../../../support/fixtures/away-night.js';

const task = { task: ['Parser for the config language'], nextSteps: ['Error messages with positions'], lastWorkingState: null };

function report(o: { sinceMinutes?: number; nowMinutes?: number; sinceFrom?: AwayInput['sinceFrom'] } = {}): AwayReport {
  return buildAwayReport({
    sinceMs: at(o.sinceMinutes ?? 0).getTime(),
    nowMs: at(o.nowMinutes ?? 540).getTime(),
    sinceDay: '2026-12-05',
    sinceFrom: o.sinceFrom ?? 'last-looked',
    sessions: [
      {
        id: 'w',
        name: 'web',
        agent: 'claude',
        intent: { kind: 'running' },
        entries: NIGHT.web.map((e) => ({ atMs: at(e.minutes).getTime(), lines: e.lines })),
        checkpoints: NIGHT_CHECKPOINTS.map((m, i) => ({ seq: i + 1, id: `c${i}`, atMs: at(m).getTime(), reason: 'periodic', files: i + 1 })),
        changes: { sinceSeq: 1, files: [{ path: 'src/parser.ts', kind: 'modified' }] },
        usage: { problem: 'no record' },
        task,
      },
      { id: 'a', name: 'api', agent: 'codex', intent: { kind: 'attention', reason: 'crash-loop' }, entries: NIGHT.api.map((e) => ({ atMs: at(e.minutes).getTime(), lines: e.lines })), checkpoints: [], changes: null, usage: { problem: 'no record' }, task: { problem: 'absent' } },
      { id: 'q', name: 'docs', agent: 'claude', intent: { kind: 'running' }, entries: [], checkpoints: [], changes: null, usage: { problem: 'none' }, task },
    ],
  });
}

describe('when the report opens by itself', () => {
  it('shows a night since a last look long ago', () => {
    expect(onOpen(report())).toBe('show');
  });

  it('records the first look (no mark yet) instead of showing a default look-back', () => {
    expect(onOpen(report({ sinceFrom: 'default' }))).toBe('mark');
  });

  it('records the look when nothing happened since, even with a session still needing the person', () => {
    const r = report({ sinceMinutes: 520, nowMinutes: 540 });
    expect(r.needsYou).not.toEqual([]);
    expect(onOpen(r)).toBe('mark');
  });

  it('leaves a recent look as it is (a reload is not time away), news or not', () => {
    const r = report({ sinceMinutes: 475, nowMinutes: 475 + AWAY_MIN_MS / 60_000 - 1 });
    expect(r.sessions.find((s) => s.name === 'web')?.timeline).not.toEqual([]);
    expect(onOpen(r)).toBe('leave');
  });
});

describe('the view of a night', () => {
  it('puts what needs the person first and each session after, its items in order with times and tones', () => {
    const v = awayView(report());
    expect(v.needsYou.map((n) => n.session)).toEqual(['api']);
    expect(v.sessions.map((s) => s.title)).toEqual(['api (codex)', 'web (claude)']);
    const web = v.sessions[1];
    expect(web?.items.map((i) => `${i.time} ${i.tone} ${i.text}`)).toEqual([
      'Sat 22:30 plain checkpoint #1 c0 (periodic, 1 file changed)',
      'Sun 00:10–00:40 good network lost → resumed by id',
      'Sun 00:40 bad checks 1/2 passed (npm test failed) — went red: npm test',
      'Sun 01:20 plain checkpoint #2 c1 (periodic, 2 files changed)',
      'Sun 02:00–06:01 good reached its usage limit → resumed fresh',
      'Sun 06:01 good checks 2/2 passed — came back: npm test',
      'Sun 06:10 plain checkpoint #3 c2 (periodic, 3 files changed)',
    ]);
    // The crash loop began at 23:00 and ended in attention at 23:02, the night's first day.
    expect(v.sessions[0]?.items.map((i) => `${i.time} ${i.tone}`)).toEqual(['Sat 23:00–23:02 bad']);
    expect(web?.changes).toEqual({ heading: 'Files changed since checkpoint #1', files: ['src/parser.ts (modified)'] });
    // The agent's text as written (the component marks its escapes).
    expect(web?.account).toEqual({ task: task.task, nextSteps: task.nextSteps, logLines: ['Parser: tokens for strings \u001b[31mdone\u001b[0m', 'Parser: the string tests pass again'] });
    expect(v.sessions[0]?.account).toEqual({ problem: 'absent' });
    expect(v.quiet).toBe('Nothing happened in: docs');
  });

  it('says where the period began from, with weekdays when it spans days', () => {
    expect(awayView(report()).since).toBe('Since 22:00 yesterday (your last look)');
    expect(clock(at(130).getTime(), true)).toBe('Sun 00:10');
    expect(awayView(report({ sinceMinutes: 130, sinceFrom: 'given' })).since).toBe('Since 00:10 today (the time asked)');
  });
});
