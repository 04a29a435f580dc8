// The Changes tab (DESIGN.md §3, §4, §13): the files changed since the session began (or since a
// chosen checkpoint) with their line counts, the selected file's diff, and the checkpoints as a
// timeline beside the work-log lines of their time, each with a Restore action (all files, or the
// selected one); a splitter between the files and the checkpoints sets how much of the column the
// files take. Read afresh when a `checkpoint.written` event for the session arrives and on Refresh;
// its state and reads are changes-store.ts's. Runs in the renderer.
import { rollbackNeedsConfirm } from '../../common/rollback-confirm.js';
import type { DaemonEvent, LiveSession } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { ChangesStore } from './changes-store.js';
import { checkpointLabel as label, checkpointTimeline, lineCounts, restoredWords } from './checkpoint-timeline.js';
import { storedHeight } from './changes-prefs.js';
import { FileDiffView } from './file-diff-view.js';
import { FilesSplitter } from './files-splitter.js';
import { RestoreDialog } from './restore-dialog.js';
import './changes-tab.css';
import { useState } from 'preact/hooks';
import { usePane } from '../ui/pane-store.js';
import { Shown, shown } from '../ui/shown-text.js';
import { When } from '../ui/when.js';

export function ChangesTab(props: { api: MoriApi; session: LiveSession; onEvent: (l: (e: DaemonEvent) => void) => () => void }) {
  const [filesHeight, setFilesHeight] = useState(storedHeight);
  const [store, { checkpoints, log, since, listing, selected, diff, status, restoring, layout }] = usePane(() => new ChangesStore(props.api, props.session.id, props.onEvent));
  const timeline = checkpointTimeline(checkpoints, log);
  const sinceLabel = listing ? label(listing.since) : 'the start';
  const working = rollbackNeedsConfirm(props.session);
  return (
    <div class="changes-pane">
      <div class="changes-bar">
        <label class="changes-since">
          Since
          <select value={since} onChange={(e) => store.changeSince(e.currentTarget.value)}>
            <option value="start">the session began</option>
            {[...checkpoints].reverse().map((c) => (
              <option key={c.commit} value={c.commit}>
                #{c.seq} {c.id} · {new Date(c.at).toLocaleString()}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void store.load()}>
          Refresh
        </button>
        <span class="muted" role="status">
          {status || (listing ? `${listing.files.length} file${listing.files.length === 1 ? '' : 's'} changed since ${sinceLabel}, +${listing.added} −${listing.deleted}` : '')}
        </span>
      </div>
      <div class="changes-body">
        <div class="changes-side">
          <section aria-label="Changed files" class="changes-files" style={{ height: `${filesHeight}px` }}>
            <h2>Changed files</h2>
            {listing && listing.files.length === 0 ? <p class="empty">No file changed since {sinceLabel}.</p> : null}
            <ul>
              {listing?.files.map((f) => (
                <li key={f.path}>
                  <button type="button" class="changes-file" aria-pressed={selected === f.path} aria-label={shown(`${f.path}, ${f.kind}, ${lineCounts(f)}`)} onClick={() => store.choose(f.path)}>
                    <span class={`changes-kind kind-${f.kind}`} aria-hidden="true">
                      {f.kind === 'added' ? 'A' : f.kind === 'deleted' ? 'D' : f.kind === 'modified' ? 'M' : 'T'}
                    </span>
                    <span class="changes-path">
                      <Shown text={f.path} />
                    </span>
                    <span class="changes-counts">
                      {f.binary ? (
                        'binary'
                      ) : (
                        <>
                          <span class="plus">+{f.added ?? 0}</span> <span class="minus">−{f.deleted ?? 0}</span>
                        </>
                      )}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
          <FilesSplitter height={filesHeight} onHeight={setFilesHeight} />
          <section aria-label="Checkpoints" class="changes-timeline">
            <h2>Checkpoints</h2>
            {timeline.length === 0 ? <p class="empty">No checkpoints yet.</p> : null}
            <ol>
              {timeline.map(({ checkpoint: c, lines }) => (
                <li key={c.commit} aria-label={`Checkpoint #${c.seq}`} class={listing?.since.commit === c.commit ? 'since' : ''}>
                  <div class="cp-head">
                    <strong>#{c.seq}</strong> <code>{c.id}</code> <span class="muted">
                      <When at={c.at} />
                    </span>
                  </div>
                  <div class="cp-reason">
                    {shown(c.reason)} · {c.files} file{c.files === 1 ? '' : 's'} against HEAD{c.message ? ` · “${shown(c.message)}”` : ''}
                  </div>
                  <ul class="cp-log" aria-label={`Work log at checkpoint #${c.seq}`}>
                    {lines.map((l) => (
                      <li key={l}>{l}</li>
                    ))}
                    <li class="muted">{c.logLine}</li>
                  </ul>
                  <div class="cp-actions">
                    <button type="button" aria-label={`Restore all files to checkpoint #${c.seq}`} onClick={() => store.restore(c, [])}>
                      Restore all…
                    </button>
                    {selected ? (
                      <button type="button" aria-label={`Restore ${selected} to checkpoint #${c.seq}`} onClick={() => store.restore(c, [selected])}>
                        Restore {selected}…
                      </button>
                    ) : null}
                    {listing?.since.commit !== c.commit ? (
                      <button type="button" class="link-button" aria-label={`Changes since checkpoint #${c.seq}`} onClick={() => store.changeSince(c.commit)}>
                        Changes since
                      </button>
                    ) : null}
                  </div>
                </li>
              ))}
            </ol>
          </section>
        </div>
        <div class="changes-main">{diff ? <FileDiffView diff={diff} checkpointLabel={sinceLabel} layout={layout} onLayout={(l) => store.setLayout(l)} /> : <p class="empty">{listing && listing.files.length > 0 ? 'Choose a file to see its diff.' : ''}</p>}</div>
      </div>
      {restoring ? (
        <RestoreDialog
          api={props.api}
          sessionId={props.session.id}
          to={restoring.to}
          files={restoring.files}
          agentWorking={working}
          onClose={() => store.closeRestore()}
          onDone={(r) => void store.restored(restoredWords(r))}
        />
      ) : null}
    </div>
  );
}
