// Smoke test against the real agent CLIs: every flag a profile passes is accepted by the installed
// CLI's own argument parser, without starting a session or reaching the network. Runs for each CLI
// found in node_modules/.bin, on PATH, or in the cache test/support/agent-clis/install.sh fills (they are
// not dependencies of Mori), skipped with the reason otherwise. Written against Claude Code 2.1.332, codex-cli 0.171.0, Gemini CLI 0.61.0, opencode 1.18.33.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PROFILES } from '../../../main/agents/profiles.js';
import type { LaunchSpec } from '../../../main/agents/profile.js';
import { AGENT_CLIS_DIR } from '../../support/agent-clis/real-agents.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const UUID = '0b9f6a4e-4c1d-4e8b-9a57-3c2d1e0f9a8b';
/** A CLI that starts a JS runtime and loads a large bundle takes seconds on a busy 2-core machine. */
const CLI_TIMEOUT_MS = 60_000;

/** The pinned versions install.sh puts in the cache, one npm prefix each. */
const CACHED: Record<string, string> = {
  claude: 'anthropic-ai+claude-code@2.1.332',
  codex: 'openai+codex@0.171.0',
  gemini: 'google+gemini-cli@0.61.0',
  opencode: 'opencode-ai@1.18.33',
};

function findBin(name: string): string | null {
  const cached = CACHED[name] !== undefined ? [path.join(AGENT_CLIS_DIR, CACHED[name], 'bin')] : [];
  const dirs = [path.join(ROOT, 'node_modules', '.bin'), ...(process.env['PATH'] ?? '').split(path.delimiter).filter(Boolean), ...cached];
  for (const dir of dirs) {
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

const home = mkdtempSync(path.join(os.tmpdir(), 'mori-real-cli-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** A private HOME and config dirs, and no reachable API, so nothing the CLIs do leaves this test. */
const cliEnv: Record<string, string> = {
  PATH: process.env['PATH'] ?? '',
  HOME: home,
  CLAUDE_CONFIG_DIR: path.join(home, 'claude'),
  CODEX_HOME: path.join(home, 'codex'),
  GEMINI_CLI_HOME: home,
  XDG_CONFIG_HOME: path.join(home, 'xdg-config'),
  XDG_DATA_HOME: path.join(home, 'xdg-data'),
  XDG_STATE_HOME: path.join(home, 'xdg-state'),
  XDG_CACHE_HOME: path.join(home, 'xdg-cache'),
  ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
  NO_COLOR: '1',
  CI: '1',
};

function run(file: string, args: string[]): { code: number | null; out: string } {
  const r = spawnSync(file, args, { cwd: home, env: cliEnv, encoding: 'utf8', timeout: CLI_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
  return { code: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/** An opencode session id of the form its log and database show. */
const OPENCODE_ID = 'ses_dd006de6bffe2iYDZkrcJ5uqVC';

function specs(profile: keyof typeof PROFILES): { fresh: LaunchSpec; resume: LaunchSpec } {
  const env = { HOME: home };
  const fresh = PROFILES[profile].newSession({ cwd: home, prompt: 'say hi', newAgentSessionId: UUID, env });
  const resume = PROFILES[profile].resumeSession({ cwd: home, agentSessionId: profile === 'opencode' ? OPENCODE_ID : UUID, prompt: 'continue', env });
  if (!fresh.ok || !resume.ok) throw new Error('profile refused its own launch');
  return { fresh: fresh.value, resume: resume.value };
}

const why = (name: string): string => `(skipped: \`${name}\` not found in node_modules/.bin, on PATH or in ${AGENT_CLIS_DIR})`;

const claude = findBin('claude');
describe.skipIf(claude === null)(`claude CLI ${claude === null ? why('claude') : ''}`, () => {
  const bin = claude as string;
  it('documents --session-id and --resume', () => {
    const help = run(bin, ['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('--session-id <uuid>');
    expect(help.out).toMatch(/-r, --resume \[value\]/);
  });

  // Its parser reports the first unknown option and stops before doing anything: a sentinel placed
  // after the profile's arguments is reported only if every argument before it was accepted.
  it.each(['fresh', 'resume'] as const)('accepts the %s command line', (kind) => {
    const r = run(bin, [...specs('claude')[kind].args, '--mori-sentinel', '-p']);
    expect(r.out).toContain("unknown option '--mori-sentinel'");
    expect(r.code).not.toBe(0);
  });
});

const codex = findBin('codex');
describe.skipIf(codex === null)(`codex CLI ${codex === null ? why('codex') : ''}`, () => {
  const bin = codex as string;
  // clap validates every argument before it honours --help, and exits 2 on one it does not know.
  it('rejects an unknown flag at --help parsing (the check below can fail)', () => {
    expect(run(bin, ['--mori-sentinel', '--help']).code).toBe(2);
  });
  it.each(['fresh', 'resume'] as const)('accepts the %s command line', (kind) => {
    const r = run(bin, [...specs('codex')[kind].args, '--help']);
    expect(r.code, r.out).toBe(0);
  });
  it('documents resume <SESSION_ID> [PROMPT] and --no-daemon', () => {
    const r = run(bin, ['resume', '--help']);
    expect(r.out).toMatch(/Usage: codex resume \[OPTIONS\] \[SESSION_ID\] \[PROMPT\]/);
    expect(r.out).toContain('--no-daemon');
  });
});

const gemini = findBin('gemini');
describe.skipIf(gemini === null)(`gemini CLI ${gemini === null ? why('gemini') : ''}`, () => {
  const bin = gemini as string;
  it('documents --session-id, --resume and -i', () => {
    const r = run(bin, ['--help']);
    expect(r.out).toContain('--session-id');
    expect(r.out).toMatch(/-r, --resume/);
    expect(r.out).toMatch(/-i, --prompt-interactive/);
  });
  // Its parser lists every unknown argument and exits before starting: only the sentinel may be listed.
  it.each(['fresh', 'resume'] as const)('accepts the %s command line', (kind) => {
    const r = run(bin, [...specs('gemini')[kind].args, '--mori-sentinel', '--list-sessions']);
    const unknown = /Unknown arguments?: (.*)/.exec(r.out)?.[1];
    expect(unknown, r.out).toBe('mori-sentinel, moriSentinel');
  });
});

const opencode = findBin('opencode');
describe.skipIf(opencode === null)(`opencode CLI ${opencode === null ? why('opencode') : ''}`, () => {
  const bin = opencode as string;
  // Its parser (yargs, not strict) ignores an unknown option, so the check is against its own help:
  // every option a profile passes is one opencode documents, with the value type it takes.
  it('documents --prompt and -s, --session as string options', () => {
    const r = run(bin, ['--help']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/--prompt\s+prompt to use\s+\[string\]/);
    expect(r.out).toMatch(/-s, --session\s+session id to continue\s+\[string\]/);
  });
  it.each(['fresh', 'resume'] as const)('documents every option of the %s command line', (kind) => {
    const help = run(bin, ['--help']).out;
    const options = specs('opencode')[kind].args.filter((a) => a.startsWith('--'));
    expect(options.length).toBeGreaterThan(0);
    for (const o of options) expect(help).toMatch(new RegExp(`(?:^|[ ,])${o}\\s`, 'm'));
  });
});

const aider = findBin('aider');
describe.skipIf(aider === null)(`aider CLI ${aider === null ? why('aider') : ''}`, () => {
  it('documents --restore-chat-history', () => {
    expect(run(aider as string, ['--help']).out).toContain('--restore-chat-history');
  });
});
