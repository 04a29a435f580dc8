// The Codex CLI profile (DESIGN.md §5). New: `codex --no-daemon [prompt]`; resume:
// `codex resume --no-daemon <id> [prompt]` (never --last). Codex picks its own session id: Mori finds
// the newest rollout under `$CODEX_HOME/sessions/` whose cwd matches, or reads the id codex prints
// on exit. `--no-daemon` keeps the agent inside the process Mori supervises: without it the TUI
// hands the turn to a shared background server that outlives it, and a Ctrl+C exits 0 while work
// goes on unseen. Flags and screens checked against codex-cli 0.171.0 (`codex --help`,
// `codex resume --help`; screens: test/fixtures/agent-screens/codex-*.txt).
import { fail, ok } from '../../common/result.js';
import type { AgentProfile } from './profile.js';
import { codexRolloutExists, findCodexSession, parseCodexExitId } from './agent-transcripts.js';
import { nudgeText } from './first-prompt.js';
import { positionalPrompt, resolveBin } from './launch-helpers.js';

export const codexProfile: AgentProfile = {
  name: 'codex',
  label: 'Codex CLI',
  defaultBin: 'codex',
  idSource: 'discovered',
  newSession(input) {
    const args = ['--no-daemon'];
    if (input.prompt !== null) args.push(positionalPrompt(input.prompt));
    return ok({ file: resolveBin('codex', 'codex', input.env), args, cwd: input.cwd, agentSessionId: null, typePrompt: null });
  },
  resumeSession(input) {
    if (input.agentSessionId === null) return fail('failed', 'no Codex session id was captured, so there is nothing to resume');
    const args = ['resume', '--no-daemon', input.agentSessionId];
    if (input.prompt !== null) args.push(positionalPrompt(input.prompt));
    return ok({ file: resolveBin('codex', 'codex', input.env), args, cwd: input.cwd, agentSessionId: input.agentSessionId, typePrompt: null });
  },
  transcriptExists: (ref, env) => (ref.agentSessionId === null ? Promise.resolve(false) : codexRolloutExists(env, ref.agentSessionId)),
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
    error: [
      /Reconnecting\.\.\. (?:\d+\/\d+|waiting for network)/,
      /Stream disconnected before completion/,
      /Connection failed:/,
      /error sending request/,
      /^■ .*(?:error|unexpected status|Quota exceeded|usage limit)/im,
    ],
    working: [/esc to interrupt/i],
    waiting: [/\? for shortcuts/, /^› /m],
  },
  // API-key accounts use the API host, ChatGPT sign-ins the ChatGPT backend: either one is enough.
  apiHosts: () => [
    { host: 'api.openai.com', port: 443 },
    { host: 'chatgpt.com', port: 443 },
  ],
};
