// Where GitHub Copilot CLI keeps a session (DESIGN.md §5): `$COPILOT_HOME/session-state/<session
// id>/events.jsonl` ($COPILOT_HOME defaults to ~/.copilot), one event a line (`session.start`,
// `user.message`, `assistant.message`, `session.usage_record`, `session.error`, …). The file is made
// at start; a session without a `user.message` line has no turn to resume. Read through
// main/os/agent-file.ts. Checked against Copilot CLI 1.0.102. Runs in the supervisor's process.
import path from 'node:path';
import { forEachAgentFileLine } from '../../os/agent-file.js';
import type { Env } from '../profile.js';
import { homeDir, UUID_PATTERN } from '../launch-helpers.js';
import { exists } from '../record-files.js';

/** `$COPILOT_HOME` (default `~/.copilot`): its config, settings and session state. */
export function copilotHome(env: Env): string {
  const home = env['COPILOT_HOME'];
  return home !== undefined && home !== '' ? path.resolve(home) : path.join(homeDir(env), '.copilot');
}

/**
 * Its cache dirs: where it unpacks its package on first run (~235 MB: `$COPILOT_PKG_CACHE_HOME`, else
 * `$COPILOT_CACHE_HOME`, else `$XDG_CACHE_HOME/copilot`, else `~/.cache/copilot`) and keeps its other caches.
 */
export function copilotCacheDirs(env: Env): string[] {
  const set = (v: string | undefined): v is string => v !== undefined && v !== '';
  const xdg = env['XDG_CACHE_HOME'];
  const cache = set(env['COPILOT_CACHE_HOME']) ? env['COPILOT_CACHE_HOME'] : path.join(set(xdg) ? xdg : path.join(homeDir(env), '.cache'), 'copilot');
  const pkg = env['COPILOT_PKG_CACHE_HOME'];
  return [path.resolve(cache), ...(set(pkg) ? [path.resolve(pkg)] : [])];
}

/** The events file of this session id (a UUID, so it names one dir and never climbs out). */
export function copilotEventsFile(env: Env, sessionId: string): string | null {
  if (!UUID_PATTERN.test(sessionId)) return null;
  return path.join(copilotHome(env), 'session-state', sessionId.toLowerCase(), 'events.jsonl');
}

/** The events file when it is on disk, else null. */
export async function copilotEventsPath(env: Env, sessionId: string): Promise<string | null> {
  const file = copilotEventsFile(env, sessionId);
  return file !== null && (await exists(file)) ? file : null;
}

/** A session's first prompt follows its start and settings events; it is looked for no further than this. */
const COPILOT_EVENTS_SCAN_BYTES = 64 * 1024 * 1024;
/** An event line names its type first: `{"type":"user.message",…`. */
const USER_MESSAGE = '{"type":"user.message"';

/** Whether the session's events hold a prompt, so `--resume=<id>` has a conversation to go on with. */
export async function copilotRecordExists(env: Env, sessionId: string): Promise<boolean> {
  const file = await copilotEventsPath(env, sessionId);
  if (file === null) return false;
  return (await forEachAgentFileLine(file, (line) => line.startsWith(USER_MESSAGE), COPILOT_EVENTS_SCAN_BYTES)) === true;
}
