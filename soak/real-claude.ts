// The soak's real Claude Code: one session (`real`, on tmux) of the installed CLI
// (testkit/real-claude.ts) among the fake agents, under the same daemon. The daemon's one
// MORI_AGENT_BIN_CLAUDE is a wrapper this module writes, which runs the real claude when started in
// this session's project and the fake agent anywhere else. Its Messages API stand-in
// (testkit/messages-api.ts) answers every turn after a pause with a line and a Read of the project's
// notes, so it works in turns by itself as the fake agents do; the stand-in goes away and comes back
// with the soak's API listener (stand-ins.ts). Each request is digested as it arrives (when each
// turn came, the texts typed into it; appended to <records>/real.jsonl too, for a kept run), and
// the end's checks run over that and its work log.
// Runs in the soak's process.
import { appendFileSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MessagesApiStandIn, type LoggedRequest } from '../testkit/messages-api.js';
import { gitRepo } from '../testkit/mori-cli.js';
import { CLAUDE_CODE_PACKAGE, claudeEnv, installedAgentCli, seedClaudeConfig } from '../testkit/real-claude.js';
import { checkInterruptions, checkTypedTwice } from './invariants.js';
import { rng } from './prng.js';
import type { Fault } from './schedule.js';

export const REAL_NAME = 'real';
/** Its task: what the first prompt says (the stand-in answers the same whatever it asks). */
export const REAL_TASK = 'soak: work in turns, reading notes.md at each';
/**
 * The stand-in's pause before each answer: a turn of seconds, as the fake agents' (1.5 s and as much
 * idle), long enough that the daemon reads it working (its screen settles after 1.5 s).
 */
const TURN_DELAY_MS = 2_000;
/**
 * Its retries of a failed request: claude's backoff (0.5, 1, 2, 4, 8, 8 s, less up to a quarter's
 * jitter; 9–18 s seen for five) outlasts an API outage alone (≤ 7 s) with room, as the fake agents'
 * 10 s do, while a network lost for up to 20 s still ends some turns on its API error, which only the
 * daemon's nudge after the return moves past.
 */
const MAX_RETRIES = 6;
/** A stream of its own, apart from the schedule's, so a seed's faults on the fake sessions are the same with claude installed or not. */
const AIM_STREAM = 0x5eed_c1a0;

/** Where it is installed (its launcher and the binary it runs), or why it is not run. */
export function findRealClaude(): { bin: string; exe: string } | { skipped: string } {
  const bin = installedAgentCli(CLAUDE_CODE_PACKAGE, 'claude');
  if (bin === null) return { skipped: `Claude Code is not installed (test/support/agent-clis/install.sh ${CLAUDE_CODE_PACKAGE})` };
  return { bin, exe: realpathSync(bin) };
}

/** `word` quoted for sh. */
const sh = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/** The mid-turn form claude 2.1.332 gives a text typed while it works (a block beside the tool result). */
const MID_TURN = /^The user sent a new message while you were working:\n([\s\S]*?)\n\nThis is how Claude Code surfaces/;

/** The texts typed into claude in a conversation, in order: its user messages' text blocks, claude's own reminders left out, the mid-turn form unwrapped. */
export function typedTexts(body: Record<string, unknown> | null): string[] {
  const messages = Array.isArray(body?.['messages']) ? (body['messages'] as { role?: unknown; content?: unknown }[]) : [];
  return messages.flatMap((m) => {
    if (m.role !== 'user') return [];
    if (typeof m.content === 'string') return [m.content];
    const blocks = Array.isArray(m.content) ? (m.content as { type?: unknown; text?: unknown }[]) : [];
    return blocks.flatMap((b) => {
      if (b.type !== 'text' || typeof b.text !== 'string' || b.text.startsWith('<system-reminder>')) return [];
      return [MID_TURN.exec(b.text)?.[1] ?? b.text];
    });
  });
}

/**
 * The texts that arrived with this request: each request carries the whole conversation, so a text
 * arrived once more each time it occurs more often in it than in any earlier request of the same
 * conversation (`seen`, keyed by claude's session id: a retry repeats a request, a resume its
 * conversation). Updates `seen`.
 */
export function newArrivals(seen: Map<string, number>, conversation: string, texts: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const t of texts) counts.set(t, (counts.get(t) ?? 0) + 1);
  const out: string[] = [];
  for (const [t, n] of counts) {
    const key = `${conversation}\0${t}`;
    const before = seen.get(key) ?? 0;
    for (let k = before; k < n; k++) out.push(t);
    if (n > before) seen.set(key, n);
  }
  return out;
}

/**
 * The agent kills of the plan re-aimed at the real session (index `sessions`) about one in
 * `sessions + 1`, as if it were drawn among the others, from a stream of the seed's own.
 */
export function aimAtReal(plan: readonly Fault[], seed: number, sessions: number): Fault[] {
  const r = rng((seed ^ AIM_STREAM) >>> 0);
  return plan.map((f) => (f.kind === 'kill-agent' || f.kind === 'kill-group') && r.int(0, sessions) === sessions ? { ...f, session: sessions } : f);
}

export class RealClaude {
  readonly name = REAL_NAME;
  readonly project: string;
  readonly stateDir: string;
  /** The daemon's MORI_AGENT_BIN_CLAUDE: the real claude in this project, the fake agent elsewhere. */
  readonly wrapper: string;
  api: MessagesApiStandIn | null = null;
  /** When each of its turn requests arrived. */
  readonly turns: number[] = [];
  /** Each text typed into it (the task, a resume prompt, a nudge), when it arrived. */
  readonly typed: { at: number; line: string }[] = [];
  private readonly seen = new Map<string, number>();
  private record: string | null = null;

  /** `index`: its place after the fake sessions' (world.processes() lists its agent there). */
  constructor(
    root: string,
    readonly index: number,
    readonly install: { bin: string; exe: string },
    private readonly fakeAgent: string,
  ) {
    // The path claude's cwd reads as: /proc/<pid>/cwd and `pwd -P` give it resolved.
    this.project = path.join(realpathSync(root), REAL_NAME);
    this.stateDir = path.join(this.project, '.mori', REAL_NAME);
    this.wrapper = path.join(root, 'agent-bin.sh');
  }

  /** Its project (a git repository with the notes it reads), its config seeded, its stand-in listening, the wrapper written; what it asks recorded in `records`. */
  async start(configDir: string, home: string, records: string): Promise<void> {
    this.record = path.join(records, `${REAL_NAME}.jsonl`);
    mkdirSync(this.project, { recursive: true });
    gitRepo(this.project);
    const notes = path.join(this.project, 'notes.md');
    writeFileSync(notes, '# Notes\n\nRead at each turn of the soak.\n');
    seedClaudeConfig(configDir, this.project);
    this.api = await MessagesApiStandIn.start({
      defaultTurn: { text: 'Read the notes again.', delayMs: TURN_DELAY_MS, toolUse: { name: 'Read', input: { file_path: notes } } },
      onRequest: (r) => this.digest(r),
    });
    const env: Record<string, string> = { ...claudeEnv(this.install.bin, this.api.url, home), CLAUDE_CODE_MAX_RETRIES: String(MAX_RETRIES) };
    delete env['MORI_AGENT_BIN_CLAUDE'];
    const exports = Object.entries(env).map(([k, v]) => `  export ${k}=${sh(v)}`);
    const script = [
      '#!/bin/sh',
      '# The soak\'s claude (soak/real-claude.ts): the real Claude Code in its session\'s project, the fake agent anywhere else.',
      `if [ "$(pwd -P)" = ${sh(this.project)} ]; then`,
      ...exports,
      `  exec ${sh(this.install.bin)} "$@"`,
      'fi',
      `exec ${sh(this.fakeAgent)} "$@"`,
      '',
    ].join('\n');
    writeFileSync(this.wrapper, script, { mode: 0o755 });
  }

  private digest(r: LoggedRequest): void {
    if (r.kind !== 'turn') return;
    this.turns.push(r.at);
    const conversation = String(r.headers['x-claude-code-session-id'] ?? '');
    const lines = newArrivals(this.seen, conversation, typedTexts(r.body));
    for (const line of lines) this.typed.push({ at: r.at, line });
    if (this.record !== null) {
      const events = [{ event: 'turn', at: r.at, conversation }, ...lines.map((line) => ({ event: 'input', at: r.at, line }))];
      appendFileSync(this.record, events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    }
  }

  /** Whether a process (its binary, its cwd) is this session's claude. */
  isItsAgent(exe: string, cwd: string): boolean {
    return exe === this.install.exe && cwd === this.project;
  }

  workLog(): string {
    const read = (f: string): string => {
      try {
        return readFileSync(path.join(this.stateDir, f), 'utf8');
      } catch {
        return '';
      }
    };
    return read('work_log.archive.md') + read('work_log.md');
  }

  asked(since: number): boolean {
    return this.turns.some((t) => t > since);
  }

  /**
   * Its invariants at the end: every interruption in its work log answered once; no text typed twice
   * in a row with no fault between (from what reached its API); running with its one claude alive.
   * `agents`: its claude processes alive now; `state`: its live state at the end.
   */
  check(faultTimes: readonly number[], agents: number, state: string): { interruptions: string[]; typedTwice: string[]; stuck: string[] } {
    const records = this.typed.map((t) => ({ event: 'input', pid: 0, at: t.at, line: t.line }));
    return {
      interruptions: checkInterruptions(this.workLog(), true),
      typedTwice: checkTypedTwice(records, faultTimes).map((w) => w.replace(' into pid 0', ' into claude')),
      stuck: state === 'running' && agents === 0 ? [`${this.name} is running but no claude of it is alive`] : [],
    };
  }

  /** Its figures for the JSON: its turns, what the faults did to it, how long it took to be back. */
  figures(done: readonly { kind: string; session: number; at: number; endAt: number; note: string }[], endState: string | null): Record<string, unknown> {
    const log = this.workLog();
    const count = (re: RegExp): number => log.split('\n').filter((l) => re.test(l)).length;
    const mine = done.filter((f) => f.session === this.index && (f.kind === 'kill-agent' || f.kind === 'kill-group'));
    let longestBackMs = 0;
    for (const f of done) {
      if ((f.kind === 'kill-agent' || f.kind === 'kill-group') && f.session !== this.index) continue;
      const next = this.turns.find((t) => t > f.endAt);
      if (next !== undefined) longestBackMs = Math.max(longestBackMs, next - f.at);
    }
    return {
      turns: this.turns.length,
      typed: this.typed.length,
      killsAimed: mine.length,
      killsLanded: mine.filter((f) => f.note.startsWith('SIGKILL')).length,
      interrupted: count(/^- SESSION INTERRUPTED\b/),
      resumed: count(/^- SESSION RESUMED\b/),
      reattached: count(/^- REATTACHED\b/),
      longestBackMs,
      endState,
    };
  }
}
