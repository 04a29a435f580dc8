// What the real-CLI tests share: finding a CLI installed by test/support/agent-clis/install.sh, the isolated
// config each CLI is pointed at a loopback stand-in of its API with (no other traffic leaves the
// machine: proxies point at the stand-in, which refuses them), and reading a session's state and
// screen under a real `mori up` on its own tmux socket.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StandIn } from '../stand-ins/loopback-server.js';
import { bodyText } from '../stand-ins/loopback-server.js';
import type { UpHarness } from '../mori-up.js';

/** The cache install.sh fills: one npm prefix per package@version. */
export const AGENT_CLIS_DIR = process.env['MORI_AGENT_CLIS'] ?? path.join(os.homedir(), '.cache', 'mori-agent-clis');

/** The executable of an installed `pkg@version`, or why it cannot be used (the tests skip with it). */
export function installedCli(pkg: string, version: string, bin: string): { bin: string } | { skip: string } {
  const prefix = path.join(AGENT_CLIS_DIR, `${pkg.replace(/^@/, '').replace('/', '+')}@${version}`);
  const file = path.join(prefix, 'bin', bin);
  try {
    if (!existsSync(path.join(prefix, '.installed'))) throw new Error('not installed');
    accessSync(file, constants.X_OK);
    return { bin: file };
  } catch {
    return { skip: `${pkg}@${version} is not installed in ${AGENT_CLIS_DIR} (run: test/support/agent-clis/install.sh ${pkg}@${version})` };
  }
}

/** Variables that would send the CLIs anywhere else or change how they run, removed for every test. */
const proxyTo = (api: StandIn): Record<string, string | undefined> => ({
  HTTPS_PROXY: api.url,
  HTTP_PROXY: api.url,
  ALL_PROXY: api.url,
  https_proxy: api.url,
  http_proxy: api.url,
  all_proxy: api.url,
  NO_PROXY: '127.0.0.1,localhost',
  no_proxy: '127.0.0.1,localhost',
  // Headless mode in Gemini CLI, and other CI behaviour: the agents run as a person's would.
  CI: undefined,
  NO_COLOR: '1',
});

/** An isolated CODEX_HOME whose provider is the stand-in (Responses API, streamed), the project trusted. */
export function codexEnv(api: StandIn, root: string, project: string): Record<string, string | undefined> {
  const home = path.join(root, 'codex-home');
  mkdirSync(home, { recursive: true });
  writeFileSync(
    path.join(home, 'config.toml'),
    [
      'model = "gpt-stand-in"',
      'model_provider = "standin"',
      'check_for_update_on_startup = false',
      'approval_policy = "never"',
      'sandbox_mode = "workspace-write"',
      '',
      '[analytics]',
      'enabled = false',
      '',
      '[model_providers.standin]',
      'name = "Loopback stand-in"',
      `base_url = "${api.url}/v1"`,
      'wire_api = "responses"',
      'env_key = "STANDIN_API_KEY"',
      '',
      `[projects.${JSON.stringify(project)}]`,
      'trust_level = "trusted"',
      '',
    ].join('\n'),
  );
  return { ...proxyTo(api), CODEX_HOME: home, HOME: path.join(root, 'user-home'), STANDIN_API_KEY: 'sk-stand-in' };
}

/** An isolated GEMINI_CLI_HOME with API-key auth, folder trust, telemetry and updates off, at the stand-in. */
export function geminiEnv(api: StandIn, root: string): Record<string, string | undefined> {
  const home = path.join(root, 'gemini-home');
  mkdirSync(path.join(home, '.gemini'), { recursive: true });
  writeFileSync(
    path.join(home, '.gemini', 'settings.json'),
    JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, disableAutoUpdate: true, disableUpdateNag: true },
    }),
  );
  return { ...proxyTo(api), GEMINI_CLI_HOME: home, HOME: path.join(root, 'user-home'), GEMINI_API_KEY: 'stand-in-key', GOOGLE_GEMINI_BASE_URL: api.url };
}

export interface SessionJson {
  id: string;
  agent: { profile: string; sessionId: string | null; cwd: string | null };
  intent: { kind: string };
}

export const sessionJson = (h: UpHarness, name: string): SessionJson => JSON.parse(readFileSync(path.join(h.stateDir(name), 'session.json'), 'utf8')) as SessionJson;

/** The agent's screen, from its tmux pane on the test's own socket. */
export function screen(h: UpHarness, moriId: string): string {
  const r = spawnSync('tmux', ['-L', h.socketName, 'capture-pane', '-p', '-t', `mori-${moriId}`], { encoding: 'utf8' });
  return r.stdout ?? '';
}

/** Whether any logged request (from index `from` on) has every one of `needles` in its body. */
export function requestWith(api: StandIn, needles: string[], from = 0): boolean {
  return api.requests.slice(from).some((r) => {
    const text = bodyText(r.body);
    return needles.every((n) => text.includes(n));
  });
}

/**
 * For failure messages: each request from index `from` on, one line each, saying which of
 * `needles` it holds and which stand-in replies (`stand-in reply N`) it carries.
 */
export function requestsSummary(api: StandIn, needles: string[], from = 0): string {
  const lines = api.requests.slice(from).map((r, i) => {
    const text = bodyText(r.body);
    const held = needles.map((n) => `${n}: ${text.includes(n) ? 'yes' : 'no'}`).join(', ');
    const replies = [...new Set(text.match(/stand-in reply \d+/g) ?? [])].join(', ') || 'none';
    return `#${from + i} ${r.method} ${r.path} (${held}; replies carried: ${replies})`;
  });
  return `requests from #${from}:\n${lines.join('\n') || '(none)'}`;
}

/** Every text the agent sent the API, for failure messages and "never typed" checks. */
export const allRequestText = (api: StandIn): string => api.requests.map((r) => bodyText(r.body)).join('\n');

/** Proof no request went anywhere but the stand-in: the CONNECTs it refused. */
export const proxiedTargets = (api: StandIn): string[] => api.proxied;

/**
 * An isolated opencode (HOME and the XDG dirs in `root`) whose model is the Messages API stand-in,
 * through opencode's built-in anthropic provider (bundled, nothing downloaded) with `baseURL` at the
 * stand-in; the model catalogue fetch, updates, sharing, LSP downloads and Claude Code's files off.
 * Its npm registry is the stand-in too: at start opencode installs its plugin package into each config
 * dir and waits for that before its first request; through the proxy the install took ~70 s to fail,
 * from the stand-in (a 404 on loopback) it fails in under a second.
 */
export function opencodeEnv(apiUrl: string, root: string): Record<string, string | undefined> {
  const home = path.join(root, 'opencode-home');
  const config = path.join(home, '.config');
  mkdirSync(path.join(config, 'opencode'), { recursive: true });
  writeFileSync(
    path.join(config, 'opencode', 'opencode.json'),
    JSON.stringify({
      $schema: 'https://opencode.ai/config.json',
      model: 'anthropic/claude-stand-in',
      small_model: 'anthropic/claude-stand-in',
      autoupdate: false,
      share: 'disabled',
      provider: {
        anthropic: {
          options: { baseURL: `${apiUrl}/v1`, apiKey: 'sk-ant-stand-in' },
          models: { 'claude-stand-in': { name: 'Stand-in', limit: { context: 200_000, output: 8_192 } } },
        },
      },
    }),
  );
  return {
    HTTPS_PROXY: apiUrl,
    HTTP_PROXY: apiUrl,
    https_proxy: apiUrl,
    http_proxy: apiUrl,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    CI: undefined,
    HOME: home,
    XDG_CONFIG_HOME: config,
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    npm_config_registry: `${apiUrl}/npm/`,
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_CLAUDE_CODE: '1',
  };
}

/**
 * An isolated Qwen Code (HOME, so its home is `<root>/qwen-home/.qwen`) whose model is the Chat
 * Completions stand-in through its default auth type (`openai`, from OPENAI_BASE_URL, OPENAI_API_KEY
 * and OPENAI_MODEL): no settings file of the person's, so it starts in its own default approval mode.
 */
export function qwenEnv(api: StandIn, root: string): Record<string, string | undefined> {
  const home = path.join(root, 'qwen-home');
  mkdirSync(home, { recursive: true });
  return { ...proxyTo(api), HOME: home, QWEN_HOME: undefined, QWEN_RUNTIME_DIR: undefined, OPENAI_BASE_URL: `${api.url}/v1`, OPENAI_API_KEY: 'sk-stand-in', OPENAI_MODEL: 'qwen-stand-in' };
}

/**
 * An isolated Copilot CLI (HOME and COPILOT_HOME in `root`) whose model is the Responses stand-in
 * through its own-provider mode, offline (no GitHub sign-in, telemetry or update check). Its config
 * (the person's own, here the test's) already trusts `project`, as a person who answered its
 * folder-trust question once would have. The package it unpacks on first run (~235 MB) goes into a
 * cache beside the installed CLIs, shared by every test and run.
 */
export function copilotEnv(api: StandIn, root: string, project: string): Record<string, string | undefined> {
  const home = path.join(root, 'copilot-home');
  mkdirSync(home, { recursive: true });
  writeFileSync(path.join(home, 'config.json'), JSON.stringify({ trustedFolders: [project] }));
  return {
    ...proxyTo(api),
    HOME: path.join(root, 'user-home'),
    COPILOT_HOME: home,
    COPILOT_PKG_CACHE_HOME: path.join(AGENT_CLIS_DIR, 'copilot-pkg-cache'),
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: `${api.url}/v1`,
    COPILOT_PROVIDER_TYPE: 'openai',
    COPILOT_PROVIDER_WIRE_API: 'responses',
    COPILOT_PROVIDER_API_KEY: 'sk-stand-in',
    COPILOT_MODEL: 'gpt-5.4',
    COPILOT_ALLOW_ALL: undefined,
    GH_TOKEN: undefined,
    GITHUB_TOKEN: undefined,
    COPILOT_GITHUB_TOKEN: undefined,
  };
}

/**
 * Pi's agent dir (PI_CODING_AGENT_DIR, the test's own: never ~/.pi) with a provider at the stand-in
 * speaking the Responses API, chosen as its default in settings.json; PI_OFFLINE keeps it from the network at start.
 */
export function piEnv(api: StandIn, root: string): Record<string, string | undefined> {
  const home = path.join(root, 'pi-home');
  const agentDir = path.join(home, '.pi', 'agent');
  mkdirSync(agentDir, { recursive: true });
  const provider = { baseUrl: `${api.url}/v1`, api: 'openai-responses', apiKey: 'sk-stand-in', models: [{ id: 'pi-stand-in', contextWindow: 128_000 }] };
  writeFileSync(path.join(agentDir, 'models.json'), JSON.stringify({ providers: { 'stand-in': provider } }));
  writeFileSync(path.join(agentDir, 'settings.json'), JSON.stringify({ defaultProvider: 'stand-in', defaultModel: 'pi-stand-in' }));
  return { ...proxyTo(api), HOME: home, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1' };
}
