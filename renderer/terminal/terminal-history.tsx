// Earlier terminal output (DESIGN.md §6): the session's transcript, read backwards a page at a time
// as the person scrolls up, shown as plain text above the live terminal (escape sequences removed);
// its reads are terminal-history-store.ts's, the scroll position this view's. Runs in the renderer.
import { useEffect, useRef } from 'preact/hooks';
import type { MoriApi } from '../../common/mori-api.js';
import { usePane } from '../ui/pane-store.js';
import { TerminalHistoryStore } from './terminal-history-store.js';

/** How close to the top (px) a scroll loads the page before. */
const LOAD_MARGIN_PX = 40;

export function TerminalHistory(props: { api: MoriApi; sessionId: string }) {
  const [store, { text, status }] = usePane(() => new TerminalHistoryStore(props.api, props.sessionId));
  const box = useRef<HTMLPreElement>(null);

  const loadOlder = async (first: boolean): Promise<void> => {
    const el = box.current;
    let fromBottom = 0;
    const shown = await store.older(() => {
      fromBottom = el ? el.scrollHeight - el.scrollTop : 0;
    });
    if (!shown) return;
    requestAnimationFrame(() => {
      if (!el) return;
      // Keeps what the person was reading in place; the first page opens at its end.
      el.scrollTop = first ? el.scrollHeight : el.scrollHeight - fromBottom;
    });
  };

  useEffect(() => void loadOlder(true), []);

  return (
    <section class="terminal-history" aria-label="Earlier output">
      <pre
        ref={box}
        tabIndex={0}
        onScroll={(e) => {
          if ((e.target as HTMLElement).scrollTop < LOAD_MARGIN_PX) void loadOlder(false);
        }}
      >
        {status ? <span class="muted">{status}{'\n'}</span> : null}
        {text}
      </pre>
    </section>
  );
}
