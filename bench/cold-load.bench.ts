// Cold load (DESIGN.md §10): 50 sessions, each with a 10 MB work log, to a full `mori ls --json` in
// ≤ 1 s, reading tails only. Also reports how the time grows with the log size (1, 10, 100 MB): flat
// growth is the point. Each size's logs are one real generated file hard-linked into every session,
// so 50 × 100 MB needs 100 MB of disk; the reader cannot tell a link from a copy.
import { spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSession } from '../main/state/state-dir.js';
import { median } from './lib/percentile.js';
import { REPO } from './lib/setup.js';

const SESSIONS = 50;
const SIZES_MB = [1, 10, 100];
/** Runs per size; the median is reported so one slow run on a busy machine does not decide. */
const RUNS = 5;
const BUDGET_MS = 1000;

function makeLog(file: string, mb: number): void {
  const entry = (i: number) => `\n## 2026-11-30 ${String(i % 24).padStart(2, '0')}:00\n- step ${i}: ${'did a thing and noted it '.repeat(8)}\n`;
  const chunk: string[] = [];
  let n = 0;
  let size = 0;
  const target = mb * 1024 * 1024;
  writeFileSync(file, '# Work log\n');
  while (size < target) {
    const e = entry(n++);
    chunk.push(e);
    size += e.length;
    if (chunk.length === 10_000) {
      writeFileSync(file, chunk.join(''), { flag: 'a' });
      chunk.length = 0;
    }
  }
  writeFileSync(file, chunk.join(''), { flag: 'a' });
}

function timeLs(home: string): { ms: number; count: number } {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [path.join(REPO, 'bin', 'mori.js'), 'ls', '--json'], { env: { ...process.env, MORI_HOME: home }, encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`mori ls failed: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { sessions: { ok: boolean; lastLog: unknown }[] };
  if (!out.sessions.every((s) => s.ok && s.lastLog)) throw new Error('a session was not read whole');
  return { ms, count: out.sessions.length };
}


async function main(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'mori-bench-cold-'));
  try {
    const home = path.join(root, 'home');
    const dirs: string[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const project = path.join(root, `p${i}`);
      mkdirSync(project);
      const c = await createSession({ projectDir: project, name: `s${i}`, profile: 'claude', backend: 'direct', task: `task ${i}`, home });
      if (!c.ok) throw new Error(c.message);
      dirs.push(c.value.stateDir);
    }
    // Baseline in the same run: a bare Node start, which every `mori` call pays.
    const nodeStart = median(Array.from({ length: RUNS }, () => {
      const s = process.hrtime.bigint();
      spawnSync(process.execPath, ['-e', '']);
      return Number(process.hrtime.bigint() - s) / 1e6;
    }));
    const bySize: Record<string, number> = {};
    for (const mb of SIZES_MB) {
      const source = path.join(root, `log-${mb}.md`);
      makeLog(source, mb);
      for (const d of dirs) {
        const log = path.join(d, 'work_log.md');
        unlinkSync(log);
        linkSync(source, log);
      }
      timeLs(home); // warm the page cache once, as a second start of the app would find it
      bySize[`${mb}MB`] = Math.round(median(Array.from({ length: RUNS }, () => timeLs(home).ms)));
    }
    const at10 = bySize['10MB'] ?? NaN;
    process.stdout.write(
      JSON.stringify({
        name: 'cold-load',
        budget: `mori ls --json with ${SESSIONS} sessions of 10 MB logs <= ${BUDGET_MS} ms`,
        pass: at10 <= BUDGET_MS,
        sessions: SESSIONS,
        msBySize: bySize,
        nodeStartMs: Math.round(nodeStart),
        growth100vs1: Number(((bySize['100MB'] ?? NaN) / (bySize['1MB'] ?? NaN)).toFixed(2)),
      }) + '\n',
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
