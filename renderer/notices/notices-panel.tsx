// The notices of what happened (DESIGN.md §13), newest first, in a live region so each is read out
// as it arrives; a notice's title opens its session on its terminal. Offers the browser's notifications where the
// page may ask for them. Runs in the renderer.
import type { Notice } from './notices.js';
import { Shown, ShownLines } from '../ui/shown-text.js';
import type { BrowserPermission } from '../shell/window-store.js';

export function NoticesPanel(props: { notices: Notice[]; permission: BrowserPermission; onSelect: (id: string) => void; onAskBrowser: () => void }) {
  const { notices } = props;
  return (
    <section class="notices" aria-label="Notifications">
      <h2>Notifications</h2>
      {notices.length === 0 ? <p class="muted">Nothing yet.</p> : null}
      {/* A live region: each new notice is read out as it arrives. */}
      <ul aria-live="polite" aria-relevant="additions">
        {notices.map((n) => (
          <li key={n.id} class={`notice notice-${n.kind}`}>
            <button type="button" class="link" onClick={() => n.sessionId && props.onSelect(n.sessionId)}>
              <Shown text={n.title} />
            </button>
            <span class="muted">{new Date(n.at).toLocaleTimeString()}</span>
            <div>
              <ShownLines text={n.body} />
            </div>
          </li>
        ))}
      </ul>
      {props.permission === 'default' ? (
        <button type="button" onClick={props.onAskBrowser}>
          Allow browser notifications
        </button>
      ) : null}
    </section>
  );
}
