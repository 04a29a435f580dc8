// Earlier terminal output (DESIGN.md §6): the session's transcript, read backwards a page at a time
// as the person scrolls up, shown as plain text above the live terminal (escape sequences removed).
// Runs in the renderer.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { MoriApi } from '../../common/mori-api.js';
import { plainText } from './plain-text.js';

/** How close to the top (px) a scroll loads the page before. */
const LOAD_MARGIN_PX = 40;

export function TerminalHistory(props: { api: MoriApi; sessionId: string }) {
  const [text, setText] = useState('');
  const [status, setStatus] = useState('Loading…');
  const read = useRef(0);
  const more = useRef(true);
  const loading = useRef(false);
  const box = useRef<HTMLPreElement>(null);

  const loadOlder = async (first: boolean): Promise<void> => {
    if (loading.current || !more.current) return;
    loading.current = true;
    const r = await props.api.call('transcript.read', { session: props.sessionId, beforeEnd: read.current });
    loading.current = false;
    if (!r.ok) return setStatus(`Cannot read the transcript: ${r.message}`);
    const reachesStart = read.current + r.value.bytes >= r.value.totalBytes;
    // A page that does not reach the start may begin mid-line (or mid-character): it is shown from its
    // first newline, and the part before comes whole with the next page.
    const cut = reachesStart ? 0 : r.value.data.indexOf('\n') + 1;
    const data = r.value.data.slice(cut);
    read.current += r.value.bytes - new TextEncoder().encode(r.value.data.slice(0, cut)).length;
    more.current = !reachesStart;
    const el = box.current;
    const fromBottom = el ? el.scrollHeight - el.scrollTop : 0;
    setText((old) => plainText(data) + old);
    setStatus(more.current ? '' : r.value.totalBytes === 0 ? 'No output recorded yet.' : 'The start of the transcript.');
    requestAnimationFrame(() => {
      if (!el) return;
      // Keeps what the person was reading in place; the first page opens at its end.
      el.scrollTop = first ? el.scrollHeight : el.scrollHeight - fromBottom;
    });
  };

  useEffect(() => {
    read.current = 0;
    more.current = true;
    setText('');
    void loadOlder(true);
  }, [props.sessionId]);

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
