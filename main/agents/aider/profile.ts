// The Aider profile (DESIGN.md §5). New: `aider`; resume: `aider --restore-chat-history`. Aider has no
// session id (its chat history is one file per repo, `.aider.chat.history.md`), and no flag that
// gives a first prompt without exiting after it (`--message` runs one turn and quits), so the prompt
// is typed into its input once it shows. Flags from aider's options reference (aider.chat
// docs/config/options: `--restore-chat-history`, `--chat-history-file`); aider could not be
// installed here, so its screen patterns follow its documented prompts, not captures.
// Typed text (typing.ts's rules): Aider (prompt_toolkit) submits on every newline typed, so a
// multi-line text goes as a bracketed paste.
import { ok } from '../../../common/result.js';
import type { AgentProfile } from '../profile.js';
import path from 'node:path';
import { nudgeText } from '../first-prompt.js';
import { resolveBin } from '../launch-helpers.js';
import { exists } from '../record-files.js';
import { PASTE_SETTLE_MS, type TypingRules } from '../typing.js';

/** Aider's default `--chat-history-file`, in the directory it runs in. */
export const AIDER_HISTORY_FILE = '.aider.chat.history.md';

export const aiderHistoryExists = (cwd: string): Promise<boolean> => exists(path.join(cwd, AIDER_HISTORY_FILE));

export const AIDER_TYPING: TypingRules = {
  mode: 'keys',
  multiLine: 'bracketed-paste',
  firstCharAloneMs: 0,
  chunkChars: 0,
  chunkPauseMs: 0,
  enterDelayMs: PASTE_SETTLE_MS,
  enter: '\r',
  echoes: true,
  confirm: 'busy',
  // litellm's "Retrying in 0.5 seconds...": aider retries by itself.
  retrying: [/Retrying in [\d.]+ seconds/],
  pastePlaceholder: null,
};

export const aiderProfile: AgentProfile = {
  name: 'aider',
  label: 'Aider',
  defaultBin: 'aider',
  idSource: 'none',
  newSession: (input) => ok({ file: resolveBin('aider', 'aider', input.env), args: [], cwd: input.cwd, agentSessionId: null, typePrompt: input.prompt }),
  resumeSession: (input) =>
    ok({ file: resolveBin('aider', 'aider', input.env), args: ['--restore-chat-history'], cwd: input.cwd, agentSessionId: null, typePrompt: input.prompt }),
  transcriptExists: (ref) => aiderHistoryExists(ref.cwd),
  discoverSessionId: () => Promise.resolve(null),
  nudge: (s) => nudgeText(s.projectDir, s.name),
  patterns: {
    needsInput: [/\(Y\)es\/\(N\)o/, /\[Yes\]:\s*$/m, /Open URL for more info\?/],
    error: [/litellm\.\w*Error/, /APIConnectionError|ServiceUnavailableError|RateLimitError/, /Retrying in [\d.]+ seconds/],
    working: [/Waiting for \S+/, /^\s*[░█▒]+\s+Waiting/m],
    waiting: [/^(?:\w+)?> ?$/m],
  },
  typing: AIDER_TYPING,
  // Aider's provider depends on its --model; these two cover its defaults.
  apiHosts: () => [
    { host: 'api.openai.com', port: 443 },
    { host: 'api.anthropic.com', port: 443 },
  ],
  // aider talks to whichever model provider it is set up for, commonly one of these two.
  probeHosts: [{ host: 'api.openai.com', port: 443 }, { host: 'api.anthropic.com', port: 443 }],
  install: 'python -m pip install aider-install && aider-install',
};
