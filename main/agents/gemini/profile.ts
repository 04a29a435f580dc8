// The Gemini CLI profile (DESIGN.md §5). New: `gemini --session-id <uuid> [-i prompt]` (Gemini CLI
// accepts a caller-chosen session UUID, so the id is pre-assigned like claude's); resume:
// `gemini --resume <uuid> [-i prompt]` (never `--resume latest`). The chat is saved in its chats dir
// for the project: `~/.gemini/tmp/<project slug>/chats/session-<time>-<uuid prefix>.jsonl`.
// Flags and screens checked against Gemini CLI 0.61.0 driven against a loopback Gemini API (screens:
// test/support/fixtures/agent-screens/gemini-*.txt; test/integration/agents-real-gemini.test.ts).
// Typed text (typing.ts's rules, observed on the real CLI): Gemini CLI 0.61.0 drops every `?` of a
// fast burst typed into an empty input box; the first character written alone makes the box
// non-empty first.
import { fail, ok } from '../../../common/result.js';
import { geminiHooks } from './hooks.js';
import { geminiLimits } from './limits.js';
import { geminiUsage } from './usage.js';
import type { AgentProfile } from '../profile.js';
import { writtenSince } from '../record-files.js';
import { geminiChatExists, geminiChatPath } from './chats.js';
import { geminiDir } from './chats.js';
import { nudgeText } from '../first-prompt.js';
import { positionalPrompt, resolveBin, UUID_ID_FORM, UUID_PATTERN } from '../launch-helpers.js';
import { PASTE_SETTLE_MS, type TypingRules } from '../typing.js';

/** Long enough for Gemini CLI to render the first character before the burst that follows. */
const GEMINI_FIRST_CHAR_MS = 150;

export const GEMINI_TYPING: TypingRules = {
  mode: 'keys',
  multiLine: 'bracketed-paste',
  firstCharAloneMs: GEMINI_FIRST_CHAR_MS,
  chunkChars: 0,
  chunkPauseMs: 0,
  enterDelayMs: PASTE_SETTLE_MS,
  enter: '\r',
  echoes: true,
  confirm: 'busy',
  // "Attempt 2 failed. Retrying with backoff...": gemini retries by itself.
  retrying: [/Attempt \d+ failed\. Retrying/],
  pastePlaceholder: null,
};

export const geminiProfile: AgentProfile = {
  name: 'gemini',
  label: 'Gemini CLI',
  defaultBin: 'gemini',
  configPaths: (env) => [geminiDir(env)],
  idSource: 'pre-assigned',
  newSession(input) {
    if (!UUID_PATTERN.test(input.newAgentSessionId)) return fail('usage', `gemini needs a UUID session id, got "${input.newAgentSessionId}"`);
    const args = ['--session-id', input.newAgentSessionId];
    // -i runs the prompt and stays interactive (a bare positional would too, but -i is explicit).
    if (input.prompt !== null) args.push('-i', positionalPrompt(input.prompt));
    return ok({ file: resolveBin('gemini', 'gemini', input.env), args, cwd: input.cwd, agentSessionId: input.newAgentSessionId, typePrompt: null });
  },
  resumeSession(input) {
    if (input.agentSessionId === null) return fail('failed', 'no Gemini CLI session id was captured, so there is nothing to resume');
    if (!UUID_PATTERN.test(input.agentSessionId)) return fail('usage', `gemini resumes by UUID, got ${JSON.stringify(input.agentSessionId)}; not put on the command line`);
    const args = ['--resume', input.agentSessionId];
    if (input.prompt !== null) args.push('-i', positionalPrompt(input.prompt));
    return ok({ file: resolveBin('gemini', 'gemini', input.env), args, cwd: input.cwd, agentSessionId: input.agentSessionId, typePrompt: null });
  },
  transcriptExists: (ref, env) => (ref.agentSessionId === null ? Promise.resolve(false) : geminiChatExists(env, ref.cwd, ref.agentSessionId)),
  // The chat is appended with the person's prompt once its request is under way.
  tookInputSince: async (ref, env, sinceMs) => ref.agentSessionId !== null && writtenSince(await geminiChatPath(env, ref.cwd, ref.agentSessionId, false), sinceMs),
  discoverSessionId: () => Promise.resolve(null), // pre-assigned
  nudge: (s) => nudgeText(s.projectDir, s.name),
  patterns: {
    // The echo ` > text`, `> text` without colours (NO_COLOR: no message background, so no padding);
    // the empty composer (` >   Type your message…`) is not a turn.
    turnStart: /^ ?> (?!\s)\S/,
    needsInput: [
      /Do you trust the files in this folder\?/,
      /How would you like to authenticate/,
      /Enter Gemini API Key/,
      /Allow execution of/,
      /Apply this change\?/,
      /Waiting for user confirmation/,
    ],
    // Gemini retries a failed request silently behind its spinner (10 attempts by default, without
    // end on 429/503) and finishes the turn by itself: working. It gave up once it prints `✕ [API Error`.
    error: [/✕ \[API Error/, /\bAPI Error:/, /This request failed\./],
    working: [/esc to cancel/i, /Attempt \d+ failed\. Retrying/],
    waiting: [/Type your message or @path\/to\/file/, /\? for shortcuts/],
    // Its limit dialog's last choice, "│   2. Stop   │" ("● " before the highlighted one), always boxed.
    limitDialogStop: /^\s*│\s*(?:●\s*)?(\d)\. Stop\s*│\s*$/,
  },
  typing: GEMINI_TYPING,
  // API-key accounts use the Generative Language API, Google sign-ins Code Assist: either one is enough.
  apiHosts: () => [
    { host: 'generativelanguage.googleapis.com', port: 443 },
    { host: 'cloudcode-pa.googleapis.com', port: 443 },
  ],
  // API-key sign-in talks to the Gemini API, Google sign-in to the Code Assist API.
  probeHosts: [{ host: 'generativelanguage.googleapis.com', port: 443 }, { host: 'cloudcode-pa.googleapis.com', port: 443 }],
  install: 'npm install -g @google/gemini-cli',
  idForm: UUID_ID_FORM,
  hooks: geminiHooks,
  limits: geminiLimits,
  usage: geminiUsage,
};
