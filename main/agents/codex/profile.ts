// The Codex CLI profile (DESIGN.md §5). New: `codex --no-daemon --config disable_paste_burst=true [prompt]`;
// resume: `codex resume --no-daemon --config … <id> [prompt]` (never --last). Codex picks its own session
// id: the supervisor polls discoverSessionId from the launch on and records it as soon as codex has
// written its rollout (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<id>.jsonl`, created when the
// first prompt is submitted; `session_index.jsonl` only follows once the first turn ends and has no
// cwd). `codex resume <id>` needs that rollout: with only the thread in `state_5.sqlite` it exits 1
// ("no rollout found for thread id"), so transcriptExists looks for the rollout and the relaunch
// starts fresh without it.
// `--no-daemon` keeps the agent inside the process Mori supervises: without it the TUI hands the
// turn to a shared background server that outlives it, and a Ctrl+C exits 0 while work goes on
// unseen. `disable_paste_burst`: codex takes a fast burst of keys for a paste and drops an Enter
// that comes right after the text, so a typed nudge would sit in the composer unsent.
// Retrying is working: codex retries a dropped stream 5 times (`Reconnecting... N/5`) and a refused
// connection without end (`Reconnecting... waiting for network`), finishing the turn by itself once
// the API answers; only the `■` line it prints on giving up is an error.
// Flags and screens checked against codex-cli 0.171.0 driven against a loopback Responses API
// (screens: test/support/fixtures/agent-screens/codex-*.txt; test/integration/agents-real-codex.test.ts).
// Typed text (typing.ts's rules, observed on the real CLI): Codex CLI 0.171.0 reads a burst as a
// paste, so Enter right after the text is swallowed; about half a second of quiet before Enter lets
// it through.
import { fail, ok } from '../../../common/result.js';
import { codexHooks } from './hooks.js';
import { codexLimits } from './limits.js';
import { codexUsage } from './usage.js';
import type { AgentProfile } from '../profile.js';
import { writtenSince } from '../record-files.js';
import { codexRolloutExists, codexRolloutPath, findCodexSession, parseCodexExitId } from './rollouts.js';
import { codexHome } from './rollouts.js';
import { nudgeText } from '../first-prompt.js';
import { positionalPrompt, resolveBin, UUID_ID_FORM, UUID_PATTERN } from '../launch-helpers.js';
import type { TypingRules } from '../typing.js';

/** Options every codex launch takes (see the header). */
const CODEX_OPTIONS = ['--no-daemon', '--config', 'disable_paste_burst=true'];

/** Codex's paste-burst window is about 0.5 s: Enter needs that much quiet after the last key. */
const CODEX_PASTE_BURST_MS = 600;

export const CODEX_TYPING: TypingRules = {
  mode: 'keys',
  multiLine: 'bracketed-paste',
  firstCharAloneMs: 0,
  chunkChars: 0,
  chunkPauseMs: 0,
  enterDelayMs: CODEX_PASTE_BURST_MS,
  enter: '\r',
  echoes: true,
  confirm: 'busy',
  // "◦ Reconnecting... 4/5 (3s • esc to interrupt)": codex retries the stream by itself.
  retrying: [/Reconnecting\.\.\. \d+\/\d+/],
  pastePlaceholder: /\[Pasted Content \d+ chars\]/,
};

export const codexProfile: AgentProfile = {
  name: 'codex',
  label: 'Codex CLI',
  defaultBin: 'codex',
  configPaths: (env) => [codexHome(env)],
  idSource: 'discovered',
  newSession(input) {
    const args = [...CODEX_OPTIONS];
    if (input.prompt !== null) args.push(positionalPrompt(input.prompt));
    return ok({ file: resolveBin('codex', 'codex', input.env), args, cwd: input.cwd, agentSessionId: null, typePrompt: null });
  },
  resumeSession(input) {
    if (input.agentSessionId === null) return fail('failed', 'no Codex session id was captured, so there is nothing to resume');
    if (!UUID_PATTERN.test(input.agentSessionId)) return fail('usage', `codex resumes by UUID, got ${JSON.stringify(input.agentSessionId)}; not put on the command line`);
    const args = ['resume', ...CODEX_OPTIONS, input.agentSessionId];
    if (input.prompt !== null) args.push(positionalPrompt(input.prompt));
    return ok({ file: resolveBin('codex', 'codex', input.env), args, cwd: input.cwd, agentSessionId: input.agentSessionId, typePrompt: null });
  },
  transcriptExists: (ref, env) => (ref.agentSessionId === null ? Promise.resolve(false) : codexRolloutExists(env, ref.agentSessionId)),
  // The rollout is appended when a prompt is submitted.
  tookInputSince: async (ref, env, sinceMs) => ref.agentSessionId !== null && writtenSince(await codexRolloutPath(env, ref.agentSessionId), sinceMs),
  async discoverSessionId(input, env) {
    const printed = input.exitText !== undefined ? parseCodexExitId(input.exitText) : null;
    return printed ?? (await findCodexSession(env, input.cwd, input.startedAtMs, Date.now(), input.taken ?? []));
  },
  nudge: (s) => nudgeText(s.projectDir, s.name),
  patterns: {
    // The echo `› text`; the empty composer's placeholder and menu items (`› 1. Trust`) are not turns.
    turnStart: /^› (?!\d+\. )(?!Ask Codex to do anything)\S/,
    needsInput: [
      /Sign in with ChatGPT/,
      /Trust this folder\?/,
      /Press enter to continue/,
      /Would you like to (?:run the following command|make the following edits|grant)/,
      /Allow (?:command|Codex)/,
    ],
    // Only the `■` line codex prints when a turn ends in failure (retries used up, HTTP errors,
    // quota), not the interrupt notice. While it retries (`Reconnecting... N/5`, `waiting for
    // network`, with `Stream disconnected`/`Connection failed` under it) the footer says `esc to
    // interrupt`: working on its own, never to be typed into.
    error: [/^■ (?!Conversation interrupted)/m],
    working: [/esc to interrupt/i],
    waiting: [/\? for shortcuts/, /^› /m],
  },
  typing: CODEX_TYPING,
  // API-key accounts use the API host, ChatGPT sign-ins the ChatGPT backend: either one is enough.
  apiHosts: () => [
    { host: 'api.openai.com', port: 443 },
    { host: 'chatgpt.com', port: 443 },
  ],
  // API-key sign-in talks to api.openai.com, ChatGPT sign-in to chatgpt.com.
  probeHosts: [{ host: 'api.openai.com', port: 443 }, { host: 'chatgpt.com', port: 443 }],
  install: 'npm install -g @openai/codex',
  idForm: UUID_ID_FORM,
  hooks: codexHooks,
  limits: codexLimits,
  usage: codexUsage,
};
