// Usage figures at scale (DESIGN.md §5 "Usage"): the daemon's usage book over 100 Claude Code
// sessions whose transcripts hold 50 MB each (the real fixture's lines repeated, each copy its own
// requests). Budgets: the first listing after start within 1 s (it waits LISTING_WAIT_MS at most and
// shows what was read, the reads going on), and once read up, a listing after one request was
// appended to every transcript adds at most 5 ms over one with nothing appended. Also reported: how
// long the full first read of all the records took. Runs in its own process (bench/run.ts).
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SessionRecord } from '../common/session.js';
import { claudeTranscriptPath } from '../main/agents/claude/transcript.js';
import { LISTING_WAIT_MS, UsageBook } from '../main/daemon/usage-book.js';
import { median } from './lib/percentile.js';
import { REPO } from './lib/setup.js';

const SESSIONS = Number(process.env.BENCH_USAGE_SESSIONS ?? 100);
const MB = Number(process.env.BENCH_USAGE_MB ?? 50);
const FIRST_BUDGET_MS = 1000;
const LATER_BUDGET_MS = 5;
// A real Claude Code record, the one the usage tests read (read as data, not imported).
const FIXTURE = path.join(REPO, 'test', 'support', 'fixtures', 'usage', 'claude', 'projects', '-fixture-project', '0f5e3a52-5c1e-4b8e-9a43-6c1f2d7b9e10.jsonl');

const root = mkdtempSync(path.join(os.tmpdir(), 'mori-usage-bench-'));
const env = { CLAUDE_CONFIG_DIR: path.join(root, 'claude') };
const fixture = readFileSync(FIXTURE, 'utf8');
const copies: string[] = [];
for (let size = 0, i = 0; size < MB * 1024 * 1024; i++) {
  const copy = fixture.replace(/msg_standin_(\d)/g, `msg_standin_$1_${i}`);
  copies.push(copy);
  size += Buffer.byteLength(copy);
}
const transcript = Buffer.from(copies.join(''));
const requestsPerFile = copies.length * 2;
const lastAssistant = fixture.split('\n').filter((l) => l.includes('"type":"assistant"')).at(-1) as string;

const sessions: { file: string; session: SessionRecord }[] = [];
for (let i = 0; i < SESSIONS; i++) {
  const id = `0f5e3a52-5c1e-4b8e-9a43-${String(i).padStart(12, '0')}`;
  const cwd = `/bench/project-${i}`;
  const file = claudeTranscriptPath(env, cwd, id);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, transcript);
  const session = { id, name: `s${i}`, projectDir: cwd, agent: { profile: 'claude', sessionId: id, cwd } } as unknown as SessionRecord;
  sessions.push({ file, session });
}

const book = new UsageBook(env, 'UTC');
const listing = async (): Promise<{ ms: number; partial: number; requests: number }> => {
  const t0 = performance.now();
  const all = await Promise.all(sessions.map((s) => book.read(s.session, LISTING_WAIT_MS)));
  return { ms: performance.now() - t0, partial: all.filter((u) => u.partial).length, requests: all.reduce((n, u) => n + u.total.requests, 0) };
};

const first = await listing();
const t0 = performance.now();
await Promise.all(sessions.map((s) => book.read(s.session)));
const readUpMs = first.ms + (performance.now() - t0);
const idle: number[] = [];
const grown: number[] = [];
let counted = 0;
for (let round = 0; round < 5; round++) {
  idle.push((await listing()).ms);
  for (const s of sessions) appendFileSync(s.file, `${lastAssistant.replaceAll('msg_standin_2', `msg_more_${round}`)}\n`);
  const after = await listing();
  grown.push(after.ms);
  counted = after.requests;
}
rmSync(root, { recursive: true, force: true });

const addedMs = median(grown) - median(idle);
const expected = SESSIONS * (requestsPerFile + 5);
const round1 = (n: number): number => Math.round(n * 10) / 10;
process.stdout.write(
  `${JSON.stringify({
    name: 'usage-listing',
    budget: `${SESSIONS} sessions × ${MB} MB: first listing ≤ ${FIRST_BUDGET_MS} ms, an appended request adds ≤ ${LATER_BUDGET_MS} ms`,
    pass: first.ms <= FIRST_BUDGET_MS && addedMs <= LATER_BUDGET_MS && counted === expected,
    firstListingMs: round1(first.ms),
    firstListingPartialSessions: first.partial,
    fullReadMs: round1(readUpMs),
    listingIdleMs: round1(median(idle)),
    listingAfterAppendMs: round1(median(grown)),
    addedMs: round1(addedMs),
    requestsCounted: counted,
    requestsExpected: expected,
  })}\n`,
);
