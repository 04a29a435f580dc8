// Targets off the machine (DESIGN.md §13 "Notices off the machine"), in words: a target's URL shown
// masked (its userinfo, query and path may carry a token: ntfy's topic is one), and the `--on` list
// read. Pure TypeScript: the daemon, the CLI and the window's settings use it.
import { TARGET_EVENTS, type TargetEvent } from './notify-events.js';
import { fail, ok, type Result } from './result.js';

/** Characters of a path's last segment shown before the ellipsis: enough to tell two topics apart, too few to guess one. */
const SHOWN_PATH_CHARS = 3;

/** True for an absolute http: or https: URL. */
export function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * The URL as it may be shown or logged: scheme, host and port, the path's last segment cut to its
 * first few characters, no userinfo, no query, no fragment. `https://u:p@ntfy.sh/mori-x8f3k?auth=…`
 * is `https://ntfy.sh/mor…?…`.
 */
export function maskedUrl(text: string): string {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return '(not a URL)';
  }
  const segments = u.pathname.split('/').filter(Boolean);
  const last = segments.at(-1) ?? '';
  const path = segments.length === 0 ? '/' : `/${segments.length > 1 ? '…/' : ''}${last.slice(0, SHOWN_PATH_CHARS)}…`;
  return `${u.protocol}//${u.host}${path}${u.search !== '' ? '?…' : ''}`;
}

/** `needs-input,finished` (or `all`) as events; a word that names none is an error naming it. */
export function parseTargetEvents(text: string): Result<TargetEvent[]> {
  const words = text.split(',').map((w) => w.trim()).filter(Boolean);
  if (words.length === 1 && words[0] === 'all') return ok([...TARGET_EVENTS]);
  const known = new Set<string>(TARGET_EVENTS);
  const unknown = words.filter((w) => !known.has(w));
  if (words.length === 0 || unknown.length > 0) return fail('usage', `--on: ${unknown.length > 0 ? `"${unknown.join(', ')}" is not an event` : 'no events named'}; expected all or some of ${TARGET_EVENTS.join(', ')}`);
  return ok([...new Set(words)] as TargetEvent[]);
}
