// opencode 1.18.33's hooks as a plugin Mori owns (DESIGN.md §4 "Hooks"). opencode has no hook
// commands; its extension point is plugins (JS modules whose `event` handler gets every bus event).
// Its config is merged from several layers, and `OPENCODE_CONFIG_CONTENT` (inline JSON) is one more,
// merged last, whose `plugin` list is added to the other layers' (opencode concatenates plugin specs,
// deduplicated, across layers). So Mori writes a plugin file in its own home and names it there as a
// `file://` spec: nothing is written into the person's ~/.config/opencode, the project's .opencode/
// or opencode.json, and their own plugins and settings stay in force. When the person's environment
// already holds OPENCODE_CONFIG_CONTENT, Mori's spec is added to its `plugin` list and everything
// else in it is kept; content that is not a JSON object (or whose `plugin` is not a list) is left as
// it is and no layer is given (the screen reads the activity then), as when the person runs opencode
// without external plugins (OPENCODE_PURE).
// The plugin writes each call into the launch's spool dir in the report script's own form (a temp
// file renamed to `<name>.<Event>`), in-process: a child process per call would cost more than the
// write. It reports only a few events, each only when it changes what was last said:
//   - Busy: a session's status is busy or retry (a turn runs, or waits to retry its request);
//   - Idle: a session is idle again, unless it is a subagent's (a child session, its parent named
//     when it is created): the parent's turn goes on;
//   - PermissionAsked / QuestionAsked: a permission or a question waits for the person;
//   - Answered: the person replied to one (the turn goes on, or ends with Idle).
// Event names and payloads checked against the 1.18.33 binary (test/integration/agents/hooks/real-opencode.test.ts);
// each spooled event becomes an activity (opencodeReport). Pure.
import { pathToFileURL } from 'node:url';
import type { AgentHooks } from '../profile.js';
import { NONE, type HookReport } from '../hooks/hook-events.js';
import type { HookLayer } from '../hooks/hook-layers.js';
import { SPOOL_TEMP_PREFIX } from '../hooks/report-script.js';

/** The variable opencode reads inline config from, merged over every other layer. */
export const OPENCODE_CONFIG_VAR = 'OPENCODE_CONFIG_CONTENT';

/** The variable that makes opencode load no plugin but its own (what its `--pure` sets). */
export const OPENCODE_PURE_VAR = 'OPENCODE_PURE';
/** What opencode reads as true there (its config library's boolean words). */
const TRUE_WORDS = /^(true|yes|on|1|y)$/i;

/** The events Mori's plugin writes, as the spool files' event names. */
export const OPENCODE_HOOK_EVENTS = ['Busy', 'Idle', 'PermissionAsked', 'QuestionAsked', 'Answered'] as const;

/** The plugin module's text, its spool dir fixed in it. */
export function opencodePluginText(spoolDir: string): string {
  return `// Mori's activity report for opencode: spools a few session events for the Mori daemon.
// Written by Mori for one launch; removed when that launch ends.
import { renameSync, writeFileSync } from 'node:fs';

const dir = ${JSON.stringify(spoolDir)};
const children = new Set();
let last = '';
let n = 0;

function report(name, sessionID) {
  if (name === last) return;
  last = name;
  // The pid and a counter name the call, zero-padded so names sort in the order they were written.
  const id = process.pid + 'n' + String(++n).padStart(9, '0');
  const tmp = dir + '/${SPOOL_TEMP_PREFIX}' + id;
  try {
    writeFileSync(tmp, JSON.stringify(typeof sessionID === 'string' ? { session_id: sessionID } : {}), { mode: 0o600 });
    renameSync(tmp, dir + '/' + id + '.' + name);
  } catch {
    // Mori's dir gone or unwritable: the report is dropped, opencode goes on.
  }
}

export const MoriActivity = async () => ({
  event: async ({ event }) => {
    const p = (event && event.properties) || {};
    switch (event && event.type) {
      case 'session.created':
      case 'session.updated':
        // A subagent's session names its parent: its idle is not the end of the person's turn.
        if (p.info && p.info.parentID) children.add(p.info.id);
        return;
      case 'session.status': {
        const type = p.status && p.status.type;
        if (type === 'busy' || type === 'retry') report('Busy', p.sessionID);
        else if (type === 'idle' && !children.has(p.sessionID)) report('Idle', p.sessionID);
        return;
      }
      case 'session.idle':
        if (!children.has(p.sessionID)) report('Idle', p.sessionID);
        return;
      case 'permission.asked':
        report('PermissionAsked', p.sessionID);
        return;
      case 'question.asked':
        report('QuestionAsked', p.sessionID);
        return;
      case 'permission.replied':
      case 'question.replied':
      case 'question.rejected':
        report('Answered', p.sessionID);
        return;
    }
  },
});
`;
}

/** The OPENCODE_CONFIG_CONTENT that adds the plugin at `pluginFile` to the person's own in `env`, if any; or why it cannot. */
export function opencodeConfigContent(pluginFile: string, env: Readonly<Record<string, string | undefined>>): { value: string } | { off: string } {
  if (TRUE_WORDS.test(env[OPENCODE_PURE_VAR] ?? '')) return { off: `${OPENCODE_PURE_VAR} is set, so opencode loads no plugin but its own` };
  const theirs = env[OPENCODE_CONFIG_VAR];
  const spec = pathToFileURL(pluginFile).href;
  if (theirs === undefined || theirs.trim() === '') return { value: JSON.stringify({ plugin: [spec] }) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(theirs);
  } catch {
    parsed = null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { off: `the environment's ${OPENCODE_CONFIG_VAR} is not a JSON object, so Mori's plugin cannot be added to it (it is left as it is)` };
  }
  const config = parsed as Record<string, unknown>;
  const plugins = config['plugin'] ?? [];
  if (!Array.isArray(plugins)) return { off: `the environment's ${OPENCODE_CONFIG_VAR} has a "plugin" that is not a list (it is left as it is)` };
  return { value: JSON.stringify({ ...config, plugin: [...(plugins as unknown[]), spec] }) };
}

/** opencode 1.18.33's events, as Mori's own plugin names them (the plugin above). */
function opencodeReport(event: string): HookReport {
  switch (event) {
    case 'Busy':
    case 'Answered':
      return { activity: 'working' };
    case 'PermissionAsked':
    case 'QuestionAsked':
      return { activity: 'needs-input' };
    case 'Idle':
      return { activity: 'waiting' };
    default:
      return NONE;
  }
}

export const opencodeHooks: AgentHooks = {
  layer(args, place, env): HookLayer {
    const content = opencodeConfigContent(place.pluginFile, env);
    if ('off' in content) return { args: [...args], env: {}, files: [], off: content.off };
    return { args: [...args], env: { [OPENCODE_CONFIG_VAR]: content.value }, files: [{ path: place.pluginFile, text: opencodePluginText(place.spoolDir) }] };
  },
  report: opencodeReport,
};
