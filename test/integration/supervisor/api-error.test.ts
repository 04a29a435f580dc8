// An agent left at its API error while the network answers (resume/error-watch.ts, DESIGN.md §4
// "Resume action"), with the fake agent in real direct ptys and short, test-given pauses: it is
// nudged after the grace and the count starts again once a nudged turn completes; one that fails
// every time gets exactly as many nudges as pauses, further and further apart, then attention
// (api-error) and nothing more; one at its error while its session is interrupted by a network loss
// gets nothing from this watch (the network's return resumes it).
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { SupervisorEvent } from '../../../common/events.js';
import { InterruptionOrchestrator } from '../../../main/daemon/interruption-orchestrator.js';
import { createPowerWatch, type PowerWatch } from '../../../main/power/power-watch.js';
import type { Supervisor } from '../../../main/supervisor/supervisor.js';
import { SupervisorHarness } from '../../support/supervisor-harness.js';
import { until } from '../../../testkit/until.js';

let h: SupervisorHarness;
let events: SupervisorEvent[] = [];
let power: PowerWatch | null = null;
let orch: InterruptionOrchestrator | null = null;

beforeEach(() => {
  h = new SupervisorHarness('sup-api-error');
  events = h.events;
});
afterEach(async () => {
  orch?.dispose();
  power?.dispose();
  orch = null;
  power = null;
  await h.cleanup();
});

async function start(name: string, script: string, apiErrorNudgeMs: readonly number[]): Promise<Supervisor> {
  await h.session(name);
  const sup = h.supervisor({ env: h.env({ FAKE_AGENT_SCRIPT: script }), verify: false, apiErrorNudgeMs });
  expect((await sup.start()).ok).toBe(true);
  return sup;
}

/** The nudges typed into the agent (the claude profile's nudge starts so). */
const nudges = (): { line: string; at: number }[] =>
  h.records().flatMap((r) => (r['event'] === 'input' && String(r['line']).startsWith('You were interrupted') ? [{ line: String(r['line']), at: Number(r['at']) }] : []));
const notes = (name: string): string[] => h.workLog(name).match(/SESSION NOTE - the agent stayed at its API error for [^\n]*/g) ?? [];
const activity = (to: string): number => events.filter((e) => e.type === 'session.activity' && e.to === to).length;

it('an agent left at its API error is nudged after the grace; a nudged turn that completes starts the count again', async () => {
  // Its first turn and the first nudge fail (an outage that ends), the second nudge's turn works.
  const s = await start('flaky', 'failing:2', [1_000, 1_000, 1_000, 1_000]);
  await until('the API error', () => activity('error') >= 1);
  await until('two nudges, the second taken and its turn done', () => nudges().length === 2 && notes('flaky').length === 2, () => h.workLog('flaky'), 20_000);
  await until('the turn completed', () => events.some((e) => e.type === 'session.activity' && e.from === 'working' && e.to === 'waiting' && events.indexOf(e) > events.findIndex((x) => x.type === 'session.activity' && x.to === 'error')), () => JSON.stringify(events.filter((e) => e.type === 'session.activity')), 10_000);
  expect(notes('flaky')[0]).toMatch(/for \d+s: nudged to continue \(1 of 4\)$/);
  expect(notes('flaky')[1]).toMatch(/nudged to continue \(2 of 4\)$/);
  // A later failed turn starts a new series: 1 of 4 again, not 3 of 4.
  const errorsBefore = activity('error');
  expect((await s.send('flaky', 'fail')).ok).toBe(true);
  await until('the API error again', () => activity('error') > errorsBefore);
  await until('the third nudge noted', () => notes('flaky').length === 3, () => h.workLog('flaky'), 20_000);
  expect(notes('flaky')[2]).toMatch(/nudged to continue \(1 of 4\)$/);
  expect(nudges()).toHaveLength(3);
  expect(h.starts()).toHaveLength(1);
  expect(events.some((e) => e.type === 'session.attention')).toBe(false);
}, 60_000);

it('an agent that fails every time gets exactly N nudges, further and further apart, then attention(api-error) and nothing typed after', async () => {
  const steps = [500, 1_500, 3_000];
  await start('down', 'offline', steps);
  await until('the API error', () => activity('error') >= 1);
  await until('attention', () => events.some((e) => e.type === 'session.attention'), () => h.workLog('down'), 30_000);
  const attention = events.find((e) => e.type === 'session.attention');
  expect(attention).toMatchObject({ reason: 'api-error' });
  expect(attention?.type === 'session.attention' && attention.message).toMatch(/stayed at its API error for \d+s through 3 nudges from Mori; .*invalid API key or an account problem/);
  const typed = nudges();
  expect(typed).toHaveLength(3);
  // Each pause is at least its step, so the later ones are longer: 1.5 s, then 3 s.
  const gaps = [typed[1]!.at - typed[0]!.at, typed[2]!.at - typed[1]!.at];
  expect(gaps[0]).toBeGreaterThanOrEqual(steps[1]!);
  expect(gaps[1]).toBeGreaterThanOrEqual(steps[2]!);
  expect(notes('down').map((n) => /\((\d) of 3\)$/.exec(n)?.[1])).toEqual(['1', '2', '3']);
  expect(h.workLog('down')).toMatch(/SESSION NEEDS ATTENTION - api-error: the agent stayed at its API error/);
  // Left to the person: nothing more is typed, however long it stays there.
  await sleep(steps[2]! + 2_000);
  expect(nudges()).toHaveLength(3);
  expect(h.starts()).toHaveLength(1);
}, 60_000);

it('an agent at its API error while its session is interrupted by a network loss gets nothing from this watch', async () => {
  const server = await new Promise<net.Server>((resolve) => {
    const srv = net.createServer((c) => c.destroy());
    srv.listen(0, '127.0.0.1', () => resolve(srv));
  });
  const port = (server.address() as net.AddressInfo).port;
  const s = await start('net', '', [500]);
  await until('the agent at its prompt', () => activity('waiting') >= 1);
  power = createPowerWatch({ env: { MORI_PROBE: `127.0.0.1:${port}` }, network: { onlineIntervalMs: 200, confirmIntervalMs: 200, offlineIntervalMs: 200 } });
  orch = new InterruptionOrchestrator(s, power);
  await new Promise<void>((r) => server.close(() => r()));
  await until('interrupted by the network loss', () => events.some((e) => e.type === 'session.interrupted' && e.reason === 'network'), undefined, 20_000);
  // Its request fails meanwhile: it shows its API error while interrupted.
  expect((await s.send('net', 'fail')).ok).toBe(true);
  await until('the API error', () => activity('error') >= 1);
  // Many graces later: nothing typed, nothing noted.
  await sleep(3_000);
  expect(nudges()).toEqual([]);
  expect(notes('net')).toEqual([]);
}, 60_000);
