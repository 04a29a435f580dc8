// The shell and custom profiles (DESIGN.md §5): any terminal program, from a command template with
// `{prompt}` and `{id}` placeholders (`mori init --command`). The same template starts and resumes;
// a template that uses `{id}` gets a pre-assigned UUID that is passed again on resume. Mori has no
// screen patterns for an unknown program and never types into it. Pure.
import { fail, ok, type Result } from '../../../common/result.js';
import type { AgentProfile, Env, LaunchSpec } from '../profile.js';
import { PLAIN_ID_PATTERN } from '../launch-helpers.js';
import { expandTemplate, templateUsesId } from '../command-template.js';
import type { TypingRules } from '../typing.js';

/** The user's login shell for the shell profile without a command. */
const defaultShell = (env: Env): string => {
  const sh = env['SHELL'];
  return sh !== undefined && sh !== '' ? sh : '/bin/sh';
};

function launch(template: string, cwd: string, prompt: string | null, id: string | null): Result<LaunchSpec> {
  const usesId = templateUsesId(template);
  // The id reaches the template's argv, and the template may hand it to a shell: only a plain one does.
  if (usesId && id !== null && !PLAIN_ID_PATTERN.test(id)) return fail('usage', `${JSON.stringify(id)} is not a usable session id (letters, digits, ".", "_", "-"); not put on the command line`);
  const expanded = expandTemplate(template, { prompt, id: usesId ? id : null });
  if (!expanded.ok) return expanded;
  return ok({ ...expanded.value, cwd, agentSessionId: usesId ? id : null, typePrompt: null });
}

/** A shell or an unknown program: typed as is, each line a command, nothing to confirm against. */
export const PLAIN_TYPING: TypingRules = {
  mode: 'keys',
  multiLine: 'raw',
  firstCharAloneMs: 0,
  chunkChars: 0,
  chunkPauseMs: 0,
  enterDelayMs: 0,
  enter: '\r',
  echoes: false,
  confirm: 'none',
  retrying: [],
  pastePlaceholder: null,
};

export const shellProfile: AgentProfile = {
  name: 'shell',
  label: 'Shell',
  defaultBin: 'sh',
  idSource: 'none',
  newSession: (input) => launch(input.command ?? defaultShell(input.env), input.cwd, input.prompt, input.newAgentSessionId),
  resumeSession: (input) => launch(input.command ?? defaultShell(input.env), input.cwd, input.prompt, input.agentSessionId),
  transcriptExists: (ref) => Promise.resolve(ref.agentSessionId !== null),
  discoverSessionId: () => Promise.resolve(null),
  nudge: () => null,
  patterns: {
    needsInput: [/\[y\/N\]\s*$|\[Y\/n\]\s*$|\(yes\/no\)\??\s*$|[Pp]assword( for [^:]*)?:\s*$/m],
    error: [],
    working: [],
    // A prompt ending the screen: `user@host:~/proj$ `, `# `, `% `, `> `.
    waiting: [/[$#%>❯]\s*$/],
  },
  typing: PLAIN_TYPING,
  apiHosts: () => [],
  // It runs commands Mori knows nothing about, so it adds no probe hosts.
  probeHosts: [],
  install: 'check the command in session.json (`mori init --command`)',
  takesCommand: true,
};

export const customProfile: AgentProfile = {
  name: 'custom',
  label: 'Custom command',
  defaultBin: '',
  idSource: 'none',
  newSession: (input) =>
    input.command === undefined || input.command.trim() === ''
      ? fail('usage', 'the custom profile needs a command (mori init --command "…")')
      : launch(input.command, input.cwd, input.prompt, input.newAgentSessionId),
  resumeSession: (input) =>
    input.command === undefined || input.command.trim() === ''
      ? fail('usage', 'the custom profile needs a command (mori init --command "…")')
      : launch(input.command, input.cwd, input.prompt, input.agentSessionId),
  transcriptExists: (ref) => Promise.resolve(ref.agentSessionId !== null),
  discoverSessionId: () => Promise.resolve(null),
  nudge: () => null,
  patterns: { needsInput: [], error: [], working: [], waiting: [] },
  typing: PLAIN_TYPING,
  apiHosts: () => [],
  // It runs commands Mori knows nothing about, so it adds no probe hosts.
  probeHosts: [],
  install: 'check the command in session.json (`mori init --command`)',
  takesCommand: true,
};
