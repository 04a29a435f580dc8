// Resume cost (DESIGN.md §5, "Resume policy"): what the first request after a resume costs when the
// agent reloads a long conversation by its id, against a fresh start given the resume prompt.
// Side by side in one run, the real Claude Code (the pinned version, from ~/.cache/mori-agent-clis)
// against the Messages API stand-in (testkit/messages-api.ts): a recorded conversation of ~150K
// tokens (bench/lib/claude-conversation.ts) is resumed after a reboot by a real Supervisor, once per
// round with `resume: by-id` and once with `resume: fresh`, each in its own project, Mori home and
// Claude config. Tokens are counted as the stand-in counts them: the request body's characters / 4.
// From the stand-in's log, the first turn request after the resume: its total input tokens; its
// conversation part, the total minus the CLI's fixed part (system prompt, tool definitions, its own
// reminders), which is the first request of a brand-new claude given a one-word prompt, in the same
// run; and the time from the resume action (the supervisor started) to that request. Budget: fresh's
// conversation part ≤ 5 % of by-id's, fresh's time ≤ 1.1 × by-id's (medians), and fresh's request
// still carries the task, next steps, decisions, files touched and the failing check. Without the
// real CLI it says so and skips. Takes a few minutes.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawn as spawnPty } from 'node-pty';
import type { SupervisorEvent } from '../common/events.js';
import type { ResumeMode } from '../common/session.js';
import { ENVIRONMENT, SESSION_STATE } from '../common/state-files.js';
import { updateSessionFile } from '../main/state/session-file.js';
import { appendEntry } from '../main/state/work-log.js';
import { createSession } from '../main/state/state-dir.js';
import { DEFAULT_SIZE, Supervisor } from '../main/supervisor/supervisor.js';
import { messageTexts, MessagesApiStandIn, type LoggedRequest } from '../testkit/messages-api.js';
import { CLAUDE_CODE_PACKAGE, CLAUDE_CODE_VERSION, claudeEnv, claudeTranscript, installedAgentCli, seedClaudeConfig } from '../testkit/real-claude.js';
import { CONVERSATION_MARK, writeClaudeConversation } from './lib/claude-conversation.js';
import { median } from './lib/percentile.js';
import { benchDir } from './lib/setup.js';

const NAME = 'resume-cost';
/** The conversation the issue of a night's sleep is about: 150K tokens, 75 % of a 200K window. */
const CONVERSATION_TOKENS = 150_000;
/** Rounds of both modes (alternating which goes first): a median of five, as a resume takes seconds on a shared machine. */
const ROUNDS = Number(process.env['BENCH_RESUME_ROUNDS'] ?? 5);
/** DESIGN.md §10: a fresh start pays for its prompt, not for the conversation. */
const TOKEN_SHARE_BUDGET = 0.05;
/** DESIGN.md §10: building the resume prompt (git, the state files) may cost a resume at most a tenth more time. */
const TIME_RATIO_BUDGET = 1.1;
/** Claude takes seconds to start on a loaded 2-core machine; a minute means it is stuck, not slow. */
const REQUEST_WAIT_MS = 120_000;
const BUDGET = `fresh's conversation part ≤ ${TOKEN_SHARE_BUDGET * 100} % of by-id's; fresh's time to the first request ≤ ${TIME_RATIO_BUDGET} × by-id's; fresh's request carries the task, next steps, decisions, files touched and the failing check`;

/** What the session's state files say; fresh's request must carry each of these. */
const TASK = 'Write the CSV parser streaming mode';
const NEXT_STEP = 'handle quoted fields that span two chunks';
const DECISION = 'rows are yielded as arrays of strings, never objects';
const FILE_TOUCHED = 'src/csv/stream.ts';
const FAILING_CHECK = 'dist/csv-stream.js';
const MUST_CARRY = { task: TASK, 'next steps': NEXT_STEP, decisions: DECISION, 'files touched': FILE_TOUCHED, 'failing check': FAILING_CHECK };

const STATE = `# Session State

## Current Task
- ${TASK}
- Files touched: ${FILE_TOUCHED}, src/csv/index.ts

## Next Steps
1. ${NEXT_STEP}
2. run the benchmark on the 1 GB sample

## Decisions Made
- ${DECISION}
`;
/** The work log's tail as an afternoon of work leaves it: the fresh prompt carries it too. */
const LOG_ENTRIES = [
  ['Read the RFC 4180 grammar; wrote the row tokenizer in src/csv/index.ts.'],
  ['Added the streaming entry point in src/csv/stream.ts: chunks in, rows out.'],
  ['Tests: 41 pass, 3 fail (quoted fields across chunk boundaries).'],
  ['Decided rows stay string arrays; objects come from a separate header mapper.'],
  ['Build broke on the new export; dist/ not produced yet.'],
];
const ENV_FILE = `# Environment

## Checks
- file: ${FAILING_CHECK}
`;

const bin = installedAgentCli(CLAUDE_CODE_PACKAGE, 'claude');

async function waitFor<T>(what: string, find: () => T | undefined, ms = REQUEST_WAIT_MS): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const git = (cwd: string, ...args: string[]): void => {
  const r = spawnSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
};

/** A project as a person's would be mid-task: a repository with one commit and the touched file changed. */
function makeProject(dir: string): string {
  const project = path.join(dir, 'project');
  mkdirSync(path.join(project, 'src', 'csv'), { recursive: true });
  writeFileSync(path.join(project, FILE_TOUCHED), 'export function* rows() {}\n');
  writeFileSync(path.join(project, 'src', 'csv', 'index.ts'), "export * from './stream.js';\n");
  git(project, 'init', '-q', '-b', 'main');
  git(project, 'add', '.');
  git(project, 'commit', '-qm', 'start');
  writeFileSync(path.join(project, FILE_TOUCHED), 'export function* rows(chunk: string) { yield chunk.split(","); }\n');
  return project;
}

/** One place per run: a project, a Claude config dir seeded for it, a HOME, and the environment claude runs with. */
function place(root: string, label: string, apiUrl: string): { dir: string; project: string; configDir: string; env: Record<string, string | undefined> } {
  const dir = path.join(root, label);
  const project = makeProject(dir);
  const configDir = path.join(dir, 'claude');
  seedClaudeConfig(configDir, project);
  const env = { ...process.env, ...claudeEnv(bin as string, apiUrl, path.join(dir, 'user-home')), CLAUDE_CONFIG_DIR: configDir, MORI_PROBE: 'none' };
  return { dir, project, configDir, env };
}

const firstTurn = (api: MessagesApiStandIn, from: number) => (): LoggedRequest | undefined => api.requests.slice(from).find((r) => r.kind === 'turn');

/** The CLI's fixed part: the first request of a brand-new claude whose prompt is one word. */
async function fixedPart(api: MessagesApiStandIn, root: string): Promise<number> {
  const p = place(root, 'new', api.url);
  const from = api.requests.length;
  const pty = spawnPty(bin as string, ['--session-id', randomUUID(), 'hello'], { cwd: p.project, env: p.env as Record<string, string>, ...DEFAULT_SIZE });
  let screen = '';
  pty.onData((d) => (screen += d));
  try {
    const req = await waitFor('the new session\'s first request', firstTurn(api, from)).catch((err: Error) => {
      throw new Error(`${err.message}; its screen:\n${screen.slice(-2_000)}`);
    });
    return req.inputTokens;
  } finally {
    pty.kill();
  }
}

interface Sample {
  mode: ResumeMode;
  totalTokens: number;
  /** The supervisor's start (the resume after a reboot) → the first request at the stand-in. */
  timeMs: number;
  /** `session.resuming` (the launch issued, after verification and planning) → the first request. */
  launchToRequestMs: number;
  text: string;
}

/** One resume after a reboot of the recorded conversation, in `mode`, in a place of its own. */
async function resumeOnce(api: MessagesApiStandIn, root: string, mode: ResumeMode, round: number): Promise<Sample> {
  const p = place(root, `${mode}-${round}`, api.url);
  const home = path.join(p.dir, 'mori-home');
  const sessionId = randomUUID();
  writeClaudeConversation({ file: claudeTranscript(p.configDir, p.project, sessionId), sessionId, cwd: p.project, version: CLAUDE_CODE_VERSION, tokens: CONVERSATION_TOKENS });
  const made = await createSession({ projectDir: p.project, name: 'rc', profile: 'claude', backend: 'direct', home, resume: mode, task: TASK });
  if (!made.ok) throw new Error(made.message);
  const { stateDir } = made.value;
  writeFileSync(path.join(stateDir, SESSION_STATE), STATE);
  writeFileSync(path.join(stateDir, ENVIRONMENT), ENV_FILE);
  // Ten minutes apart, the last ten minutes ago.
  LOG_ENTRIES.forEach((lines, i) => appendEntry(stateDir, lines, new Date(Date.now() - (LOG_ENTRIES.length - i) * 600_000)));
  const updated = updateSessionFile(stateDir, (s) => ({ ...s, intent: { kind: 'interrupted', reason: 'reboot' }, agent: { ...s.agent, sessionId, cwd: p.project } }));
  if (!updated.ok) throw new Error(updated.message);

  const sup = new Supervisor({ home, env: p.env, tmux: null, startStaggerMs: 0 });
  const events: { e: SupervisorEvent; at: number }[] = [];
  sup.on((e) => events.push({ e, at: Date.now() }));
  const from = api.requests.length;
  const t0 = Date.now();
  try {
    const started = await sup.start();
    if (!started.ok) throw new Error(started.message);
    const req = await waitFor(`the ${mode} resume's first request`, firstTurn(api, from)).catch((err: Error) => {
      throw new Error(`${err.message}; events: ${events.map((x) => x.e.type).join(' ')}`);
    });
    const resuming = events.find((x) => x.e.type === 'session.resuming');
    return { mode, totalTokens: req.inputTokens, timeMs: req.at - t0, launchToRequestMs: resuming ? req.at - resuming.at : NaN, text: messageTexts(req.body).map((m) => m.text).join('\n') };
  } finally {
    await sup.shutdown();
  }
}

async function main(): Promise<void> {
  if (bin === null) {
    const skipped = `${CLAUDE_CODE_PACKAGE} is not installed (run test/support/agent-clis/install.sh ${CLAUDE_CODE_PACKAGE})`;
    process.stderr.write(`${NAME}: skipped: ${skipped}\n`);
    process.stdout.write(JSON.stringify({ name: NAME, budget: BUDGET, pass: true, skipped }) + '\n');
    return;
  }
  const root = benchDir(NAME);
  const api = await MessagesApiStandIn.start({ defaultText: 'OK.' });
  try {
    const fixed = await fixedPart(api, root);
    const samples: Sample[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating which goes first, so neither always meets the warmer (or busier) machine.
      const order: ResumeMode[] = round % 2 === 0 ? ['by-id', 'fresh'] : ['fresh', 'by-id'];
      for (const mode of order) {
        const s = await resumeOnce(api, root, mode, round);
        process.stderr.write(`${NAME}: ${mode} #${round}: ${s.totalTokens} tokens, ${s.timeMs} ms (launch → request ${s.launchToRequestMs} ms)\n`);
        samples.push(s);
      }
    }
    const of = (mode: ResumeMode): Sample[] => samples.filter((s) => s.mode === mode);
    const summary = (mode: ResumeMode) => {
      const xs = of(mode);
      const total = median(xs.map((s) => s.totalTokens));
      return { totalTokens: total, conversationTokens: total - fixed, timeMs: median(xs.map((s) => s.timeMs)), launchToRequestMs: median(xs.map((s) => s.launchToRequestMs)), timesMs: xs.map((s) => s.timeMs) };
    };
    const byId = summary('by-id');
    const fresh = summary('fresh');
    // The resumed conversation is really in by-id's request, and not in fresh's.
    const byIdCarriesConversation = of('by-id').every((s) => s.text.includes(`${CONVERSATION_MARK}-0 `));
    const freshLeavesConversation = of('fresh').every((s) => !s.text.includes(CONVERSATION_MARK));
    const missing = of('fresh').flatMap((s) => Object.entries(MUST_CARRY).filter(([, needle]) => !s.text.includes(needle)).map(([what]) => what));
    const tokenShare = fresh.conversationTokens / byId.conversationTokens;
    const timeRatio = fresh.timeMs / byId.timeMs;
    const pass = byIdCarriesConversation && freshLeavesConversation && missing.length === 0 && tokenShare <= TOKEN_SHARE_BUDGET && timeRatio <= TIME_RATIO_BUDGET;
    process.stdout.write(
      JSON.stringify({
        name: NAME,
        budget: BUDGET,
        pass,
        tokensCounted: "as the stand-in counts them: the request body's characters / 4",
        rounds: ROUNDS,
        fixedPartTokens: fixed,
        byId,
        fresh,
        freshConversationShare: Math.round(tokenShare * 1_000) / 10,
        freshTimeRatio: Math.round(timeRatio * 100) / 100,
        byIdCarriesConversation,
        freshLeavesConversation,
        freshPromptMissing: [...new Set(missing)],
      }) + '\n',
    );
  } finally {
    await api.stop();
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

await main();
