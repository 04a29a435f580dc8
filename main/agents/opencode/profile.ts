// The opencode profile (DESIGN.md §5). New: `opencode --prompt <prompt>` in the project (its TUI, the
// prompt submitted at once); resume: `opencode --session <id>` (never --continue: it takes the
// directory's last session) with the prompt typed once the TUI is up, since 1.18.33 ignores --prompt
// when it opens an existing session. opencode picks its own session id (`ses_` + 26 letters and
// digits) and takes none from the caller: the supervisor polls discoverSessionId from the launch on,
// which reads the id from the `message=created` line opencode logs for the new session in this
// directory (sessions.ts); its sessions live in an SQLite database, searched for the id's
// bytes to know whether a resume can work, and queried through SQLite (WASM) for its usage (usage.ts). Retrying is working: opencode retries a failed request by
// itself under its prompt ("[retrying in 4s attempt #2]").
// Flags and screens checked against opencode 1.18.33 driven against a loopback Messages API through
// its built-in anthropic provider (screens: test/support/fixtures/agent-screens/opencode-*.txt;
// test/integration/agents/real-opencode.test.ts).
// Typed text (typing.ts's rules, observed on the real CLI): opencode 1.18.33 (its own TUI) takes
// bracketed paste into its prompt without submitting it; a CR written on its own afterwards submits.
import { fail, ok } from '../../../common/result.js';
import { opencodeHooks } from './hooks.js';
import { opencodeLimits } from './limits.js';
import { opencodeUsage } from './usage.js';
import type { AgentProfile, Env } from '../profile.js';
import { writtenSince } from '../record-files.js';
import { nudgeText } from '../first-prompt.js';
import { positionalPrompt, resolveBin } from '../launch-helpers.js';
import { findOpencodeSession, OPENCODE_ID_PATTERN, opencodePromptHistory, opencodeSessionExists } from './sessions.js';
import { opencodeCacheDir, opencodeConfigDir, opencodeDataDir, opencodeStateDir } from './sessions.js';
import { PASTE_SETTLE_MS, type TypingRules } from '../typing.js';

/** `--prompt <text>`, the text kept from being read as an option. */
const promptArgs = (prompt: string | null): string[] => (prompt === null ? [] : ['--prompt', positionalPrompt(prompt)]);

/** Hosts of the providers opencode is most often set up with; a custom provider's own is not known here. */
const apiHosts = (env: Env): { host: string; port: number }[] => {
  const base = env['ANTHROPIC_BASE_URL'];
  if (base !== undefined && base !== '') {
    try {
      const u = new URL(base);
      return [{ host: u.hostname, port: u.port !== '' ? Number(u.port) : u.protocol === 'http:' ? 80 : 443 }];
    } catch {
      // unparsable: probe the defaults
    }
  }
  return [
    { host: 'api.anthropic.com', port: 443 },
    { host: 'api.openai.com', port: 443 },
    { host: 'opencode.ai', port: 443 },
  ];
};

/** opencode's retry notice under its prompt: "<error> [retrying in 4s attempt #2]". */
export const OPENCODE_RETRYING = /\[retrying (?:in \S+ )?attempt #\d+\]/;

export const OPENCODE_TYPING: TypingRules = {
  mode: 'bracketed-paste',
  multiLine: 'bracketed-paste',
  firstCharAloneMs: 0,
  chunkChars: 0,
  chunkPauseMs: 0,
  enterDelayMs: PASTE_SETTLE_MS,
  enter: '\r',
  echoes: true,
  confirm: 'busy',
  retrying: [OPENCODE_RETRYING],
  // A long or multi-line paste shows as "[Pasted ~N lines]".
  pastePlaceholder: /\[Pasted ~?\d+ lines?\]/,
};

export const opencodeProfile: AgentProfile = {
  name: 'opencode',
  label: 'opencode',
  defaultBin: 'opencode',
  configPaths: (env) => [opencodeConfigDir(env), opencodeDataDir(env), opencodeStateDir(env), opencodeCacheDir(env)],
  idSource: 'discovered',
  newSession(input) {
    return ok({ file: resolveBin('opencode', 'opencode', input.env), args: promptArgs(input.prompt), cwd: input.cwd, agentSessionId: null, typePrompt: null });
  },
  resumeSession(input) {
    if (input.agentSessionId === null) return fail('failed', 'no opencode session id was captured, so there is nothing to resume');
    if (!OPENCODE_ID_PATTERN.test(input.agentSessionId)) return fail('usage', `opencode resumes by a ses_ id, got ${JSON.stringify(input.agentSessionId)}; not put on the command line`);
    const args = ['--session', input.agentSessionId];
    return ok({ file: resolveBin('opencode', 'opencode', input.env), args, cwd: input.cwd, agentSessionId: input.agentSessionId, typePrompt: input.prompt });
  },
  transcriptExists: (ref, env) => (ref.agentSessionId === null ? Promise.resolve(false) : opencodeSessionExists(env, ref.agentSessionId)),
  // The prompt history is appended when a prompt is submitted (one file for all of this user's sessions).
  tookInputSince: (_ref, env, sinceMs) => writtenSince(opencodePromptHistory(env), sinceMs),
  discoverSessionId: (input, env) => findOpencodeSession(env, input.cwd, input.startedAtMs, input.taken ?? []),
  nudge: (s) => nudgeText(s.projectDir, s.name),
  patterns: {
    // The person's prompt: a `┃  text` line in its own bordered block; the prompt box is at the bottom.
    needsInput: [/Permission required/, /Allow once/, /Allow always/],
    retrying: [OPENCODE_RETRYING],
    // The AI SDK's connection failure, as opencode shows it once its retries are spent.
    error: [/Cannot connect to API: Unable to connect/],
    // The footer while a turn runs: "esc interrupt" (or "esc again to interrupt").
    working: [/esc (?:again to )?interrupt/],
    waiting: [/ctrl\+p commands/],
  },
  typing: OPENCODE_TYPING,
  apiHosts,
  // opencode talks to whichever provider it is set up for; these two and its own (opencode.ai) are the usual ones.
  probeHosts: [{ host: 'api.anthropic.com', port: 443 }, { host: 'api.openai.com', port: 443 }, { host: 'opencode.ai', port: 443 }],
  install: 'npm install -g opencode-ai',
  idForm: { pattern: OPENCODE_ID_PATTERN, words: '"ses_" and 26 letters or digits' },
  hooks: opencodeHooks,
  limits: opencodeLimits,
  usage: opencodeUsage,
};
