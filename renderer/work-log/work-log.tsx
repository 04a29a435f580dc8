// The work log (DESIGN.md §3): entries newest first, earlier pages (the archive included) on
// request, live as the log grows, and a box for a new entry. Runs in the renderer.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { DaemonEvent, LogEntry } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { Shown, ShownLines } from '../ui/shown-text.js';

/** Entries per page: a few screens; older ones page in on request. */
const PAGE = 50;

export function WorkLog(props: { api: MoriApi; sessionId: string; onEvent: (l: (e: DaemonEvent) => void) => () => void }) {
  const [entries, setEntries] = useState<LogEntry[]>([]);
  const [more, setMore] = useState(false);
  const [draft, setDraft] = useState('');
  const [status, setStatus] = useState('');
  /** True once older pages were read: from then on only they say whether there are more. */
  const pagedBack = useRef(false);

  const loadNewest = async (): Promise<void> => {
    const r = await props.api.call('log.tail', { session: props.sessionId, limit: PAGE });
    if (!r.ok) return setStatus(`Cannot read the work log: ${r.message}`);
    setEntries((old) => {
      // Keeps older pages already shown; the newest page replaces what overlaps it.
      const first = r.value.entries[0]?.index ?? Infinity;
      return [...old.filter((e) => e.index < first), ...r.value.entries];
    });
    setMore((m) => (pagedBack.current ? m : r.value.more));
  };

  useEffect(() => {
    setEntries([]);
    pagedBack.current = false;
    void loadNewest();
    return props.onEvent((e) => {
      if (e.type === 'log.appended' && e.sessionId === props.sessionId) void loadNewest();
    });
  }, [props.sessionId]);

  const older = async (): Promise<void> => {
    const before = entries[0]?.index;
    if (before === undefined) return;
    const r = await props.api.call('log.tail', { session: props.sessionId, before, limit: PAGE });
    if (!r.ok) return setStatus(r.message);
    pagedBack.current = true;
    setEntries((old) => [...r.value.entries, ...old.filter((e) => e.index >= before)]);
    setMore(r.value.more);
  };

  const add = async (): Promise<void> => {
    const text = draft.trim();
    if (!text) return;
    const r = await props.api.call('log.append', { session: props.sessionId, text });
    if (!r.ok) return setStatus(`Not added: ${r.message}`);
    setDraft('');
    setStatus('');
    await loadNewest();
  };

  return (
    <div class="log-pane">
      <form
        class="log-new"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <label for="log-entry">New entry</label>
        <textarea id="log-entry" rows={3} value={draft} onInput={(e) => setDraft((e.target as HTMLTextAreaElement).value)} placeholder="What happened, what was decided" />
        <button type="submit" disabled={!draft.trim()}>
          Add entry
        </button>
        <span class="muted" role="status">
          {status}
        </span>
      </form>
      <ol class="log-entries" aria-label="Work log entries" reversed>
        {[...entries].reverse().map((e) => (
          <li key={e.index} class={e.archived ? 'archived' : ''}>
            <h2>
              <Shown text={e.heading} />
              {e.archived ? <span class="tag">archive</span> : null}
            </h2>
            <pre>
              <ShownLines text={e.lines.join('\n').trim()} />
            </pre>
          </li>
        ))}
      </ol>
      {more ? (
        <button type="button" class="log-older" onClick={() => void older()}>
          Older entries
        </button>
      ) : null}
    </div>
  );
}
