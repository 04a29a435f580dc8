// Usage limit → resume (DESIGN.md §4 "Usage limits", §10): a session at its agent's usage limit is
// resumed once, at the reset plus a random delay of at most LIMIT_JITTER_MS (60 s), so sessions
// limited together do not stampede; budget: limited → resume action ≤ 61 s after resetAt (the
// jitter's cap plus a second for Mori itself), and no two sessions resumed within 1 s of each other.
//
// A real Supervisor with fake agents in real ptys: SESSIONS sessions wait at their prompt, each is
// typed `limit:Claude AI usage limit reached|<epoch>` (the agent's limit screen, read from the screen
// as in life) with one reset time a few seconds ahead, so all are limited together. The jitter is
// the production one (the supervisor is given no jitter option and draws with Math.random): scaling
// it down would change the rule it follows (the window is cut into 2 s slots, one resume per slot),
// so it would measure another rule. One minute of waiting covers every session at once instead, each
// being one sample: the time from resetAt to its `session.resuming` (the resume action is issued:
// the nudge starts being typed, or the agent is relaunched). Beside it, the time from the plan's own
// resumeAt to that event (what Mori adds to the jitter it drew), and the smallest gap between two
// sessions' resumes. Takes about 75 s.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SupervisorEvent } from '../common/events.js';
import { createSession } from '../main/state/state-dir.js';
import { LIMIT_JITTER_MS, LIMIT_MIN_GAP_MS } from '../main/supervisor/limits/limit-plan.js';
import { Supervisor } from '../main/supervisor/supervisor.js';
import { ascending, percentile } from './lib/percentile.js';
import { FAKE_AGENT as FAKE } from './lib/setup.js';

/** Ten sessions limited at once: the case the jitter is for. */
const SESSIONS = Number(process.env.BENCH_LIMIT_SESSIONS ?? 10);
/** The jitter's cap plus a second for Mori's own part. */
const BUDGET_MS = LIMIT_JITTER_MS + 1_000;
/** The reset this far ahead: every session is typed its limit and reads it well before (a loaded machine included). */
const RESET_AHEAD_MS = 6_000;

async function waitFor(what: string, cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

type Seen = { e: SupervisorEvent; at: number };
const of = (events: Seen[], type: string, id: string): Seen[] => events.filter((x) => x.e.type === type && 'sessionId' in x.e && x.e.sessionId === id);

async function main(): Promise<void> {
  const benchStart = performance.now();
  const root = mkdtempSync(path.join(os.tmpdir(), 'mori-bench-limit-'));
  const home = path.join(root, 'home');
  const env = { ...process.env, MORI_AGENT_BIN_CLAUDE: FAKE, CLAUDE_CONFIG_DIR: path.join(root, 'claude'), MORI_PROBE: 'none' };
  for (let i = 0; i < SESSIONS; i++) {
    const project = path.join(root, `p${i}`);
    mkdirSync(project);
    const c = await createSession({ projectDir: project, name: `l${i}`, profile: 'claude', backend: 'direct', home });
    if (!c.ok) throw new Error(c.message);
  }
  const sup = new Supervisor({ home, env, tmux: null, startStaggerMs: 0 });
  // Wall-clock times: resetAt and the plan's resumeAt are epoch ms.
  const events: Seen[] = [];
  sup.on((e) => events.push({ e, at: Date.now() }));
  const started = await sup.start();
  if (!started.ok) throw new Error(started.message);
  const ids = sup.list().map((s) => s.id);
  const delays: number[] = [];
  const beyondPlan: number[] = [];
  const resumes: number[] = [];
  let resetAt = 0;
  let lateLimits = 0;
  let extraResumes = 0;
  try {
    await waitFor('every agent at its prompt', () => ids.every((id) => of(events, 'session.activity', id).some((x) => 'to' in x.e && x.e.to === 'waiting')), 60_000);
    // Whole seconds: the epoch form names seconds.
    const resetSec = Math.ceil((Date.now() + RESET_AHEAD_MS) / 1000);
    resetAt = resetSec * 1000;
    const typed = await Promise.all(sup.list().map((s) => sup.send(s.name, `limit:Claude AI usage limit reached|${resetSec}`)));
    for (const t of typed) if (!t.ok) throw new Error(t.message);
    await waitFor('every session limited', () => ids.every((id) => of(events, 'session.limited', id).length > 0), 30_000);
    for (const id of ids) {
      const limited = of(events, 'session.limited', id)[0];
      if (limited === undefined || limited.e.type !== 'session.limited') continue;
      if (limited.e.plan.resetAt !== resetAt) throw new Error(`session ${id}: reset read as ${limited.e.plan.resetAt}, not ${resetAt}`);
      if (limited.at > resetAt) lateLimits++;
    }
    await waitFor('every resume', () => ids.every((id) => of(events, 'session.resuming', id).length > 0), resetAt + LIMIT_JITTER_MS + 20_000 - Date.now());
    // A moment for a second resume, which must not come.
    await new Promise((r) => setTimeout(r, 2_000));
    for (const id of ids) {
      const limited = of(events, 'session.limited', id).at(-1);
      const resuming = of(events, 'session.resuming', id);
      extraResumes += resuming.length - 1;
      const first = resuming[0];
      if (first === undefined || limited === undefined || limited.e.type !== 'session.limited') continue;
      delays.push(first.at - resetAt);
      beyondPlan.push(first.at - limited.e.plan.resumeAt);
      resumes.push(first.at);
    }
  } finally {
    await sup.shutdown();
    rmSync(root, { recursive: true, force: true });
  }
  const inOrder = ascending(resumes);
  const gaps = inOrder.slice(1).map((t, i) => t - (inOrder[i] as number));
  const minGap = Math.min(...gaps);
  const max = Math.max(...delays);
  process.stdout.write(
    JSON.stringify({
      name: 'usage-limit-resume',
      budget: `limited → resume action ≤ ${BUDGET_MS / 1000} s after resetAt (production jitter ≤ ${LIMIT_JITTER_MS / 1000} s), ${SESSIONS} sessions limited together, no two resumed within ${LIMIT_MIN_GAP_MS / 1000} s, one resume each`,
      pass: delays.length === SESSIONS && max <= BUDGET_MS && minGap >= LIMIT_MIN_GAP_MS && extraResumes === 0 && lateLimits === 0,
      sessions: SESSIONS,
      samples: delays.length,
      p50AfterResetMs: Math.round(percentile(delays, 50)),
      p95AfterResetMs: Math.round(percentile(delays, 95)),
      maxAfterResetMs: Math.round(max),
      minAfterResetMs: Math.round(Math.min(...delays)),
      p50BeyondPlanMs: Math.round(percentile(beyondPlan, 50)),
      maxBeyondPlanMs: Math.round(Math.max(...beyondPlan)),
      minGapBetweenSessionsMs: Math.round(minGap),
      spreadFirstToLastMs: Math.round((inOrder.at(-1) ?? NaN) - (inOrder[0] ?? NaN)),
      limitedAfterReset: lateLimits,
      extraResumes,
      benchSeconds: Math.round((performance.now() - benchStart) / 1000),
    }) + '\n',
  );
  process.exit(0);
}

await main();
