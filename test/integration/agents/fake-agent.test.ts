// The fake agent driven through the claude profile for real: the profile's launch spec (with the
// MORI_AGENT_BIN_CLAUDE override) spawned in a real pty, its output parsed by a real headless xterm,
// and the screen read by detectActivity. Also claude's files the fake keeps (transcript, status
// file), its recorded argv, scripted exits and a crash by signal. These are the behaviours the
// supervisor's tests build on, so they are checked here against the profile's own patterns.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import xtermHeadless from '@xterm/headless';
import { spawn, type IPty } from 'node-pty';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentActivity } from '../../../common/agent-activity.js';
import { findClaudeStatus } from '../../../main/agents/claude/session-status.js';
import { PROFILES } from '../../../main/agents/profiles.js';
import type { LaunchSpec } from '../../../main/agents/profile.js';
import { detectActivity } from '../../../main/agents/screen-activity.js';
import { untilValue } from '../../../testkit/until.js';

const { Terminal } = xtermHeadless;
const FAKE = fileURLToPath(new URL('../../../testkit/fake-agent.mjs', import.meta.url));
const UUID = '5c0ffee0-1234-4abc-8def-0123456789ab';
/** Generous: two cores shared with other test runs. */
const DEADLINE_MS = 15_000;

interface Run {
  pty: IPty;
  screen: () => string;
  exited: Promise<{ exitCode: number; signal?: number | undefined }>;
}

let tmp: string;
let env: Record<string, string>;
const runs: IPty[] = [];

beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'mori-fake-agent-'));
  env = {
    ...(process.env as Record<string, string>),
    MORI_HOME: path.join(tmp, 'mori-home'),
    MORI_AGENT_BIN_CLAUDE: FAKE,
    CLAUDE_CONFIG_DIR: path.join(tmp, 'claude'),
    FAKE_AGENT_RECORD: path.join(tmp, 'record.jsonl'),
  };
  delete env['FAKE_AGENT_SCRIPT'];
});
afterEach(() => {
  for (const p of runs.splice(0)) {
    try {
      p.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(tmp, { recursive: true, force: true });
});

function start(spec: LaunchSpec, extraEnv: Record<string, string> = {}): Run {
  const term = new Terminal({ cols: 100, rows: 30, allowProposedApi: true });
  const pty = spawn(spec.file, spec.args, { cwd: spec.cwd, env: { ...env, ...extraEnv }, cols: 100, rows: 30, name: 'xterm-256color' });
  runs.push(pty);
  pty.onData((d) => term.write(d));
  const exited = new Promise<{ exitCode: number; signal?: number | undefined }>((resolve) => pty.onExit(resolve));
  const screen = (): string => {
    const b = term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < term.rows; i++) lines.push(b.getLine(b.viewportY + i)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  return { pty, screen, exited };
}

const until = <T>(what: string, probe: () => T | Promise<T>, ok: (v: T) => boolean): Promise<T> => untilValue(what, probe, ok, DEADLINE_MS, (last) => `last: ${JSON.stringify(last)}`);

const activityOf = (run: Run) => (): AgentActivity => detectActivity(PROFILES.claude, run.screen());
const records = (): Record<string, unknown>[] =>
  readFileSync(env['FAKE_AGENT_RECORD'] as string, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function launchNew(prompt: string | null): LaunchSpec {
  const r = PROFILES.claude.newSession({ cwd: tmp, prompt, newAgentSessionId: UUID, env });
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

describe('fake agent through the claude profile', () => {
  it('records its argv, and its screens read as working → waiting → needs-input → working → error; status file agrees', async () => {
    const run = start(launchNew('implement the thing'));
    await until('the start record', () => existsSync(env['FAKE_AGENT_RECORD'] as string), (x) => x);
    expect(records()[0]).toMatchObject({ event: 'start', argv: ['--session-id', UUID, 'implement the thing'], sessionId: UUID, prompt: 'implement the thing' });
    expect((records()[0] as { env: Record<string, string> }).env['CLAUDE_CONFIG_DIR']).toBe(env['CLAUDE_CONFIG_DIR']);
    await until('waiting after the first turn', activityOf(run), (a) => a === 'waiting');
    expect((await findClaudeStatus(env, UUID))?.status).toBe('idle');

    run.pty.write('work:4000\r');
    await until('working', activityOf(run), (a) => a === 'working');
    expect((await findClaudeStatus(env, UUID))?.status).toBe('busy');
    await until('waiting again', activityOf(run), (a) => a === 'waiting');

    run.pty.write('ask\r');
    await until('needs-input', activityOf(run), (a) => a === 'needs-input');
    expect((await findClaudeStatus(env, UUID))?.status).toBe('waiting');
    run.pty.write('1\r');
    await until('back to work after the answer, then waiting', activityOf(run), (a) => a === 'waiting');

    run.pty.write('fail\r');
    await until('error', activityOf(run), (a) => a === 'error');

    run.pty.write('exit:3\r');
    expect((await run.exited).exitCode).toBe(3);
    expect(records().filter((r) => r['event'] === 'input').map((r) => r['line'])).toEqual(['work:4000', 'ask', '1', 'fail', 'exit:3']);
    expect(await findClaudeStatus(env, UUID)).toBeNull(); // removed on exit, as claude does
  });

  it('leaves a transcript, so the profile resumes it; a resume of an unknown id fails like claude', async () => {
    const first = start(launchNew('start'));
    await until('waiting', activityOf(first), (a) => a === 'waiting');
    first.pty.write('exit:0\r');
    await first.exited;
    expect(await PROFILES.claude.transcriptExists({ agentSessionId: UUID, cwd: tmp }, env)).toBe(true);

    const resume = PROFILES.claude.resumeSession({ cwd: tmp, agentSessionId: UUID, prompt: 'continue', env });
    if (!resume.ok) throw new Error(resume.message);
    const second = start(resume.value);
    await until('the resumed agent working then waiting', activityOf(second), (a) => a === 'waiting');
    expect(records().filter((r) => r['event'] === 'start').at(-1)).toMatchObject({ event: 'start', argv: ['--resume', UUID, 'continue'], resumeId: UUID });
    second.pty.write('exit:0\r');
    await second.exited;

    const other = '99999999-1234-4abc-8def-0123456789ab';
    expect(await PROFILES.claude.transcriptExists({ agentSessionId: other, cwd: tmp }, env)).toBe(false);
    const bad = PROFILES.claude.resumeSession({ cwd: tmp, agentSessionId: other, prompt: null, env });
    if (!bad.ok) throw new Error(bad.message);
    const third = start(bad.value);
    expect((await third.exited).exitCode).toBe(1);
    expect(third.screen()).toContain(`No conversation found with session ID: ${other}`);
  });

  it('FAKE_AGENT_SCRIPT: exits at once with a code, or dies by a signal', async () => {
    const quick = start(launchNew(null), { FAKE_AGENT_SCRIPT: 'print:booting;exit:1' });
    expect((await quick.exited).exitCode).toBe(1);
    expect(quick.screen()).toContain('booting');

    const crash = start(launchNew(null), { FAKE_AGENT_SCRIPT: 'sleep:100;kill:SIGSEGV' });
    const r = await crash.exited;
    expect(r.signal).toBe(os.constants.signals.SIGSEGV);
  });

  it('a crash typed at its prompt kills it by signal; an unknown option is rejected like claude', async () => {
    const run = start(launchNew(null));
    await until('waiting', activityOf(run), (a) => a === 'waiting');
    run.pty.write('crash\r');
    expect((await run.exited).signal).toBe(os.constants.signals.SIGSEGV);

    const bad = start({ file: FAKE, args: ['--continue'], cwd: tmp, agentSessionId: null, typePrompt: null });
    expect((await bad.exited).exitCode).toBe(2);
    expect(bad.screen()).toContain("error: unknown option '--continue'");
  });
});
