// Hook call latency (DESIGN.md §4 "Hooks"): N calls of the real report script (`sh report.sh`, the
// payload on stdin, as an agent runs it) into a spool dir a HookSpool watches, each timed from the
// spawn to the spool's callback in this process. Budget: p95 ≤ 50 ms per call.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureReportScript } from '../main/agents/hooks/report-script.js';
import { HookSpool } from '../main/supervisor/signals/hook-spool.js';

const CALLS = Number(process.env.BENCH_HOOK_CALLS ?? 200);
/** The budget per call, spawn to daemon-side callback. */
const BUDGET_MS = 50;
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
for (let i = 0; i < CALLS; i++) {
  const t0 = performance.now();
  const seen = new Promise<void>((resolve) => (waiting = resolve));
  const p = spawn('sh', [script, dir, 'PreToolUse'], { stdio: ['pipe', 'ignore', 'ignore'] });
  p.stdin.end(PAYLOAD);
  await seen;
  samples.push(performance.now() - t0);
  await new Promise<void>((resolve) => (p.exitCode !== null ? resolve() : p.on('exit', () => resolve())));
}
spool.close();
rmSync(home, { recursive: true, force: true });
samples.sort((a, b) => a - b);
const q = (f: number): number => Math.round((samples[Math.min(samples.length - 1, Math.floor(f * samples.length))] as number) * 10) / 10;
process.stdout.write(
  JSON.stringify({
    name: 'hook-latency',
    budget: `hook call, spawn to daemon-side callback, p95 ≤ ${BUDGET_MS} ms`,
    pass: q(0.95) <= BUDGET_MS,
    calls: CALLS,
    p50Ms: q(0.5),
    p95Ms: q(0.95),
    maxMs: q(1),
  }) + '\n',
);
process.exit(0);
