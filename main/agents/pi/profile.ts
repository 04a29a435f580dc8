// The Pi profile (DESIGN.md §5), for `@mariozechner/pi-coding-agent`. Pi takes no session id from the
// caller but a session file: new and resume are the same `pi --session <file> [prompt]`, the file
// named by Mori (sessions.ts; Pi creates it with the first answer and resumes it when it is there), so
// the id is pre-assigned. A bare positional prompt is submitted and Pi stays interactive; a prompt
// starting with "@" would be read as a file to attach, and one with "-" as an option, so either is
// given a leading space. Its provider, model and key come from the person's Pi setup (its agent dir's
// models.json and settings.json, or its providers' key variables); Mori adds only its extension
// (hooks.ts). Pi asks no permission before it runs a tool, so a Pi session never shows needs-input.
// A failed request (a 429 included) is retried by Pi itself, three times with its countdown
// ("Retrying (1/3) in 2s..."), then shown as "Error: …"; it shows no usage-limit message or reset
// time of its own, so a spent quota is read as an error only.
// Flags and screens checked against Pi 0.73.1 driven against a loopback Responses API (screens:
// test/support/fixtures/agent-screens/pi-*.txt; test/integration/agents/real-pi.test.ts).
// Typed text (typing.ts's rules, observed on the real CLI): its editor takes a bracketed paste
// without submitting it (a long one shows as "[paste #1 +12 lines]"); a CR on its own submits.
import { fail, ok } from '../../../common/result.js';
import type { AgentProfile, Env } from '../profile.js';
import { writtenSince } from '../record-files.js';
import { nudgeText } from '../first-prompt.js';
import { resolveBin } from '../launch-helpers.js';
import { PASTE_SETTLE_MS, type TypingRules } from '../typing.js';
import { piHooks } from './hooks.js';
import { PI_ID_FORM, piAgentDir, piSessionExists, piSessionFile, piSessionPath } from './sessions.js';
import { piUsage } from './usage.js';

/** Its countdown between its own attempts at a failed request: "Retrying (1/3) in 2s... (escape to cancel)". */
export const PI_RETRYING = /Retrying \(\d+\/\d+\) in \d+s\.\.\./;

export const PI_TYPING: TypingRules = {
  mode: 'bracketed-paste',
  multiLine: 'bracketed-paste',
  firstCharAloneMs: 0,
  chunkChars: 0,
  chunkPauseMs: 0,
  enterDelayMs: PASTE_SETTLE_MS,
  enter: '\r',
  echoes: true,
  confirm: 'busy',
  retrying: [PI_RETRYING],
  pastePlaceholder: /\[paste #\d+(?: (?:\+\d+ lines|\d+ chars))?\]/,
};

/** The prompt as Pi's one message argument: never read as an option (`-`) or a file to attach (`@`). */
const promptArgs = (prompt: string | null): string[] => (prompt === null ? [] : [/^[-@]/.test(prompt) ? ` ${prompt}` : prompt]);

/** `--session <file>` for this id, or why not. */
function launch(id: string | null, prompt: string | null, cwd: string, env: Env): ReturnType<AgentProfile['newSession']> {
  if (id === null) return fail('failed', 'no Pi session was recorded, so there is nothing to resume');
  const file = piSessionFile(env, id);
  if (file === null) return fail('usage', `pi names a session by its file's name (${PI_ID_FORM.words}), got ${JSON.stringify(id)}; not put on the command line`);
  return ok({ file: resolveBin('pi', 'pi', env), args: ['--session', file, ...promptArgs(prompt)], cwd, agentSessionId: id, typePrompt: null });
}

export const piProfile: AgentProfile = {
  name: 'pi',
  label: 'Pi',
  defaultBin: 'pi',
  configPaths: (env) => [piAgentDir(env)],
  idSource: 'pre-assigned',
  newSession: (input) => launch(input.newAgentSessionId, input.prompt, input.cwd, input.env),
  resumeSession: (input) => launch(input.agentSessionId, input.prompt, input.cwd, input.env),
  transcriptExists: (ref, env) => (ref.agentSessionId === null ? Promise.resolve(false) : piSessionExists(env, ref.agentSessionId)),
  // The file is appended with each prompt once the session's first answer has come (the first prompt is written with that answer).
  tookInputSince: async (ref, env, sinceMs) => ref.agentSessionId !== null && writtenSince(await piSessionPath(env, ref.agentSessionId), sinceMs),
  discoverSessionId: () => Promise.resolve(null), // pre-assigned
  nudge: (s) => nudgeText(s.projectDir, s.name),
  patterns: {
    // Pi has no permission prompts.
    needsInput: [],
    retrying: [PI_RETRYING],
    // An "Error: …" (wrapped lines indented beneath it) that is the last thing above its editor's rule:
    // an error of an earlier turn has that turn's prompt and answer below it, a retried one its countdown.
    error: [/^ Error: [^\n]*(?:\n {1,2}\S[^\n]*)*\n+─{20,}$/m],
    // Its loader while a prompt runs: "⠋ Working..." (an extension may word it otherwise).
    working: [/^ \S Working\.\.\./m],
    // Its footer's context gauge, "1.1%/128k (auto)", shown below its editor whenever it is up.
    waiting: [/(?:^|\s)(?:\d+\.\d|\?)%\/\d/m],
  },
  typing: PI_TYPING,
  // Pi speaks to whichever provider its setup names (its models.json base URLs are not read here).
  apiHosts: () => [
    { host: 'generativelanguage.googleapis.com', port: 443 },
    { host: 'api.anthropic.com', port: 443 },
    { host: 'api.openai.com', port: 443 },
  ],
  // Google is its default provider; Anthropic and OpenAI the usual others.
  probeHosts: [
    { host: 'generativelanguage.googleapis.com', port: 443 },
    { host: 'api.anthropic.com', port: 443 },
    { host: 'api.openai.com', port: 443 },
  ],
  install: 'npm install -g @mariozechner/pi-coding-agent',
  idForm: PI_ID_FORM,
  hooks: piHooks,
  usage: piUsage,
};
