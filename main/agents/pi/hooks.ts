// Pi 0.73.1's hooks as an extension Mori owns (DESIGN.md §4 "Hooks"). Pi runs no hook commands; its
// extension point is TypeScript/JavaScript extensions (a default-exported factory given `pi.on(event,
// handler)`), found in its extensions dirs or named by `-e <path>` (which loads even when the person
// turned discovery off with --no-extensions). So Mori writes a module in its own home and names it
// with `-e`: nothing goes into the person's ~/.pi, the project's .pi/ or a settings file, and their own
// extensions load beside it. The module writes each call into the launch's spool dir in the report
// script's form (a temp file renamed to `<name>.<Event>`), in-process, and only when what it says changes:
//   - SessionStart (session_start: startup, resume, new, fork) with the session file's name as
//     `session_id` when the file is in Mori's session dir (sessions.ts), so a `/new` is followed;
//   - Busy (agent_start: a prompt's run begins, or a retry of a failed request);
//   - Idle (agent_end whose last answer did not fail); Failed (one that did: Pi may retry it by
//     itself, so the screen, which shows its countdown or its final error, says what follows);
//   - SessionEnd (session_shutdown).
// The same layer turns off its install telemetry and its update check (PI_TELEMETRY=0,
// PI_SKIP_VERSION_CHECK=1) unless the person's environment says otherwise.
// Pi asks no permission for its tools, so nothing here means needs-input. Event names and payloads
// checked against the 0.73.1 package (test/integration/agents/real-pi.test.ts). Pure.
import type { AgentHooks } from '../profile.js';
import { fields, NONE, sessionStart, type HookReport } from '../hooks/hook-events.js';
import type { HookLayer } from '../hooks/hook-layers.js';
import { SPOOL_TEMP_PREFIX } from '../hooks/report-script.js';
import { PI_ID_FORM, piSessionDir } from './sessions.js';

/** The events Mori's extension writes, as the spool files' event names. */
export const PI_HOOK_EVENTS = ['SessionStart', 'Busy', 'Idle', 'Failed', 'SessionEnd'] as const;

/** What Mori's layer turns off: the install/update ping to pi.dev, and the latest-version check at start. */
export const PI_QUIET_ENV = { PI_TELEMETRY: '0', PI_SKIP_VERSION_CHECK: '1' } as const;

/** The quiet variables the person's environment does not already set. */
const quietEnv = (env: Readonly<Record<string, string | undefined>>): Record<string, string> =>
  Object.fromEntries(Object.entries(PI_QUIET_ENV).filter(([k]) => env[k] === undefined || env[k] === ''));

/** The extension module's text, its spool dir and Mori's session dir fixed in it. */
export function piExtensionText(spoolDir: string, sessionDir: string): string {
  return `// Mori's activity report for Pi: spools a few agent events for the Mori daemon.
// Written by Mori for one launch; removed when that launch ends.
import { renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

const dir = ${JSON.stringify(spoolDir)};
const sessions = ${JSON.stringify(sessionDir)};
let last = '';
let n = 0;

function report(name, payload) {
  if (name === last && name !== 'SessionStart') return;
  last = name;
  // The pid and a counter name the call, zero-padded so names sort in the order they were written.
  const id = process.pid + 'n' + String(++n).padStart(9, '0');
  const tmp = dir + '/${SPOOL_TEMP_PREFIX}' + id;
  try {
    writeFileSync(tmp, JSON.stringify(payload), { mode: 0o600 });
    renameSync(tmp, dir + '/' + id + '.' + name);
  } catch {
    // Mori's dir gone or unwritable: the report is dropped, Pi goes on.
  }
}

export default function (pi) {
  pi.on('session_start', (event, ctx) => {
    let file = null;
    try { file = ctx.sessionManager.getSessionFile() ?? null; } catch { file = null; }
    const ours = typeof file === 'string' && file.endsWith('.jsonl') && dirname(resolve(file)) === sessions;
    report('SessionStart', ours ? { session_id: basename(file, '.jsonl'), source: String(event.reason) } : { source: String(event.reason) });
  });
  pi.on('agent_start', () => report('Busy', {}));
  pi.on('agent_end', (event) => {
    const messages = Array.isArray(event.messages) ? event.messages : [];
    const answer = messages.filter((m) => m && m.role === 'assistant').pop();
    report(answer && answer.stopReason === 'error' ? 'Failed' : 'Idle', {});
  });
  pi.on('session_shutdown', () => report('SessionEnd', {}));
}
`;
}

/** Pi 0.73.1's events, as Mori's own extension names them (the module above). */
function piReport(event: string, payload: unknown): HookReport {
  switch (event) {
    case 'Busy':
      return { activity: 'working' };
    case 'Idle':
      return { activity: 'waiting' };
    case 'SessionStart':
      return sessionStart(PI_ID_FORM, fields(payload));
    default:
      // Failed: the screen says whether Pi retries or gave up; SessionEnd: the exit is seen by the terminal.
      return NONE;
  }
}

export const piHooks: AgentHooks = {
  layer(args, place, env): HookLayer {
    return { args: [...args, '-e', place.pluginFile], env: quietEnv(env), files: [{ path: place.pluginFile, text: piExtensionText(place.spoolDir, piSessionDir(env)) }] };
  },
  report: piReport,
};
