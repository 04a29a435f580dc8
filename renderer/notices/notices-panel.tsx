// The notices of what happened (DESIGN.md §13), grouped per session and episode (notice-groups.ts),
// newest first, in a live region so each new one is read out; a group's title opens its session on
// its terminal, its Dismiss button drops it, "Clear all" drops them all. Offers the browser's
// notifications where the page may ask for them. Runs in the renderer.
import { useRef } from 'preact/hooks';
import type { NoticeGroup } from './notice-groups.js';
import { Shown, ShownLines } from '../ui/shown-text.js';
import type { BrowserPermission } from '../shell/window-store.js';
import { When } from '../ui/when.js';
import { permissionWords } from '../ui/notification-permission.js';

const OUTCOME_WORDS: Record<Exclude<NoticeGroup['outcome'], null>, string> = { ongoing: 'Ongoing', resumed: 'Resumed', 'gave-up': 'Gave up', stopped: 'Stopped' };

export function NoticesPanel(props: {
  notices: readonly NoticeGroup[];
  permission: BrowserPermission;
  onSelect: (id: string) => void;
  onDismiss: (key: string) => void;
  onClear: () => void;
  onAskBrowser: () => void;
}) {
  const { notices } = props;
  const section = useRef<HTMLElement>(null);
  // The keyboard stays in the list: a dismissed group's button gives the focus to the next group's (or the one before).
  const dismiss = (key: string, index: number): void => {
    props.onDismiss(key);
    requestAnimationFrame(() => {
      const left = section.current?.querySelectorAll<HTMLElement>('.notice-dismiss') ?? [];
      left[Math.min(index, left.length - 1)]?.focus();
    });
  };
  return (
    <section class="notices" aria-label="Notifications" ref={section}>
      <div class="notices-head">
        <h2>Notifications</h2>
        {notices.length > 0 ? (
          <button type="button" class="quiet" onClick={props.onClear}>
            Clear all
          </button>
        ) : null}
      </div>
      {notices.length === 0 ? <p class="muted">Nothing yet.</p> : null}
      {/* A live region: each new notice is read out as it arrives. */}
      <ul aria-live="polite" aria-relevant="additions">
        {notices.map((n, i) => (
          <li key={n.key} class={`notice notice-${n.kind}${n.outcome ? ` notice-${n.outcome}` : ''}`}>
            <div class="notice-line">
              <button type="button" class="link" onClick={() => n.sessionId && props.onSelect(n.sessionId)}>
                <Shown text={n.title} />
              </button>
              {n.outcome === null && n.count > 1 ? <span class="notice-count" aria-label={`${n.count} updates`}>×{n.count}</span> : null}
              <button type="button" class="quiet notice-dismiss" aria-label={`Dismiss: ${n.title}`} title="Dismiss" onClick={() => dismiss(n.key, i)}>
                ×
              </button>
            </div>
            <span class="muted">
              {n.outcome ? `${OUTCOME_WORDS[n.outcome]} · ` : ''}
              <When at={n.at} />
            </span>
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
      ) : props.permission === 'denied' ? (
        <p class="muted">{permissionWords(props.permission)}</p>
      ) : null}
    </section>
  );
}
