// A wake's nudge still being typed when the agent meets its usage limit (resume-controller.ts,
// typed-input.ts): the 1,000-fault soak of seed 7 saw the sleep's resume type "You were interrupted…"
// into an agent 20 s after its limit (the nudge's reads held up on a loaded machine), 53 s before
// its reset. The nudge is withdrawn once the limit takes the session over: typed, it is never
// submitted. The fake agent in a real direct pty; the typing's pause before Enter is held by the
// test (a scheduler that keeps it until let go) while the limit is reported as the agent's hook does.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { systemScheduler, type Scheduler } from '../../../main/power/clock.js';
import { PASTE_SETTLE_MS } from '../../../main/agents/typing.js';
import { SupervisorHarness } from '../../support/supervisor-harness.js';
import { until } from '../../../testkit/until.js';

let h: SupervisorHarness;
beforeEach(() => {
  h = new SupervisorHarness('sup-limit-nudge');
});
afterEach(() => h.cleanup());

/** The system's scheduler, but a kept-alive pause of the paste's settle (the typing's before Enter) waits while `closed`. */
function gated(): { scheduler: Scheduler; held: (() => void)[]; open: () => void; closed: boolean } {
  const gate = {
    closed: false,
    held: [] as (() => void)[],
    open: () => {
      gate.closed = false;
      for (const fn of gate.held.splice(0)) fn();
    },
    scheduler: {
      after: (ms: number, fn: () => void, keepAlive?: boolean) => {
        if (!gate.closed || ms !== PASTE_SETTLE_MS || keepAlive !== true) return systemScheduler.after(ms, fn, keepAlive);
        gate.held.push(fn);
        return () => undefined;
      },
    } satisfies Scheduler,
  };
  return gate;
}

const nudges = (): unknown[] => h.records().filter((r) => r['event'] === 'input' && String(r['line']).startsWith('You were interrupted'));

it("a wake's nudge typed as the agent meets its usage limit is withdrawn: no Enter into a limited agent", async () => {
  await h.session('lim');
  const gate = gated();
  const sup = h.supervisor({ env: h.env(), verify: false, scheduler: gate.scheduler });
  expect((await sup.start()).ok).toBe(true);
  await until('the agent at its prompt', () => h.events.some((e) => e.type === 'session.activity' && e.name === 'lim' && e.to === 'waiting'));
  // Its status says idle before it takes the task: the task's turn ends first (a nudge into a working agent is not typed).
  await until('the first turn to end', () => h.records().some((r) => r['event'] === 'hook' && r['name'] === 'Stop'));

  // A sleep and its wake: the resume nudges the live agent at its prompt, held before its Enter.
  expect(sup.interruptSession('lim', 'sleep').ok).toBe(true);
  gate.closed = true;
  const resumed = sup.resumeSession('lim', 'sleep');
  await until('the nudge typed, its Enter pending', () => gate.held.length > 0);

  // Meanwhile the agent's turn ends on its limit (its StopFailure hook).
  const report = sup.reportUsageLimit('lim', { profile: 'claude', source: 'hook', resetAtMs: Date.now() + 60_000, text: 'Claude AI usage limit reached' });
  expect(report.ok && report.value).toBe('limited');
  await resumed;
  gate.open();
  // Long past the typing's own waits (the confirmation's 5 s each for two Enters would show a submission within 1 s).
  await new Promise((r) => setTimeout(r, 2_000));
  expect(nudges()).toEqual([]);
  expect(h.workLog('lim')).not.toMatch(/SESSION RESUMED - system sleep/);
  expect(h.workLog('lim')).not.toMatch(/INPUT NOT SUBMITTED/);
});
