// A Supervisor run for real in the test's process: a temporary Mori home and git project, sessions
// of the claude profile backed by the fake agent (testkit/fake-agent.mjs) in direct ptys, the
// supervisor's events collected, and what the fake agent recorded (its starts and the lines it was
// typed) read back. Every supervisor made is shut down and the files removed by cleanup().
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SupervisorEvent } from '../../common/events.js';
import { createSession } from '../../main/state/state-dir.js';
import { Supervisor, type SupervisorOptions } from '../../main/supervisor/supervisor.js';
import { gitRepo, tempDir } from '../../testkit/mori-cli.js';

export const FAKE_AGENT = fileURLToPath(new URL('../../testkit/fake-agent.mjs', import.meta.url));

/** Activity read quickly and settled soon: the fake agent's screen changes at once. */
const FAST_ACTIVITY = { readDelayMs: 50, settleMs: 300 };

export class SupervisorHarness {
  readonly tmp: string;
  readonly home: string;
  readonly project: string;
  /** Where the fake agent appends a JSON line per start and per line typed into it. */
  readonly record: string;
  readonly events: SupervisorEvent[] = [];
  private readonly supervisors: Supervisor[] = [];

  constructor(prefix: string) {
    this.tmp = tempDir(prefix);
    this.home = path.join(this.tmp, 'home');
    this.project = path.join(this.tmp, 'project');
    this.record = path.join(this.tmp, 'record.jsonl');
    mkdirSync(this.project);
    gitRepo(this.project);
  }

  /** The environment that makes the claude profile run the fake agent (FAKE_AGENT_SCRIPT empty unless given). */
  env(extra: Record<string, string> = {}): Record<string, string | undefined> {
    return { ...process.env, MORI_AGENT_BIN_CLAUDE: FAKE_AGENT, CLAUDE_CONFIG_DIR: path.join(this.tmp, 'claude'), FAKE_AGENT_RECORD: this.record, FAKE_AGENT_SCRIPT: '', ...extra };
  }

  /** Creates a claude session (direct backend) in the project; its state dir. */
  async session(name: string): Promise<string> {
    const created = await createSession({ projectDir: this.project, name, profile: 'claude', backend: 'direct', home: this.home, task: 'test task' });
    if (!created.ok) throw new Error(created.message);
    return created.value.stateDir;
  }

  /** A supervisor of this home without tmux, no start stagger and fast activity; its events are collected. */
  supervisor(opts: SupervisorOptions = {}): Supervisor {
    const s = new Supervisor({ home: this.home, tmux: null, startStaggerMs: 0, activity: FAST_ACTIVITY, ...opts });
    s.on((e) => this.events.push(e));
    this.supervisors.push(s);
    return s;
  }

  /** Empties the collected events in place (a test keeping `events` sees the same array). */
  forgetEvents(): void {
    this.events.splice(0);
  }

  /** Every line the fake agent recorded, oldest first. */
  records(): Record<string, unknown>[] {
    try {
      return readFileSync(this.record, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    } catch {
      return [];
    }
  }

  /** The fake agent's starts (argv, sessionId, resumeId, at). */
  starts<T = Record<string, unknown>>(): T[] {
    return this.records().filter((r) => r['event'] === 'start') as T[];
  }

  /** The lines typed into the fake agent and submitted. */
  inputs(): string[] {
    return this.records().flatMap((r) => (r['event'] === 'input' ? [String(r['line'])] : []));
  }

  workLog(name: string): string {
    return readFileSync(path.join(this.project, '.mori', name, 'work_log.md'), 'utf8');
  }

  /** Shuts every supervisor down, then removes the files. */
  async cleanup(): Promise<void> {
    for (const s of this.supervisors.splice(0)) await s.shutdown();
    rmSync(this.tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}
