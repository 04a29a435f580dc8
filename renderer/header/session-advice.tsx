// The session header's advice (DESIGN.md §13): what needs the person, in the sentence
// common/session-view.ts words it, with the actions that fix it — Resume now / Don't resume at a
// usage limit, the agent's question with a reply box and its menu's choices as buttons, the last
// output and Restart after a crash loop, the install command with Copy, Review and trust…, the
// state file to open, a restart's countdown. Its actions are advice-store.ts's. Runs in the renderer.
import { useEffect, useState } from 'preact/hooks';
import type { EditableStateFile, LiveSession } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { HEADER_ACTION_WORDS, headerAdvice, menuChoices, type HeaderAction } from '../../common/session-view.js';
import type { TerminalPool } from '../terminal/terminal-pool.js';
import { usePane } from '../ui/pane-store.js';
import { Shown, ShownLines, shown } from '../ui/shown-text.js';
import { AdviceStore } from './advice-store.js';
import { advicePrimary } from './primary-action.js';
import { ENVIRONMENT, SESSION_STATE } from '../../common/state-files.js';

/** Lines of the screen shown with a question or a crash: a prompt and its menu fit, a screenful does not. */
const SCREEN_LINES = 8;
/** How often the screen's lines and a countdown are read again while shown: a second is what a countdown shows. */
const REFRESH_MS = 1_000;

export function SessionAdvice(props: {
  api: MoriApi;
  pool: TerminalPool;
  info: LiveSession;
  /** The last attention message the window saw for it. */
  message: string | null;
  onOpen: (view: EditableStateFile) => void;
  /** Review and trust…: the Checks tab with its Trust dialog open. */
  onReviewTrust: () => void;
  onStatus: (words: string) => void;
}) {
  const { info } = props;
  const [now, setNow] = useState(Date.now());
  const [store, { reply }] = usePane(() => new AdviceStore(props.api, (words) => props.onStatus(words)));
  const advice = headerAdvice(info, props.message, now);
  const ticking = advice !== null && (advice.screen !== null || info.state === 'backoff');
  useEffect(() => {
    if (!ticking) return;
    const t = setInterval(() => setNow(Date.now()), REFRESH_MS);
    return () => clearInterval(t);
  }, [ticking]);
  if (!advice) return null;

  const run = (a: HeaderAction): void => {
    if (a === 'resume-now') void store.call(info.id, 'limit.resume-now', 'Resume now');
    else if (a === 'dont-resume') void store.call(info.id, 'limit.dont-resume', "Don't resume");
    else if (a === 'restart') void store.call(info.id, 'start', 'Restart');
    else if (a === 'review-trust') props.onReviewTrust();
    else if (a === 'open-state-file') props.onOpen(/environment\.md/.test(props.message ?? '') ? ENVIRONMENT : SESSION_STATE);
    else if (a === 'copy-install' && advice.detail) store.copy(advice.detail);
  };

  const screen = advice.screen ? props.pool.lastLines(info.id, SCREEN_LINES) : [];
  const choices = advice.screen === 'prompt' ? menuChoices(screen) : [];
  const primary = advicePrimary(advice.actions);
  return (
    <section class={`advice advice-${advice.tone}`} role="region" aria-label="What needs you">
      <p class="advice-sentence">{advice.sentence}</p>
      {screen.length > 0 ? (
        <pre class="advice-screen" aria-label={advice.screen === 'prompt' ? "The agent's question" : 'Last output'}>
          <ShownLines text={screen.join('\n')} />
        </pre>
      ) : null}
      {advice.detail ? (
        <code class="advice-detail">
          <Shown text={advice.detail} />
        </code>
      ) : null}
      <div class="advice-actions">
        {choices.map((c) => (
          <button type="button" key={c.key} onClick={() => void store.send(info.id, c.key)}>
            {shown(c.key)}. {shown(c.label)}
          </button>
        ))}
        {advice.actions.includes('reply') ? (
          <form
            class="advice-reply"
            onSubmit={(e) => {
              e.preventDefault();
              if (reply.trim()) void store.send(info.id, reply);
            }}
          >
            <input type="text" aria-label="Reply to the agent" placeholder="Reply" value={reply} onInput={(e) => store.setReply((e.target as HTMLInputElement).value)} />
            <button type="submit" class={primary === 'reply' ? 'primary' : ''}>
              {HEADER_ACTION_WORDS.reply}
            </button>
          </form>
        ) : null}
        {advice.actions
          .filter((a) => a !== 'reply')
          .map((a) => (
            <button type="button" key={a} class={a === primary ? 'primary' : ''} onClick={() => run(a)}>
              {HEADER_ACTION_WORDS[a]}
            </button>
          ))}
      </div>
    </section>
  );
}
