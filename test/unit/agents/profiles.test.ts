// Agent profiles: the exact command lines each profile builds to start and resume its agent, the
// executable override tests use, shell/custom templates, and the relaunch choice (DESIGN.md §4, §5).
import { describe, expect, it } from 'vitest';
import { expandTemplate, splitCommandLine } from '../../../main/agents/command-template.js';
import { getProfile, planRelaunch, PROFILES, type RelaunchInput } from '../../../main/agents/profiles.js';
import type { LaunchSpec } from '../../../main/agents/profile.js';
import type { Result } from '../../../common/result.js';

const UUID = '0b9f6a4e-4c1d-4e8b-9a57-3c2d1e0f9a8b';
const env = { HOME: '/home/someone' };

function value(r: Result<LaunchSpec>): LaunchSpec {
  if (!r.ok) throw new Error(`expected ok, got ${r.code}: ${r.message}`);
  return r.value;
}

describe('new-session and resume command lines', () => {
  it('claude pre-assigns --session-id and resumes by --resume <uuid> from the recorded cwd', () => {
    const n = value(PROFILES.claude.newSession({ cwd: '/p', prompt: 'do the task', newAgentSessionId: UUID, env }));
    expect(n).toEqual({ file: 'claude', args: ['--session-id', UUID, 'do the task'], cwd: '/p', agentSessionId: UUID, typePrompt: null });
    const r = value(PROFILES.claude.resumeSession({ cwd: '/recorded', agentSessionId: UUID, prompt: 'continue', env }));
    expect(r).toEqual({ file: 'claude', args: ['--resume', UUID, 'continue'], cwd: '/recorded', agentSessionId: UUID, typePrompt: null });
    expect(value(PROFILES.claude.newSession({ cwd: '/p', prompt: null, newAgentSessionId: UUID, env })).args).toEqual(['--session-id', UUID]);
  });

  it('opencode starts its TUI with --prompt, learns its own ses_ id, and resumes by --session <id> with the prompt typed, never --continue', () => {
    const id = 'ses_dd006de6bffe2iYDZkrcJ5uqVC';
    const n = value(PROFILES.opencode.newSession({ cwd: '/p', prompt: 'do the task', newAgentSessionId: UUID, env }));
    expect(n).toEqual({ file: 'opencode', args: ['--prompt', 'do the task'], cwd: '/p', agentSessionId: null, typePrompt: null });
    expect(value(PROFILES.opencode.newSession({ cwd: '/p', prompt: null, newAgentSessionId: UUID, env })).args).toEqual([]);
    expect(value(PROFILES.opencode.newSession({ cwd: '/p', prompt: '-x', newAgentSessionId: UUID, env })).args).toEqual(['--prompt', ' -x']);
    const r = value(PROFILES.opencode.resumeSession({ cwd: '/recorded', agentSessionId: id, prompt: 'continue', env }));
    // opencode 1.18.33 ignores --prompt when it opens an existing session: the prompt is typed.
    expect(r).toEqual({ file: 'opencode', args: ['--session', id], cwd: '/recorded', agentSessionId: id, typePrompt: 'continue' });
    expect(value(PROFILES.opencode.resumeSession({ cwd: '/p', agentSessionId: id, prompt: null, env })).typePrompt).toBeNull();
    expect(PROFILES.opencode.idSource).toBe('discovered');
    expect(value(PROFILES.opencode.newSession({ cwd: '/p', prompt: null, newAgentSessionId: UUID, env: { ...env, MORI_AGENT_BIN_OPENCODE: '/bin/oc' } })).file).toBe('/bin/oc');
    const none = PROFILES.opencode.resumeSession({ cwd: '/p', agentSessionId: null, prompt: null, env });
    expect(none.ok === false && none.code).toBe('failed');
    const forged = PROFILES.opencode.resumeSession({ cwd: '/p', agentSessionId: '--continue', prompt: null, env });
    expect(forged.ok === false && forged.code).toBe('usage');
  });

  it('claude refuses a session id that is not a UUID, and a resume without a captured id', () => {
    expect(PROFILES.claude.newSession({ cwd: '/p', prompt: null, newAgentSessionId: 'nope', env }).ok).toBe(false);
    const r = PROFILES.claude.resumeSession({ cwd: '/p', agentSessionId: null, prompt: null, env });
    expect(r.ok === false && r.code).toBe('failed');
  });

  it('codex runs without its background server or paste detection and resumes by id, never --last', () => {
    const n = value(PROFILES.codex.newSession({ cwd: '/p', prompt: 'task', newAgentSessionId: UUID, env }));
    expect(n.args).toEqual(['--no-daemon', '--config', 'disable_paste_burst=true', 'task']);
    expect(n.agentSessionId).toBeNull();
    const r = value(PROFILES.codex.resumeSession({ cwd: '/p', agentSessionId: UUID, prompt: 'go on', env }));
    expect(r.args).toEqual(['resume', '--no-daemon', '--config', 'disable_paste_burst=true', UUID, 'go on']);
    expect(PROFILES.codex.idSource).toBe('discovered');
  });

  it('gemini pre-assigns --session-id, passes the prompt with -i, resumes by uuid', () => {
    expect(value(PROFILES.gemini.newSession({ cwd: '/p', prompt: 'task', newAgentSessionId: UUID, env })).args).toEqual(['--session-id', UUID, '-i', 'task']);
    expect(value(PROFILES.gemini.resumeSession({ cwd: '/p', agentSessionId: UUID, prompt: null, env })).args).toEqual(['--resume', UUID]);
  });

  it('aider restores its chat history and has its prompt typed (it has no interactive prompt flag)', () => {
    const n = value(PROFILES.aider.newSession({ cwd: '/p', prompt: 'task', newAgentSessionId: UUID, env }));
    expect(n).toMatchObject({ file: 'aider', args: [], typePrompt: 'task', agentSessionId: null });
    expect(value(PROFILES.aider.resumeSession({ cwd: '/p', agentSessionId: null, prompt: 'again', env }))).toMatchObject({
      args: ['--restore-chat-history'],
      typePrompt: 'again',
    });
  });

  it('no profile ever uses --continue or --last', () => {
    for (const p of Object.values(PROFILES)) {
      const specs = [
        p.newSession({ cwd: '/p', prompt: 'x', newAgentSessionId: UUID, command: 'tool {prompt}', env }),
        p.resumeSession({ cwd: '/p', agentSessionId: p.name === 'opencode' ? 'ses_dd006de6bffe2iYDZkrcJ5uqVC' : UUID, prompt: 'x', command: 'tool {prompt}', env }),
      ];
      for (const s of specs) {
        const args = value(s).args;
        expect(args).not.toContain('--continue');
        expect(args).not.toContain('-c');
        expect(args).not.toContain('--last');
        expect(args).not.toContain('latest');
      }
    }
  });

  it('a prompt that starts with "-" is not passed as an option', () => {
    expect(value(PROFILES.claude.newSession({ cwd: '/p', prompt: '--help me', newAgentSessionId: UUID, env })).args.at(-1)).toBe(' --help me');
    expect(value(PROFILES.codex.newSession({ cwd: '/p', prompt: '-x', newAgentSessionId: UUID, env })).args.at(-1)).toBe(' -x');
  });

  it('MORI_AGENT_BIN_<NAME> substitutes the executable', () => {
    const e = { ...env, MORI_AGENT_BIN_CLAUDE: '/x/fake-agent.mjs', MORI_AGENT_BIN_CODEX: '' };
    expect(value(PROFILES.claude.newSession({ cwd: '/p', prompt: null, newAgentSessionId: UUID, env: e })).file).toBe('/x/fake-agent.mjs');
    expect(value(PROFILES.codex.newSession({ cwd: '/p', prompt: null, newAgentSessionId: UUID, env: e })).file).toBe('codex');
  });

  it('API hosts follow ANTHROPIC_BASE_URL for claude; shell needs none', () => {
    expect(PROFILES.claude.apiHosts({})).toEqual([{ host: 'api.anthropic.com', port: 443 }]);
    expect(PROFILES.claude.apiHosts({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:8080/v1' })).toEqual([{ host: '127.0.0.1', port: 8080 }]);
    expect(PROFILES.codex.apiHosts({}).map((h) => h.host)).toContain('api.openai.com');
    expect(PROFILES.gemini.apiHosts({}).map((h) => h.host)).toContain('generativelanguage.googleapis.com');
    expect(PROFILES.shell.apiHosts({})).toEqual([]);
  });

  it('the nudge names the state file to re-read; shell and custom programs are never typed into', () => {
    const nudge = PROFILES.claude.nudge({ projectDir: '/p', name: 'auth' });
    expect(nudge).toContain('.mori/auth/session_state.md');
    expect(nudge).not.toContain('\n');
    expect(PROFILES.shell.nudge({ projectDir: '/p', name: 'auth' })).toBeNull();
    expect(PROFILES.custom.nudge({ projectDir: '/p', name: 'auth' })).toBeNull();
  });

  it('getProfile knows the names of every profile and reports an unknown one', () => {
    expect(Object.keys(PROFILES).sort()).toEqual(['aider', 'claude', 'codex', 'copilot', 'custom', 'gemini', 'opencode', 'pi', 'qwen', 'shell']);
    const bad = getProfile('cursor');
    expect(bad.ok === false && bad.message).toMatch(/unknown agent profile "cursor"/);
  });
});

describe('shell and custom command templates', () => {
  it('splits like a shell: quotes, escapes, no expansion', () => {
    const r = splitCommandLine(`run "a b" 'c $HOME' d\\ e "q\\"x"`);
    expect(r.ok && r.value).toEqual(['run', 'a b', 'c $HOME', 'd e', 'q"x']);
    expect(splitCommandLine('echo "open').ok).toBe(false);
  });

  it('substitutes {prompt} and {id} inside words, as one argument each, and drops bare ones that are null', () => {
    const r = expandTemplate('agent --session={id} {prompt} --id {id}', { prompt: 'a; rm -rf / $(x)', id: null });
    expect(r.ok && r.value).toEqual({ file: 'agent', args: ['--session=', 'a; rm -rf / $(x)', '--id'] });
  });

  it('custom pre-assigns an id only when its template uses {id}, and keeps it on resume', () => {
    const n = value(PROFILES.custom.newSession({ cwd: '/p', prompt: 'hi', newAgentSessionId: UUID, command: 'tool --sid {id} {prompt}', env }));
    expect(n).toMatchObject({ file: 'tool', args: ['--sid', UUID, 'hi'], agentSessionId: UUID });
    const r = value(PROFILES.custom.resumeSession({ cwd: '/p', agentSessionId: UUID, prompt: null, command: 'tool --sid {id} {prompt}', env }));
    expect(r.args).toEqual(['--sid', UUID]);
    expect(value(PROFILES.custom.newSession({ cwd: '/p', prompt: null, newAgentSessionId: UUID, command: 'tool', env })).agentSessionId).toBeNull();
    const missing = PROFILES.custom.newSession({ cwd: '/p', prompt: null, newAgentSessionId: UUID, env });
    expect(missing.ok === false && missing.code).toBe('usage');
  });

  it('shell without a command starts $SHELL', () => {
    expect(value(PROFILES.shell.newSession({ cwd: '/p', prompt: null, newAgentSessionId: UUID, env: { SHELL: '/bin/zsh' } })).file).toBe('/bin/zsh');
    expect(value(PROFILES.shell.newSession({ cwd: '/p', prompt: null, newAgentSessionId: UUID, env: {} })).file).toBe('/bin/sh');
  });
});

describe('planRelaunch', () => {
  const base: RelaunchInput = {
    projectDir: '/p',
    agentSessionId: UUID,
    agentCwd: '/recorded',
    transcriptExists: true,
    resumePrompt: 'short',
    fullPrompt: 'full resume prompt',
    newAgentSessionId: '11111111-2222-4333-8444-555555555555',
    env,
  };

  it('resumes with the captured id from the recorded cwd when the transcript exists', () => {
    const r = planRelaunch(PROFILES.claude, base);
    expect(r.ok && r.value).toEqual({ kind: 'resume', spec: expect.objectContaining({ args: ['--resume', UUID, 'short'], cwd: '/recorded' }) });
  });

  it('starts fresh with the full prompt and a new id when the transcript is gone or no id was captured', () => {
    for (const input of [{ ...base, transcriptExists: false }, { ...base, agentSessionId: null }]) {
      const r = planRelaunch(PROFILES.claude, input);
      expect(r.ok && r.value.kind).toBe('fresh');
      expect(r.ok && r.value.spec.args).toEqual(['--session-id', base.newAgentSessionId, 'full resume prompt']);
      expect(r.ok && r.value.spec.cwd).toBe('/p');
    }
  });

  it('never retries the same failing resume: falls back to a fresh start', () => {
    const first = planRelaunch(PROFILES.codex, base);
    if (!first.ok) throw new Error(first.message);
    const again = planRelaunch(PROFILES.codex, { ...base, failedResume: first.value.spec });
    expect(again.ok && again.value.kind).toBe('fresh');
    expect(again.ok && again.value.spec.args).toEqual(['--no-daemon', '--config', 'disable_paste_burst=true', 'full resume prompt']);
    // A different prompt (new check results, time away) does not make the same resume worth retrying.
    const reworded = planRelaunch(PROFILES.codex, { ...base, resumePrompt: 'other words', failedResume: first.value.spec });
    expect(reworded.ok && reworded.value.kind).toBe('fresh');
  });

  it('aider resumes without an id whenever its history file exists', () => {
    const r = planRelaunch(PROFILES.aider, { ...base, agentSessionId: null });
    expect(r.ok && r.value.kind).toBe('resume');
  });
});
