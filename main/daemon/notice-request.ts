// A notice off the machine as the HTTP request its target takes (DESIGN.md §13 "Notices off the
// machine"): ntfy's publish format (the body POSTed to the topic URL; title, priority and tags as
// headers) or a JSON webhook. Agent-written words (a session's name, a check's summary, an attention
// message) are escaped (visible-text.ts) and cut short; nothing of a terminal, no setting, no secret
// is in it. Pure: runs in the daemon.
import type { NotifyTarget } from '../../common/daemon-settings.js';
import type { Notice } from '../../common/notification-decider.js';
import { visibleLines, visibleText } from '../../common/visible-text.js';

// A phone shows a title on one line and a body in a few: longer is cut, never sent whole.
const TITLE_MAX = 200;
const BODY_MAX = 1000;

export interface NoticeRequest {
  headers: Record<string, string>;
  body: string;
}

/** What is sent: the notice's kind, its words, the sessions it is about and when. */
export interface SentNotice {
  kind: string;
  title: string;
  body: string;
  sessions: readonly string[];
  at: number;
}

export const sentNotice = (n: Notice, at: number): SentNotice => ({ kind: n.kind, title: n.title, body: n.body, sessions: n.sessions, at });

const cut = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** ntfy's priorities (1 min … 5 max): 4 for what stops the work until the person acts, 3 otherwise. */
const PRIORITY: Record<string, string> = { 'needs-input': '4', 'crash-loop': '4', 'verify-failed': '4', attention: '4' };
/** ntfy shows a tag named for an emoji as that emoji before the title. */
const TAGS: Record<string, string> = {
  'needs-input': 'question',
  'crash-loop': 'rotating_light',
  'verify-failed': 'x',
  attention: 'warning',
  'usage-limit': 'hourglass',
  finished: 'white_check_mark',
  'handed-off': 'arrows_counterclockwise',
  resumed: 'arrow_forward',
  test: 'test_tube',
};

/**
 * A header value as HTTP carries it: printable ASCII as it is, anything else as an RFC 2047
 * encoded-word, which ntfy decodes (fetch refuses a header with characters past Latin-1).
 */
export function headerValue(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

export function noticeRequest(target: Pick<NotifyTarget, 'kind'>, n: SentNotice, host: string): NoticeRequest {
  const title = cut(visibleText(n.title), TITLE_MAX);
  const body = cut(visibleLines(n.body), BODY_MAX);
  if (target.kind === 'ntfy') {
    return {
      headers: { 'Content-Type': 'text/plain; charset=utf-8', Title: headerValue(title), Priority: PRIORITY[n.kind] ?? '3', Tags: `${TAGS[n.kind] ?? 'bell'},mori` },
      // ntfy sends a notice with no body as "triggered": the title says it again instead.
      body: body !== '' ? body : title,
    };
  }
  return {
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ source: 'mori', host: visibleText(host), kind: n.kind, title, body, sessions: n.sessions, at: new Date(n.at).toISOString() }),
  };
}
