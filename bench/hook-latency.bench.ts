// Hook call latency (DESIGN.md §4 "Hooks"): N calls of the real report script (`sh report.sh`, the
// payload on stdin, as an agent runs it) into a spool dir a HookSpool watches. Each call is timed
// from the spawn to the script's exit (what the agent waits for; budget p95 ≤ 50 ms) and to the
// spool's callback in this process (what the person waits for; budget: well within the 1 s in which a
// hook's needs-input must show).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureReportScript } from '../main/agents/hooks/report-script.js';
import { HookSpool } from '../main/supervisor/signals/hook-spool.js';
import { percentile } from './lib/percentile.js';

const CALLS = Number(process.env.BENCH_HOOK_CALLS ?? 200);
/** The budget per call, spawn to exit. */
const BUDGET_MS = 50;
/** A hook's word must reach `mori ls` within 1 s; delivery gets a fifth of that. */
const DELIVERY_BUDGET_MS = 200;
/** A PreToolUse payload's usual size. */
const PAYLOAD = JSON.stringify({ session_id: '0b5f6b1e-4c1a-4d2e-9f3a-5a6b7c8d9e0f', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'x'.repeat(800) } });

const home = mkdtempSync(path.join(os.tmpdir(), 'mori-hook-bench-'));
const script = ensureReportScript(home);
const dir = path.join(home, 'hooks', 'f'.repeat(32));
mkdirSync(dir);
let waiting: (() => void) | null = null;
const spool = new HookSpool({ dir, onCall: () => waiting?.(), onProblem: () => undefined });
spool.start();

const samples: number[] = [];
const delivered: number[] = [];
for (let i = 0; i < CALLS; i++) {
  const t0 = performance.now();
  const seen = new Promise<void>((resolve) => (waiting = resolve));
  const p = spawn('sh', [script, dir, 'PreToolUse'], { stdio: ['pipe', 'ignore', 'ignore'] });
  p.stdin.end(PAYLOAD);
  const exited = new Promise<void>((resolve) => p.on('exit', () => resolve()));
  await Promise.all([seen.then(() => delivered.push(performance.now() - t0)), exited.then(() => samples.push(performance.now() - t0))]);
}
spool.close();
rmSync(home, { recursive: true, force: true });
const at = (xs: number[], p: number): number => Math.round(percentile(xs, p) * 10) / 10;
const q = (p: number): number => at(samples, p);
process.stdout.write(
  JSON.stringify({
    name: 'hook-latency',
    budget: `hook call, spawn to exit, p95 ≤ ${BUDGET_MS} ms; spawn to daemon-side callback p95 ≤ ${DELIVERY_BUDGET_MS} ms`,
    pass: q(95) <= BUDGET_MS && at(delivered, 95) <= DELIVERY_BUDGET_MS,
    calls: CALLS,
    p50Ms: q(50),
    p95Ms: q(95),
    maxMs: q(100),
    deliveredP50Ms: at(delivered, 50),
    deliveredP95Ms: at(delivered, 95),
  }) + '\n',
);
process.exit(0);
