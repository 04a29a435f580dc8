// The Qwen Code profile (DESIGN.md §5). New: `qwen --session-id <uuid> [-i prompt]` (Qwen Code takes
// a caller-chosen session UUID, so the id is pre-assigned); resume: `qwen --resume <uuid> [-i prompt]`
// (never `--continue`, which takes the directory's latest session). `-i` runs the prompt and stays
// interactive (a bare positional prompt would run once and exit). The chat is saved as
// `<runtime dir>/projects/<cwd slug>/chats/<uuid>.jsonl` (chats.ts). Its provider, model and key come
// from the person's own settings or environment (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL for
// its default auth type, which speaks Chat Completions); Mori adds only its hooks layer (hooks.ts).
// Its approval mode is the person's: 0.24.4 starts in `auto` (a classifier approves what it deems
// safe and asks about the rest), and what it asks shows as needs-input.
// Flags and screens checked against Qwen Code 0.24.4 driven against a loopback Chat Completions API
// (screens: test/support/fixtures/agent-screens/qwen-*.txt; test/integration/agents/real-qwen.test.ts).
// Typed text (typing.ts's rules, observed on the real CLI): 0.24.4 keeps every character of a fast
// burst typed into its empty input box (`?` included), and takes a bracketed paste of several lines
// into the box without submitting it; a CR written on its own afterwards submits.
import { fail, ok } from '../../../common/result.js';
import type { AgentProfile, Env } from '../profile.js';
import { writtenSince } from '../record-files.js';
import { nudgeText } from '../first-prompt.js';
import { positionalPrompt, resolveBin, UUID_ID_FORM, UUID_PATTERN } from '../launch-helpers.js';
import { PASTE_SETTLE_MS, type TypingRules } from '../typing.js';
import { qwenChatExists, qwenChatPath, qwenHome, qwenRuntimeDir } from './chats.js';
import { qwenHooks } from './hooks.js';
import { qwenLimits } from './limits.js';
import { qwenUsage } from './usage.js';

/** Its countdown between its own attempts at a failed request: "Retrying in 4s… (attempt 2/10)". */
export const QWEN_RETRYING = /Retrying in \d+(?:s| seconds)… \(attempt \d+\/\d+\)/;

export const QWEN_TYPING: TypingRules = {
  mode: 'keys',
  multiLine: 'bracketed-paste',
  firstCharAloneMs: 0,
  chunkChars: 0,
  chunkPauseMs: 0,
  enterDelayMs: PASTE_SETTLE_MS,
  enter: '\r',
  echoes: true,
  confirm: 'busy',
  retrying: [QWEN_RETRYING],
  // A long paste shows as "[Pasted Content 1234 chars]" (its Gemini CLI heritage).
  pastePlaceholder: /\[Pasted Content \d+ chars\]/,
};

/** `-i <prompt>`, the text kept from being read as an option. */
const promptArgs = (prompt: string | null): string[] => (prompt === null ? [] : ['-i', positionalPrompt(prompt)]);

/** The host of its OpenAI-compatible endpoint when OPENAI_BASE_URL names one, else the defaults. */
function apiHosts(env: Env): { host: string; port: number }[] {
  const base = env['OPENAI_BASE_URL'];
  if (base !== undefined && base !== '') {
    try {
      const u = new URL(base);
      return [{ host: u.hostname, port: u.port !== '' ? Number(u.port) : u.protocol === 'http:' ? 80 : 443 }];
    } catch {
      // unparsable: probe the defaults
    }
  }
  return [
    { host: 'dashscope.aliyuncs.com', port: 443 },
    { host: 'api.openai.com', port: 443 },
  ];
}

export const qwenProfile: AgentProfile = {
  name: 'qwen',
  label: 'Qwen Code',
  defaultBin: 'qwen',
  configPaths: (env) => [...new Set([qwenHome(env), qwenRuntimeDir(env)])],
  idSource: 'pre-assigned',
  newSession(input) {
    if (!UUID_PATTERN.test(input.newAgentSessionId)) return fail('usage', `qwen needs a UUID session id, got "${input.newAgentSessionId}"`);
    const args = ['--session-id', input.newAgentSessionId, ...promptArgs(input.prompt)];
    return ok({ file: resolveBin('qwen', 'qwen', input.env), args, cwd: input.cwd, agentSessionId: input.newAgentSessionId, typePrompt: null });
  },
  resumeSession(input) {
    if (input.agentSessionId === null) return fail('failed', 'no Qwen Code session id was captured, so there is nothing to resume');
    if (!UUID_PATTERN.test(input.agentSessionId)) return fail('usage', `qwen resumes by UUID, got ${JSON.stringify(input.agentSessionId)}; not put on the command line`);
    const args = ['--resume', input.agentSessionId, ...promptArgs(input.prompt)];
    return ok({ file: resolveBin('qwen', 'qwen', input.env), args, cwd: input.cwd, agentSessionId: input.agentSessionId, typePrompt: null });
  },
  transcriptExists: (ref, env) => (ref.agentSessionId === null ? Promise.resolve(false) : qwenChatExists(env, ref.cwd, ref.agentSessionId)),
  // The chat is appended with the person's prompt as soon as it is submitted.
  tookInputSince: async (ref, env, sinceMs) => ref.agentSessionId !== null && writtenSince(await qwenChatPath(env, ref.cwd, ref.agentSessionId), sinceMs),
  discoverSessionId: () => Promise.resolve(null), // pre-assigned
  nudge: (s) => nudgeText(s.projectDir, s.name),
  patterns: {
    // The echo `  > text` of a submitted prompt; the input box's own `> ` starts its line at column 0.
    turnStart: /^ {2}> \S/,
    needsInput: [/Waiting for user confirmation/, /Allow execution of/, /Apply this change\?/, /Do you want to proceed\?/],
    retrying: [QWEN_RETRYING],
    error: [/^\s*✕ \[API Error/m, /^\s*✕ Quota exhausted:/m],
    // The spinner line while a turn runs: "… (1s · esc to cancel)".
    working: [/esc to cancel\)/],
    waiting: [/Type your message or @path\/to\/file/, /shift \+ tab to cycle\)/],
  },
  typing: QWEN_TYPING,
  apiHosts,
  // Its OAuth service and Alibaba Cloud's DashScope are the usual endpoints; OpenAI the generic one.
  probeHosts: [{ host: 'dashscope.aliyuncs.com', port: 443 }, { host: 'api.openai.com', port: 443 }],
  install: 'npm install -g @qwen-code/qwen-code',
  idForm: UUID_ID_FORM,
  hooks: qwenHooks,
  limits: qwenLimits,
  usage: qwenUsage,
};
