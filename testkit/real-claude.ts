// What the tests and benchmarks of the real Claude Code share: where test/support/agent-clis/install.sh put it (a shared cache
// outside node_modules, one prefix per package@version), an isolated config dir and HOME seeded so
// it starts straight into its prompt (onboarding done, the stand-in API key approved, theme chosen,
// the project trusted, no updates or telemetry), and the environment that points it at the Messages
// API stand-in with no traffic beyond loopback.
import { accessSync, constants, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The Claude Code the real-CLI tests pin (and .ci/run installs). */
export const CLAUDE_CODE_PACKAGE = '@anthropic-ai/claude-code@2.1.332';
export const CLAUDE_CODE_VERSION = CLAUDE_CODE_PACKAGE.slice(CLAUDE_CODE_PACKAGE.lastIndexOf('@') + 1);

/** The cache install.sh fills: `$MORI_AGENT_CLIS`, else ~/.cache/mori-agent-clis. */
export function agentClisDir(): string {
  return process.env['MORI_AGENT_CLIS'] || path.join(os.homedir(), '.cache', 'mori-agent-clis');
}

/** `<cache>/<scope+name@version>/bin/<bin>` when installed and executable, else null. */
export function installedAgentCli(spec: string, bin: string): string | null {
  const file = path.join(agentClisDir(), spec.replace(/^@/, '').replace('/', '+'), 'bin', bin);
  try {
    accessSync(file, constants.X_OK);
    return file;
  } catch {
    return null;
  }
}

/** A key of the API's shape; the stand-in accepts anything, claude remembers its last 20 characters as approved. */
export const STAND_IN_API_KEY = 'sk-ant-api03-mori-stand-in-0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A token claude reads as issued by a Claude gateway (an unsigned JWT whose audience is
 * `claude-gateway`; claude decodes it without checking a signature, the stand-in accepts anything).
 * Sent as ANTHROPIC_AUTH_TOKEN with ANTHROPIC_BASE_URL at the stand-in, it makes claude treat the
 * unified rate-limit headers of a 429 as a plan's usage limit, as for a claude.ai sign-in: it prints
 * "You've hit your … limit · resets …" instead of an API key's "API Error: Request rejected (429)".
 */
export function claudeGatewayToken(): string {
  const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ aud: 'claude-gateway', sub: 'mori-stand-in' })}.${Buffer.from('stand-in').toString('base64url')}`;
}

/**
 * Writes `<configDir>/.claude.json` so claude starts at its prompt: onboarding and this version's
 * release notes seen, dark theme, the stand-in key approved, `projectDir` trusted.
 */
export function seedClaudeConfig(configDir: string, projectDir: string): void {
  mkdirSync(configDir, { recursive: true });
  const config = {
    hasCompletedOnboarding: true,
    lastOnboardingVersion: CLAUDE_CODE_VERSION,
    lastReleaseNotesSeen: CLAUDE_CODE_VERSION,
    theme: 'dark',
    autoUpdates: false,
    customApiKeyResponses: { approved: [STAND_IN_API_KEY.slice(-20)], rejected: [] },
    projects: { [projectDir]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
  };
  writeFileSync(path.join(configDir, '.claude.json'), JSON.stringify(config, null, 2));
}

/**
 * The environment for claude (through `mori up`): the stand-in as its API, its own HOME, and every
 * other way out closed: updates, telemetry, error reports and non-essential calls off, and a proxy
 * that goes nowhere for anything not on loopback.
 */
export function claudeEnv(bin: string, apiUrl: string, home: string): Record<string, string> {
  mkdirSync(home, { recursive: true });
  return {
    MORI_AGENT_BIN_CLAUDE: bin,
    HOME: home,
    ANTHROPIC_API_KEY: STAND_IN_API_KEY,
    ANTHROPIC_BASE_URL: apiUrl,
    DISABLE_AUTOUPDATER: '1',
    DISABLE_UPDATES: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // Port 9 (discard) on loopback: nothing listens, so any request that ignores NO_PROXY fails here.
    HTTPS_PROXY: 'http://127.0.0.1:9',
    HTTP_PROXY: 'http://127.0.0.1:9',
    NO_PROXY: '127.0.0.1,localhost',
    // One retry, so an outage ends the turn in "API Error" within seconds instead of minutes.
    CLAUDE_CODE_MAX_RETRIES: '1',
    // CI sets CI=true; claude is meant to run interactive here, as on a person's machine.
    CI: '',
  };
}

/** The transcript claude keeps for `sessionId` run in `cwd` (the claude profile reads the same path). */
export function claudeTranscript(configDir: string, cwd: string, sessionId: string): string {
  return path.join(configDir, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'), `${sessionId}.jsonl`);
}

/** Assistant replies written to the transcript so far (a turn is over once its reply is there). */
export function claudeReplies(configDir: string, cwd: string, sessionId: string): number {
  try {
    return readFileSync(claudeTranscript(configDir, cwd, sessionId), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{') && (JSON.parse(l) as { type?: unknown }).type === 'assistant').length;
  } catch {
    return 0;
  }
}

/** The `status` (idle | busy | waiting) in the claude's `sessions/<pid>.json` running `sessionId`, or null. */
export function claudeStatus(configDir: string, sessionId: string): string | null {
  const pid = claudePid(configDir, sessionId);
  if (pid === null) return null;
  try {
    const j = JSON.parse(readFileSync(path.join(configDir, 'sessions', `${pid}.json`), 'utf8')) as { status?: unknown };
    return typeof j.status === 'string' ? j.status : null;
  } catch {
    return null;
  }
}

/** The pid of the claude running `sessionId`, from its `sessions/<pid>.json`, or null. */
export function claudePid(configDir: string, sessionId: string): number | null {
  const dir = path.join(configDir, 'sessions');
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return null;
  }
  for (const name of names) {
    try {
      const j = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Record<string, unknown>;
      if (j['sessionId'] === sessionId && typeof j['pid'] === 'number') return j['pid'];
    } catch {
      // mid-write
    }
  }
  return null;
}
