// Supervisor idle CPU (DESIGN.md §10): 20 idle sessions (the fake agent at its prompt in real
// direct ptys) must cost the supervisor's process ≤ 1 % of a core. CPU is read from /proc/self/stat
// over the window (30 s, or BENCH_WINDOW_S), after every session has settled on `waiting`. The
// baseline is the same process, Node and modules loaded, idle for a window before any session runs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSession } from '../main/state/state-dir.js';
import { Supervisor } from '../main/supervisor/supervisor.js';
import { FAKE_AGENT as FAKE } from './lib/setup.js';

const SESSIONS = 20;
/** DESIGN.md §10: the budget, as a fraction of one core. */
const BUDGET = 0.01;
/** Long enough that a 10 ms clock tick is 0.03 % of it; the whole bench run must stay under 10 minutes. */
const WINDOW_MS = Number(process.env.BENCH_WINDOW_S ?? 30) * 1000;
/** Baseline window: the idle process alone; long enough for a tick-resolution reading. */
const BASELINE_MS = Math.min(10_000, WINDOW_MS);

const ticksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** utime + stime of this process, in ms, from /proc/self/stat. */
function cpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function measure(ms: number): Promise<number> {
  const c0 = cpuMs();
  const t0 = performance.now();
  await sleep(ms);
  return (cpuMs() - c0) / (performance.now() - t0);
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'mori-bench-idle-'));
  const home = path.join(tmp, 'home');
  const project = path.join(tmp, 'project');
  mkdirSync(project);
  const baseline = await measure(BASELINE_MS);

  for (let i = 0; i < SESSIONS; i++) {
    const r = await createSession({ projectDir: project, name: `s${i}`, profile: 'claude', backend: 'direct', home });
    if (!r.ok) throw new Error(r.message);
  }
  const env = { ...process.env, MORI_AGENT_BIN_CLAUDE: FAKE, CLAUDE_CONFIG_DIR: path.join(tmp, 'claude'), FAKE_AGENT_SCRIPT: '' };
  const sup = new Supervisor({ home, env, tmux: null, startStaggerMs: 0 });
  const waiting = new Set<string>();
  let activityEvents = 0;
  sup.on((e) => {
    if (e.type !== 'session.activity') return;
    activityEvents++;
    if (e.to === 'waiting') waiting.add(e.sessionId);
    else waiting.delete(e.sessionId);
  });
  const started = await sup.start();
  if (!started.ok) throw new Error(started.message);
  const deadline = Date.now() + 120_000;
  while (waiting.size < SESSIONS && Date.now() < deadline) await sleep(200);
  const settled = waiting.size;
  // Let the first turn's last repaint and debounce pass.
  await sleep(3_000);
  const eventsBefore = activityEvents;
  const idle = await measure(WINDOW_MS);
  const eventsDuring = activityEvents - eventsBefore;
  await sup.shutdown();
  rmSync(tmp, { recursive: true, force: true });

  process.stdout.write(
    JSON.stringify({
      name: 'supervisor-idle',
      budget: `supervisor CPU with ${SESSIONS} idle sessions ≤ ${BUDGET * 100} % of a core`,
      pass: settled === SESSIONS && idle <= BUDGET,
      sessions: SESSIONS,
      settledWaiting: settled,
      windowS: Math.round(WINDOW_MS / 1000),
      cpuPercentOfCore: Math.round(idle * 10000) / 100,
      baselineCpuPercentOfCore: Math.round(baseline * 10000) / 100,
      ratioToBaseline: baseline > 0 ? Math.round((idle / baseline) * 10) / 10 : null,
      activityEventsDuringWindow: eventsDuring,
    }) + '\n',
  );
  process.exit(0);
}

await main();
