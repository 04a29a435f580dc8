// Codex CLI 0.171.0's hooks as command-line overrides (DESIGN.md §4 "Hooks"). Codex reads hooks
// from every config layer, the `--config` overrides too (their layer is named
// `/<session-flags>/config.toml`), and runs a hook that is not managed by an administrator only
// once its exact definition is trusted: `hooks.state."<key>".trusted_hash` equal to the hash of the
// hook, read from the person's config.toml and from the overrides. So Mori hands Codex its hooks and
// the trust for exactly those hooks, both as `--config` overrides: nothing is written into the
// person's ~/.codex or the project, their own hooks and trust records stay as they are (each layer's
// hooks run beside the others'), and a hook of theirs Codex has not been told to trust stays
// untrusted. The hash is Codex's own: sha256 of the hook's normalized identity as canonical JSON
// (`event_name`, the matcher group with its one handler, keys sorted, absent fields left out),
// checked against the 0.171.0 binary's `hooks/list` (test/unit/agents/hooks/spool.test.ts) and by
// test/integration/agents/hooks/real-codex.test.ts, where a hook runs only when its trust is right. Its
// events (and its `notify` program's) become activities and its SessionStart's id. Pure.
import { createHash } from 'node:crypto';
import type { AgentHooks } from '../profile.js';
import { fields, NONE, sessionStart, type HookReport } from '../hooks/hook-events.js';
import { reportCommand } from '../hooks/report-script.js';
import { UUID_ID_FORM } from '../launch-helpers.js';

/** Codex's events Mori registers, with the label Codex keys its hook state by (0.171.0). */
export const CODEX_HOOK_EVENTS = {
  SessionStart: 'session_start',
  UserPromptSubmit: 'user_prompt_submit',
  PreToolUse: 'pre_tool_use',
  PermissionRequest: 'permission_request',
  PostToolUse: 'post_tool_use',
  PreCompact: 'pre_compact',
  Stop: 'stop',
  Interrupt: 'interrupt',
} as const;

/** Where Codex says the `--config` overrides come from: the first part of each of their hooks' keys. */
export const CODEX_OVERRIDES_SOURCE = '/<session-flags>/config.toml';

/**
 * Each hook's time limit. Codex clamps an Interrupt hook's to 3 s and hashes the clamped value, so
 * one limit within that clamp keeps every hash what Codex computes; the script takes milliseconds.
 */
export const CODEX_HOOK_TIMEOUT_S = 3;

/** One handler as Codex normalizes it for its hash (its default `async = false` included). */
interface CodexHandler {
  type: 'command';
  command: string;
  timeout: number;
  async: false;
}

/** JSON with every object's keys sorted, no spaces: serde_json's form of Codex's canonical value. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The hash Codex trusts a hook by: its event's label and its matcher group (no matcher) holding this one handler. */
export function codexHookHash(label: string, handler: CodexHandler): string {
  const identity = { event_name: label, hooks: [handler] };
  return `sha256:${createHash('sha256').update(canonicalJson(identity)).digest('hex')}`;
}

/** A TOML basic string: JSON's string escapes are TOML's. */
const tomlString = (s: string): string => JSON.stringify(s);

/**
 * The `--config` overrides that register Mori's report for each event and trust exactly those hooks:
 * one `hooks.<Event>=[…]` per event, then `hooks.state={…}` (an inline table: a dotted `--config`
 * path cannot name a key holding dots, as these keys do).
 */
export function codexHookOverrides(script: string, spoolDir: string): string[] {
  const timeoutS = CODEX_HOOK_TIMEOUT_S;
  const overrides: string[] = [];
  const trust: string[] = [];
  for (const [event, label] of Object.entries(CODEX_HOOK_EVENTS)) {
    const handler: CodexHandler = { type: 'command', command: reportCommand(script, spoolDir, event), timeout: timeoutS, async: false };
    overrides.push(`hooks.${event}=[{hooks=[{type="command",command=${tomlString(handler.command)},timeout=${timeoutS}}]}]`);
    // Codex's key: `<source>:<label>:<group index>:<handler index>`, each event here one group of one handler.
    trust.push(`${tomlString(`${CODEX_OVERRIDES_SOURCE}:${label}:0:0`)}={trusted_hash=${tomlString(codexHookHash(label, handler))}}`);
  }
  overrides.push(`hooks.state={${trust.join(',')}}`);
  return overrides;
}

/** Codex CLI 0.171.0's hook events (and its `notify` program, which agents launched before its hooks call). */
function codexReport(event: string, payload: unknown): HookReport {
  const p = fields(payload);
  switch (event) {
    case 'UserPromptSubmit':
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PreCompact':
      return { activity: 'working' };
    case 'PermissionRequest':
      return { activity: 'needs-input' };
    case 'Stop':
    case 'Interrupt':
      return { activity: 'waiting' };
    case 'SessionStart': {
      // Codex runs it as a thread's first turn starts (UserPromptSubmit follows at once), not when
      // the composer opens: the id only, no activity of its own.
      const started = sessionStart(UUID_ID_FORM, p);
      return started.agentSession === undefined ? NONE : { activity: null, agentSession: started.agentSession };
    }
    case 'notify':
      return p.type === 'agent-turn-complete' ? { activity: 'waiting' } : NONE;
    default:
      return NONE;
  }
}

export const codexHooks: AgentHooks = {
  layer(args, place) {
    const config = codexHookOverrides(place.script, place.spoolDir).flatMap((o) => ['--config', o]);
    // After `resume` when it is the subcommand: an option before it would belong to the top level.
    const at = args[0] === 'resume' ? 1 : 0;
    return { args: [...args.slice(0, at), ...config, ...args.slice(at)], env: {}, files: [] };
  },
  report: codexReport,
};
