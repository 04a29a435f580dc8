// The Claude Code profile (DESIGN.md §5). New: `claude --session-id <uuid> [prompt]`; resume:
// `claude --resume <uuid> [prompt]` from the recorded cwd. The id is pre-assigned, the transcript is
// `$CLAUDE_CONFIG_DIR/projects/<cwd mangled>/<uuid>.jsonl`. Never --continue: with two sessions in one
// directory it resumes the wrong one. Flags and screens checked against Claude Code 2.1.332
// (`claude --help`; screens captured from the real CLI: test/support/fixtures/agent-screens/claude-*.txt).
// Typed text (typing.ts's rules, observed on the real CLI): Claude Code 2.1.197 reads a long burst
// of keys as a paste and drops a CR inside it (a 165-char text + CR in one write stays in its input
// box; a CR written on its own afterwards submits it). It takes bracketed paste (newlines kept, no
// submit) and collapses a long one into `[Pasted text #N +K lines]`.
import { fail, ok } from '../../../common/result.js';
import type { AgentProfile, Env } from '../profile.js';
import { claudeTranscriptExists } from './transcript.js';
import { claudeConfigPaths, claudeSandboxed } from './config-paths.js';
import { claudeBusySince, findClaudeAgentStatus } from './session-status.js';
import { claudeHooks } from './hooks.js';
import { claudeLimits } from './limits.js';
import { claudeUsage } from './usage.js';
import { claudeDaemonHolding, heldWords } from './agent-daemon.js';
import { claudePermissionMode } from './permission-mode.js';
import { nudgeText } from '../first-prompt.js';
import { positionalPrompt, resolveBin, UUID_ID_FORM, UUID_PATTERN } from '../launch-helpers.js';
import { PASTE_SETTLE_MS, type TypingRules } from '../typing.js';

/** The API host claude talks to: ANTHROPIC_BASE_URL's when set (a gateway), else Anthropic's. */
function apiHosts(env: Env): { host: string; port: number }[] {
  const base = env['ANTHROPIC_BASE_URL'];
  if (base !== undefined && base !== '') {
    try {
      const u = new URL(base);
      return [{ host: u.hostname, port: u.port !== '' ? Number(u.port) : u.protocol === 'http:' ? 80 : 443 }];
    } catch {
      // an unparsable base URL: claude cannot use it either; probe the default
    }
  }
  return [{ host: 'api.anthropic.com', port: 443 }];
}

/** Claude Code's own retry line ("Unable to connect to API (ConnectionRefused) · Retrying in 5s · attempt 5/10"). */
export const CLAUDE_RETRYING = /Retrying in \d+s · attempt \d+\/\d+/;

export const CLAUDE_TYPING: TypingRules = {
  mode: 'bracketed-paste',
  multiLine: 'bracketed-paste',
  firstCharAloneMs: 0,
  chunkChars: 0,
  chunkPauseMs: 0,
  enterDelayMs: PASTE_SETTLE_MS,
  enter: '\r',
  echoes: true,
  confirm: 'busy',
  retrying: [CLAUDE_RETRYING],
  pastePlaceholder: /\[Pasted text #\d+(?: \+\d+ lines)?\]/,
};

export const claudeProfile: AgentProfile = {
  name: 'claude',
  label: 'Claude Code',
  defaultBin: 'claude',
  configPaths: (env) => claudeConfigPaths(env),
  sandboxed: (env) => claudeSandboxed(env),
  idSource: 'pre-assigned',
  newSession(input) {
    if (!UUID_PATTERN.test(input.newAgentSessionId)) return fail('usage', `claude needs a UUID session id, got "${input.newAgentSessionId}"`);
    const args = ['--session-id', input.newAgentSessionId];
    if (input.prompt !== null) args.push(positionalPrompt(input.prompt));
    return ok({ file: resolveBin('claude', 'claude', input.env), args, cwd: input.cwd, agentSessionId: input.newAgentSessionId, typePrompt: null });
  },
  resumeSession(input) {
    if (input.agentSessionId === null) return fail('failed', 'no Claude Code session id was captured, so there is nothing to resume');
    if (!UUID_PATTERN.test(input.agentSessionId)) return fail('usage', `claude resumes by UUID, got ${JSON.stringify(input.agentSessionId)}; not put on the command line`);
    const args = ['--resume', input.agentSessionId];
    if (input.prompt !== null) args.push(positionalPrompt(input.prompt));
    return ok({ file: resolveBin('claude', 'claude', input.env), args, cwd: input.cwd, agentSessionId: input.agentSessionId, typePrompt: null });
  },
  transcriptExists: (ref, env) => (ref.agentSessionId === null ? Promise.resolve(false) : claudeTranscriptExists(env, ref.cwd, ref.agentSessionId)),
  // Busy in its status file, the status changed, or the transcript written since (session-status.ts).
  tookInputSince: (ref, env, sinceMs) => (ref.agentSessionId === null ? Promise.resolve(false) : claudeBusySince(env, ref.agentSessionId, ref.cwd, sinceMs)),
  discoverSessionId: () => Promise.resolve(null), // pre-assigned: the launch spec carries it
  nudge: (s) => nudgeText(s.projectDir, s.name),
  patterns: {
    // The echo of the person's prompt, `❯ text` at column 0; numbered menu items (`❯ 1. Yes`) are not turns.
    turnStart: /^❯ (?!\d+\. )\S/,
    needsInput: [
      /Do you want to (?:proceed|make this edit|create|allow|use this API key)/,
      /Do you trust the files in this folder\?/,
      /Enter to confirm · Esc to cancel/,
      /Esc to cancel · Tab to amend/,
      // Its choosers (the offer to make auto mode the default, shown after a turn in manual mode).
      /↑\/↓ to choose · Esc to cancel/,
      /Make auto mode your default permission mode\?/,
      /Select login method|Paste code here if prompted|Press Enter to continue/,
    ],
    // The retry line names the error it retries ("Unable to connect to API … · Retrying in 5s"): the
    // agent works on its own until its last attempt fails and leaves "API Error: …".
    retrying: [CLAUDE_RETRYING],
    error: [
      /Unable to connect to (?:API|Anthropic services)/,
      /Failed to connect to \S+: /,
      /^\s*(?:●|⎿)?\s*API Error\b/m,
      /Invalid API key|Please run \/login|OAuth token (?:has expired|revoked)|Credit balance is too low/,
    ],
    working: [/esc to interrupt/i, /^\s*[✻✽✶✳✢·*]\s+\S+…/m],
    // The footer, or the input box (a `❯` line over a rule); the bare echo of a prompt is not idle.
    waiting: [/\? for shortcuts/, /^❯.*\n─{10,}$/m],
  },
  typing: CLAUDE_TYPING,
  apiHosts,
  probeHosts: [{ host: 'api.anthropic.com', port: 443 }],
  install: 'npm install -g @anthropic-ai/claude-code',
  idForm: UUID_ID_FORM,
  hooks: claudeHooks,
  limits: claudeLimits,
  usage: claudeUsage,
  status: { find: findClaudeAgentStatus },
  // Its background service (`claude --bg`, agent-daemon.ts): a conversation it holds is opened with `claude attach`, never resumed.
  ownSupervisor: {
    async holding(env, agentSessionId) {
      const held = await claudeDaemonHolding(env, agentSessionId);
      return held === null ? null : { words: heldWords(held), agentSessionId: held.sessionId, cwd: held.cwd, attachArgs: ['attach', held.short] };
    },
  },
  permissionMode: claudePermissionMode,
};
