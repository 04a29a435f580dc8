// The GitHub Copilot CLI profile (DESIGN.md §5). New: `copilot --session-id <uuid> [-i prompt]` (it
// takes a caller-chosen UUID for a new session); resume: `copilot --resume=<uuid> [-i prompt]` (never
// `--continue`, which takes the latest session). `-i` runs the prompt and stays interactive (`-p`
// would run once and exit). Its record is `$COPILOT_HOME/session-state/<uuid>/events.jsonl`
// (record.ts). Its provider and model are the person's: GitHub's service after `copilot login`, or
// their own (COPILOT_PROVIDER_BASE_URL, COPILOT_PROVIDER_TYPE, COPILOT_PROVIDER_WIRE_API,
// COPILOT_PROVIDER_API_KEY, COPILOT_MODEL; COPILOT_OFFLINE=true then keeps it off the network). Mori
// adds only its hooks plugin, telemetry and the update download off (hooks.ts). On its first start in
// a folder it asks whether to trust it; Mori does not answer for the person (no write to their
// config's trustedFolders): the question shows as needs-input, as its permission requests do (its
// default mode asks before each command; --allow-all-tools or `/permissions` change that).
// Flags and screens checked against Copilot CLI 1.0.102 driven against a loopback Responses API
// (screens: test/support/fixtures/agent-screens/copilot-*.txt; test/integration/agents/real-copilot.test.ts).
// Typed text: keys into its input box, then a CR on its own submits (seen on 1.0.102).
import { fail, ok } from '../../../common/result.js';
import type { AgentProfile, Env } from '../profile.js';
import { writtenSince } from '../record-files.js';
import { nudgeText } from '../first-prompt.js';
import { positionalPrompt, resolveBin, UUID_ID_FORM, UUID_PATTERN } from '../launch-helpers.js';
import { PASTE_SETTLE_MS, type TypingRules } from '../typing.js';
import { copilotHooks } from './hooks.js';
import { copilotLimits } from './limits.js';
import { copilotCacheDirs, copilotEventsPath, copilotHome, copilotRecordExists } from './record.js';
import { copilotUsage } from './usage.js';

export const COPILOT_TYPING: TypingRules = {
  mode: 'keys',
  multiLine: 'bracketed-paste',
  firstCharAloneMs: 0,
  chunkChars: 0,
  chunkPauseMs: 0,
  enterDelayMs: PASTE_SETTLE_MS,
  enter: '\r',
  echoes: true,
  confirm: 'busy',
  // Its retries after a failed request show no countdown of their own: the footer says Working.
  retrying: [],
  // A paste of several lines shows as "[Paste #1 - 40 lines]" in its input box, not submitted.
  pastePlaceholder: /\[Paste #\d+ - \d+ lines\]/,
};

/** `-i <prompt>`, the text kept from being read as an option. */
const promptArgs = (prompt: string | null): string[] => (prompt === null ? [] : ['-i', positionalPrompt(prompt)]);

/** GitHub's Copilot API, its default endpoint. */
const GITHUB_COPILOT_API = { host: 'api.githubcopilot.com', port: 443 };

/** The host of the person's own provider when COPILOT_PROVIDER_BASE_URL names one, else GitHub's. */
function apiHosts(env: Env): { host: string; port: number }[] {
  const base = env['COPILOT_PROVIDER_BASE_URL'];
  if (base !== undefined && base !== '') {
    try {
      const u = new URL(base);
      return [{ host: u.hostname, port: u.port !== '' ? Number(u.port) : u.protocol === 'http:' ? 80 : 443 }];
    } catch {
      // unparsable: probe the default
    }
  }
  return [GITHUB_COPILOT_API];
}

export const copilotProfile: AgentProfile = {
  name: 'copilot',
  label: 'GitHub Copilot CLI',
  defaultBin: 'copilot',
  // Its home and its caches (its package is unpacked there on first run): a sandbox binds them.
  configPaths: (env) => [...new Set([copilotHome(env), ...copilotCacheDirs(env)])],
  idSource: 'pre-assigned',
  newSession(input) {
    if (!UUID_PATTERN.test(input.newAgentSessionId)) return fail('usage', `copilot needs a UUID session id, got "${input.newAgentSessionId}"`);
    const args = ['--session-id', input.newAgentSessionId, ...promptArgs(input.prompt)];
    return ok({ file: resolveBin('copilot', 'copilot', input.env), args, cwd: input.cwd, agentSessionId: input.newAgentSessionId, typePrompt: null });
  },
  resumeSession(input) {
    if (input.agentSessionId === null) return fail('failed', 'no Copilot CLI session id was captured, so there is nothing to resume');
    if (!UUID_PATTERN.test(input.agentSessionId)) return fail('usage', `copilot resumes by UUID, got ${JSON.stringify(input.agentSessionId)}; not put on the command line`);
    const args = [`--resume=${input.agentSessionId}`, ...promptArgs(input.prompt)];
    return ok({ file: resolveBin('copilot', 'copilot', input.env), args, cwd: input.cwd, agentSessionId: input.agentSessionId, typePrompt: null });
  },
  transcriptExists: (ref, env) => (ref.agentSessionId === null ? Promise.resolve(false) : copilotRecordExists(env, ref.agentSessionId)),
  // Its events file gets the person's prompt (`user.message`) as soon as it is submitted.
  tookInputSince: async (ref, env, sinceMs) => ref.agentSessionId !== null && writtenSince(await copilotEventsPath(env, ref.agentSessionId), sinceMs),
  discoverSessionId: () => Promise.resolve(null), // pre-assigned
  nudge: (s) => nudgeText(s.projectDir, s.name),
  patterns: {
    // The echo ` ❯ text` of a submitted prompt; the input box's own `❯` starts its line at column 0.
    turnStart: /^ ❯ \S/,
    // Every question it puts to the person (folder trust, a command, an edit) is a list dialog with this footer.
    needsInput: [/↑\/↓ to navigate · enter to select/, /Do you want to run this command\?/, /Do you trust the files in this folder\?/],
    error: [/^ ✗ \S/m],
    // Its footer while a turn runs: "○ Working esc esc interrupt".
    working: [/\bWorking esc\b/],
    waiting: [/\/ commands · \? help/],
  },
  typing: COPILOT_TYPING,
  apiHosts,
  probeHosts: [GITHUB_COPILOT_API],
  install: 'npm install -g @github/copilot',
  idForm: UUID_ID_FORM,
  hooks: copilotHooks,
  limits: copilotLimits,
  usage: copilotUsage,
};
