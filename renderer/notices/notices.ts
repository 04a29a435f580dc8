// What the window tells the person happened (DESIGN.md §13): a daemon event becomes a notice when it
// is one the person should know about — verification failed, needs input, crash loop, resumed after
// sleep or an outage, a usage limit (once per limit), a conversation past the context share set. Pure: the in-page list and the browser's notifications both
// show what this returns. Runs in the renderer (and in unit tests).
import type { NotifyEvent } from '../../common/daemon-settings.js';
import type { EventOf } from '../../common/events.js';
import type { DaemonEvent } from '../../common/ipc.js';
import { attentionKind, becameNeedsInput, clockWords } from '../../common/session-view.js';
import { contextOverWords } from '../../common/usage-figures.js';

export interface Notice {
  id: number;
  at: number;
  /** `timeout`: a request of the window's was not answered in time (the page's own news, never a notification). */
  kind: NotifyEvent | 'attention' | 'timeout';
  sessionId: string | null;
  name: string | null;
  title: string;
  body: string;
}

let nextId = 1;

const LAUNCH_WORDS: Record<EventOf<'session.resumed'>['launch'], string> = {
  resume: 'The agent picked up its conversation.',
  fresh: 'Started afresh: its conversation could not be resumed.',
  new: 'Started again from its task.',
  reattach: 'Re-attached to the agent, which kept running.',
};

const sleptWords = (ms: number): string => (ms < 60_000 ? 'Asleep briefly' : ms < 2 * 3_600_000 ? `Asleep for ${Math.round(ms / 60_000)} min` : `Asleep for ${Math.round(ms / 3_600_000)} h`);

/** The notice of a request the daemon did not answer in time (protocol-client.ts's `timeout`). */
export function timeoutNotice(message: string, at: number): Notice {
  return { id: nextId++, at, kind: 'timeout', sessionId: null, name: null, title: 'No answer from the Mori daemon', body: message };
}

/** The notice an event makes, or null for the events that are only bookkeeping. */
export function noticeFor(e: DaemonEvent): Notice | null {
  const make = (kind: Notice['kind'], sessionId: string | null, name: string | null, title: string, body: string): Notice => ({
    id: nextId++,
    at: e.at,
    kind,
    sessionId,
    name,
    title,
    body,
  });
  switch (e.type) {
    case 'verify.finished':
      return e.ok ? null : make('verify-failed', e.sessionId, e.name, `${e.name}: verification failed`, e.summary);
    case 'session.activity':
      return becameNeedsInput(e.from, e.to) ? make('needs-input', e.sessionId, e.name, `${e.name} needs input`, 'The agent is waiting for an answer only you can give.') : null;
    case 'session.attention':
      switch (attentionKind(e.reason)) {
        case 'crash-loop':
          return make('crash-loop', e.sessionId, e.name, `${e.name}: crash loop`, e.message);
        case 'usage-limit':
          return make('usage-limit', e.sessionId, e.name, `${e.name}: usage limit`, e.message);
        default:
          return make('attention', e.sessionId, e.name, `${e.name} needs attention`, e.message);
      }
    case 'session.limited': {
      // A refined reset time, or a limit pending when Mori started, is a limit told already.
      if (e.news !== 'new') return null;
      const when = `${e.plan.resetAt !== null ? 'resumes' : 'retrying'} at ${clockWords(e.plan.resumeAt)}`;
      return make('usage-limit', e.sessionId, e.name, `${e.name}: usage limit, ${when}`, e.plan.text);
    }
    case 'session.handedOff':
      return make('handed-off', e.sessionId, e.name, `${e.name} continues with ${e.to}`, `Handed over from ${e.from}: ${e.reason}.`);
    case 'session.contextOver': {
      const w = contextOverWords(e.name, e.share, e.warn, e.model);
      return make('context-over', e.sessionId, e.name, w.title, w.body);
    }
    case 'session.resumed':
      return make('resumed', e.sessionId, e.name, `${e.name} resumed`, LAUNCH_WORDS[e.launch]);
    case 'power.resume':
      return make('resumed', null, null, 'The machine woke up', `${sleptWords(e.sleptMs)}; interrupted sessions resume.`);
    default:
      return null;
  }
}
