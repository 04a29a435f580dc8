// Wake → resume action issued (DESIGN.md §10): 20 sessions waking together, p95 ≤ 100 ms beyond the checks' own time. A real
// Supervisor with fake agents in real ptys, a tcp check on loopback per session, and a PowerWatch fed
// suspend/resume pairs; for each session and wake, the time from the resume being fed to the
// session's `session.resuming` (the resume action is issued: the nudge starts being typed), minus
// its verification's own duration (verify.started → finished). The time to `session.resumed` (the
// nudge confirmed taken: the agent echoed it and went busy) is reported beside it; it includes the
// agent's own reaction time, which is not Mori's to budget.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { SupervisorEvent } from '../common/events.js';
import { createPowerWatch } from '../main/power/power-watch.js';
import { createSession } from '../main/state/state-dir.js';
import { InterruptionOrchestrator } from '../main/daemon/interruption-orchestrator.js';
import { Supervisor } from '../main/supervisor/supervisor.js';
import { percentile } from './lib/percentile.js';
import { FAKE_AGENT as FAKE } from './lib/setup.js';

const SESSIONS = 20;
/** 20 sessions × 10 wakes: 200 samples for the p95. */
const WAKES = 10;
const BUDGET_MS = 100;

async function waitFor(cond: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'mori-bench-wake-'));
  const server = net.createServer((s) => s.destroy());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as net.AddressInfo).port;
  const home = path.join(root, 'home');
  const env = { ...process.env, MORI_AGENT_BIN_CLAUDE: FAKE, CLAUDE_CONFIG_DIR: path.join(root, 'claude'), MORI_PROBE: 'none' };
  for (let i = 0; i < SESSIONS; i++) {
    const project = path.join(root, `p${i}`);
    mkdirSync(project);
    const c = await createSession({ projectDir: project, name: `w${i}`, profile: 'claude', backend: 'direct', home });
    if (!c.ok) throw new Error(c.message);
    appendFileSync(path.join(c.value.stateDir, 'environment.md'), `\n## Checks\n- tcp: 127.0.0.1:${port}\n`);
  }
  const sup = new Supervisor({ home, env, tmux: null, startStaggerMs: 0 });
  const events: { e: SupervisorEvent; t: number }[] = [];
  sup.on((e) => events.push({ e, t: performance.now() }));
  const started = await sup.start();
  if (!started.ok) throw new Error(started.message);
  await waitFor(() => events.filter((x) => x.e.type === 'session.activity' && x.e.to === 'waiting').length >= SESSIONS);
  const power = createPowerWatch({ env: { MORI_PROBE: 'none' } });
  const orch = new InterruptionOrchestrator(sup, power);

  const beyond: number[] = [];
  const confirmed: number[] = [];
  const checks: number[] = [];
  try {
    for (let w = 0; w < WAKES; w++) {
      const before = events.length;
      power.feed({ type: 'suspend', source: 'test' });
      const fedAt = performance.now();
      power.feed({ type: 'resume', source: 'test', sleptMs: 1_000 });
      await waitFor(() => events.slice(before).filter((x) => x.e.type === 'session.resumed').length >= SESSIONS);
      await orch.idle();
      const mine = events.slice(before);
      for (const s of sup.list()) {
        const of = (type: string) => mine.find((x) => x.e.type === type && 'sessionId' in x.e && x.e.sessionId === s.id)?.t ?? NaN;
        const verify = of('verify.finished') - of('verify.started');
        checks.push(verify);
        beyond.push(of('session.resuming') - fedAt - verify);
        confirmed.push(of('session.resumed') - fedAt - verify);
      }
      // Let the nudged agents settle back to waiting before the next sleep.
      await new Promise((r) => setTimeout(r, 300));
    }
  } finally {
    orch.dispose();
    power.dispose();
    await sup.shutdown();
    server.close();
    rmSync(root, { recursive: true, force: true });
  }
  const p95 = percentile(beyond, 95);
  process.stdout.write(
    JSON.stringify({
      name: 'wake-resume',
      budget: `wake → resume action issued, ${SESSIONS} sessions waking together, p95 <= ${BUDGET_MS} ms beyond the checks' own time`,
      pass: p95 <= BUDGET_MS,
      sessions: SESSIONS,
      wakes: WAKES,
      samples: beyond.length,
      p50BeyondChecksMs: Math.round(percentile(beyond, 50)),
      p95BeyondChecksMs: Math.round(p95),
      maxBeyondChecksMs: Math.round(Math.max(...beyond)),
      p50ChecksMs: Math.round(percentile(checks, 50)),
      p50ConfirmedBeyondChecksMs: Math.round(percentile(confirmed, 50)),
      p95ConfirmedBeyondChecksMs: Math.round(percentile(confirmed, 95)),
    }) + '\n',
  );
  process.exit(0);
}

await main();
