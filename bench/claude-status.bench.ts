// Claude Code's status dir after a night of kills (DESIGN.md §5, §10): every killed claude leaves its
// `sessions/<pid>.json`, and the activity monitor looks up each claude session's file up to four times
// a second. 20 live claudes (processes standing for them, each with its file) are looked up round after
// round, once with the dir holding only theirs (the baseline) and once with 400 files of processes that
// are gone beside them. Budget: a round with the night's files costs ≤ 1.5 × the baseline's. Also
// reported: what one round cost reading every file in the dir (how the daemon looked before).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findClaudeAgentStatus, readClaudeStatusFile } from '../main/agents/claude/session-status.js';
import { listAgentDir } from '../main/os/agent-file.js';
import { median } from './lib/percentile.js';

const LIVE = 20;
/** Files left after the 1,000-fault soak's night were counted at 411. */
const GONE = 400;
/** Rounds of 20 looks each: enough that a round's median is steady at tenths of a millisecond. */
const ROUNDS = 200;
const BUDGET_RATIO = 1.5;
/** Linux's pids never reach 2^22: a file named above it is of no process. */
const NO_PROCESS = 2 ** 22 + 1;

const root = mkdtempSync(path.join(os.tmpdir(), 'mori-status-bench-'));
const env = { CLAUDE_CONFIG_DIR: path.join(root, 'claude') };
const dir = path.join(root, 'claude', 'sessions');
mkdirSync(dir, { recursive: true });
const idOf = (i: number): string => `0f5e3a52-5c1e-4b8e-9a43-${String(i).padStart(12, '0')}`;
const status = (pid: number, sessionId: string): string => JSON.stringify({ pid, sessionId, cwd: root, status: 'idle', updatedAt: Date.now() });

const children: ChildProcess[] = [];
for (let i = 0; i < LIVE; i++) {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  children.push(child);
  writeFileSync(path.join(dir, `${child.pid}.json`), status(child.pid as number, idOf(i)));
}

/** One round: each live session's status looked up as its activity monitor does. Its time in ms. */
async function round(): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < LIVE; i++) {
    const found = await findClaudeAgentStatus(env, idOf(i), children[i]?.pid as number);
    if (found?.sessionId !== idOf(i)) throw new Error(`session ${i}: found ${JSON.stringify(found)}`);
  }
  return performance.now() - t0;
}

async function rounds(): Promise<number> {
  const ms: number[] = [];
  for (let r = 0; r < ROUNDS; r++) ms.push(await round());
  return median(ms);
}

/** The way before: every file in the dir read and parsed on each look. */
async function wholeDirRound(): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < LIVE; i++) {
    for (const { name } of await listAgentDir(dir, 10_000)) await readClaudeStatusFile(path.join(dir, name));
  }
  return performance.now() - t0;
}

try {
  const baselineMs = await rounds();
  for (let i = 0; i < GONE; i++) writeFileSync(path.join(dir, `${NO_PROCESS + i}.json`), status(NO_PROCESS + i, idOf(i % LIVE)));
  const nightMs = await rounds();
  const whole: number[] = [];
  for (let r = 0; r < 20; r++) whole.push(await wholeDirRound());
  const ratio = nightMs / baselineMs;
  const round2 = (n: number): number => Math.round(n * 100) / 100;
  process.stdout.write(
    `${JSON.stringify({
      name: 'claude-status',
      budget: `${LIVE} claude sessions looked up with ${GONE} files of gone processes in the dir: ≤ ${BUDGET_RATIO} × the same with none`,
      pass: ratio <= BUDGET_RATIO,
      baselineRoundMs: round2(baselineMs),
      nightRoundMs: round2(nightMs),
      ratio: round2(ratio),
      wholeDirRoundMs: round2(median(whole)),
    })}\n`,
  );
} finally {
  for (const child of children) child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
}
