// The work log (DESIGN.md §3): entries newest first, earlier pages (the archive included) on
// request, live as the log grows, and a box for a new entry; Mori's own one-line entries as a quiet
// row with their kind as a label (mori-entry.ts), the others as written; its state and reads are
// work-log-store.ts's. Runs in the renderer.
import type { DaemonEvent } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { usePane } from '../ui/pane-store.js';
import { Shown, ShownLines } from '../ui/shown-text.js';
import { WorkLogStore } from './work-log-store.js';
import { moriEntry } from './mori-entry.js';

export function WorkLog(props: { api: MoriApi; sessionId: string; onEvent: (l: (e: DaemonEvent) => void) => () => void }) {
  const [store, { entries, more, draft, status }] = usePane(() => new WorkLogStore(props.api, props.sessionId, props.onEvent));
  return (
    <div class="log-pane">
      <form
        class="log-new"
        onSubmit={(e) => {
          e.preventDefault();
          void store.add();
        }}
      >
        <label for="log-entry">New entry</label>
        <textarea id="log-entry" rows={3} value={draft} onInput={(e) => store.setDraft((e.target as HTMLTextAreaElement).value)} placeholder="What happened, what was decided" />
        <button type="submit" disabled={!draft.trim()}>
          Add entry
        </button>
        <span class="muted" role="status">
          {status}
        </span>
      </form>
      <ol class="log-entries" aria-label="Work log entries" reversed>
        {[...entries].reverse().map((e) => {
          const mori = moriEntry(e.lines);
          return (
            <li key={e.index} class={`${e.archived ? 'archived' : ''}${mori ? ' log-mori' : ''}`}>
              <h2>
                <Shown text={e.heading} />
                {e.archived ? <span class="tag">archive</span> : null}
              </h2>
              {mori ? (
                <p class="log-line">
                  <span class={`log-kind log-kind-${mori.tone}`}>{mori.kind}</span>
                  <span class="visually-hidden">: </span>
                  <Shown text={mori.words} />
                </p>
              ) : (
                <div class="log-body">
                  <ShownLines text={e.lines.join('\n').trim()} />
                </div>
              )}
            </li>
          );
        })}
      </ol>
      {more ? (
        <button type="button" class="log-older" onClick={() => void store.older()}>
          Older entries
        </button>
      ) : null}
    </div>
  );
}
