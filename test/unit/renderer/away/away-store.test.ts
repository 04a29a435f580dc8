// The store of "While you were away" (renderer/away/away-store.ts) against an API answering when
// told: the opening read shows the report, records the look or leaves it as the model says; "Got
// it" asks with `looked: true` and stays open with the reason when that fails; an answer that comes
// after the person closed it does not open it again. Plain Node: no page.
import { describe, expect, it } from 'vitest';
import { buildAwayReport, type AwayReport } from '../../../../common/away-report.js';
import type { MoriApi } from '../../../../common/mori-api.js';
import type { Result } from '../../../../common/result.js';
import { AwayStore } from '../../../../renderer/away/away-store.js';
import { at, NIGHT } from '../../../support/fixtures/away-night.js';

interface Pending {
  params: { looked?: boolean };
  answer: (r: Result<AwayReport>) => void;
}

function heldApi(): { api: Pick<MoriApi, 'call'>; calls: Pending[] } {
  const calls: Pending[] = [];
  const api = { call: (_m: string, params: Pending['params']) => new Promise((resolve) => calls.push({ params, answer: resolve })) } as unknown as Pick<MoriApi, 'call'>;
  return { api, calls };
}

const flush = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

/** The night since `sinceMinutes`, read at 09:00, from the window's mark or with none. */
const night = (sinceFrom: AwayReport['sinceFrom'], sinceMinutes = 0): AwayReport =>
  buildAwayReport({
    sinceMs: at(sinceMinutes).getTime(),
    nowMs: at(660).getTime(),
    sinceDay: '2026-12-05',
    sinceFrom,
    sessions: [{ id: 'w', name: 'web', agent: 'claude', intent: { kind: 'running' }, entries: NIGHT.web.map((e) => ({ atMs: at(e.minutes).getTime(), lines: e.lines })), checkpoints: [], changes: null, usage: { problem: 'none' }, task: { problem: 'absent' } }],
  });

describe("the store of the window's report", () => {
  it('shows a night since the last look on opening, without moving the mark', async () => {
    const { api, calls } = heldApi();
    const s = new AwayStore(api);
    s.open();
    calls[0]?.answer({ ok: true, value: night('last-looked') });
    await flush();
    expect(s.state.shown).toBe(true);
    expect(calls.map((c) => c.params.looked)).toEqual([false]);
  });

  it('records the first look instead of showing the default look-back', async () => {
    const { api, calls } = heldApi();
    const s = new AwayStore(api);
    s.open();
    calls[0]?.answer({ ok: true, value: night('default') });
    await flush();
    expect(s.state.shown).toBe(false);
    expect(calls.map((c) => c.params.looked)).toEqual([false, true]);
  });

  it('"Got it" moves the mark and hides it; when the mark cannot move, it stays with the reason', async () => {
    const { api, calls } = heldApi();
    const s = new AwayStore(api);
    const shown = s.show();
    calls[0]?.answer({ ok: true, value: night('last-looked') });
    await shown;
    const refused = s.dismiss();
    expect(calls[1]?.params.looked).toBe(true);
    calls[1]?.answer({ ok: false, code: 'unreadable', message: '/home/x/last-looked.json: not JSON; left as it is' } as Result<AwayReport>);
    await refused;
    expect(s.state).toMatchObject({ shown: true, status: 'Your look could not be recorded: /home/x/last-looked.json: not JSON; left as it is' });
    const moved = s.dismiss();
    calls[2]?.answer({ ok: true, value: night('last-looked') });
    await moved;
    expect(s.state.shown).toBe(false);
  });

  it('an answer that comes after the person closed it does not bring it back', async () => {
    const { api, calls } = heldApi();
    const s = new AwayStore(api);
    const late = s.show();
    s.hide();
    calls[0]?.answer({ ok: true, value: night('last-looked') });
    await late;
    expect(s.state).toMatchObject({ shown: false, report: null });
  });
});
