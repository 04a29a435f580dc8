// The Changes tab (DESIGN.md §3, §4, §13): the files changed since the session began (or since a
// chosen checkpoint) with their line counts, the selected file's diff, and the checkpoints as a
// timeline beside the work-log lines of their time, each with a Restore action (all files, or the
// selected one). Read afresh when a `checkpoint.written` event for the session arrives and on Refresh.
// Runs in the renderer.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ChangesListing, CheckpointInfo, FileDiff } from '../../common/checkpoints.js';
import { rollbackNeedsConfirm } from '../../common/rollback-confirm.js';
import type { DaemonEvent, LogEntry, SessionInfo } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { checkpointTimeline, lineCounts } from './checkpoint-timeline.js';
import { FileDiffView } from './file-diff-view.js';
import { RestoreDialog } from './restore-dialog.js';
import './changes-tab.css';
import { Shown, shown } from '../ui/shown-text.js';

/** Work-log entries read for the timeline: the newest ones, as many as one page holds. */
const LOG_ENTRIES = 500;

const label = (c: CheckpointInfo): string => `checkpoint #${c.seq}`;

export function ChangesTab(props: { api: MoriApi; session: SessionInfo; onEvent: (l: (e: DaemonEvent) => void) => () => void }) {
  const { api } = props;
  const sessionId = props.session.id;
  const [checkpoints, setCheckpoints] = useState<CheckpointInfo[]>([]);
  const [log, setLog] = useState<LogEntry[]>([]);
  const [since, setSince] = useState('start');
  const [listing, setListing] = useState<ChangesListing | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [diff, setDiff] = useState<FileDiff | null>(null);
  const [status, setStatus] = useState('');
  const [restoring, setRestoring] = useState<{ to: CheckpointInfo; files: string[] } | null>(null);
  const sinceRef = useRef(since);
  sinceRef.current = since;
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  /** Bumped by each read: an answer to an older one (an event and Refresh in quick succession) is dropped. */
  const generation = useRef(0);

  const loadDiff = async (path: string | null, from = sinceRef.current): Promise<void> => {
    const mine = generation.current;
    if (path === null) return setDiff(null);
    const r = await api.call('changes.diff', { session: sessionId, since: from, paths: [path] });
    if (mine !== generation.current || path !== selectedRef.current) return;
    if (!r.ok) return setStatus(`Cannot show ${path}: ${r.message}`);
    setDiff(r.value.files[0] ?? null);
  };

  const load = async (from = sinceRef.current): Promise<void> => {
    const mine = ++generation.current;
    setStatus('Reading…');
    const [cps, changes, entries] = await Promise.all([
      api.call('checkpoints.list', { session: sessionId }),
      api.call('changes.list', { session: sessionId, since: from }),
      api.call('log.tail', { session: sessionId, limit: LOG_ENTRIES }),
    ]);
    if (mine !== generation.current) return;
    if (cps.ok) setCheckpoints(cps.value.checkpoints);
    if (entries.ok) setLog(entries.value.entries);
    if (!changes.ok) {
      setListing(null);
      return setStatus(`Cannot list the changes: ${changes.message}`);
    }
    setListing(changes.value);
    setStatus(cps.ok ? '' : `Cannot list the checkpoints: ${cps.message}`);
    const still = changes.value.files.some((f) => f.path === selectedRef.current) ? selectedRef.current : (changes.value.files[0]?.path ?? null);
    setSelected(still);
    selectedRef.current = still;
    await loadDiff(still, from);
  };

  useEffect(() => {
    void load();
    return props.onEvent((e) => {
      if (e.type === 'checkpoint.written' && e.sessionId === sessionId) void load();
    });
  }, [sessionId]);

  const choose = (path: string): void => {
    setSelected(path);
    selectedRef.current = path;
    void loadDiff(path);
  };
  const changeSince = (spec: string): void => {
    setSince(spec);
    void load(spec);
  };

  const timeline = checkpointTimeline(checkpoints, log);
  const sinceLabel = listing ? label(listing.since) : 'the start';
  const working = rollbackNeedsConfirm(props.session);
  return (
    <div class="changes-pane">
      <div class="changes-bar">
        <label class="changes-since">
          Since
          <select value={since} onChange={(e) => changeSince(e.currentTarget.value)}>
            <option value="start">the session began</option>
            {[...checkpoints].reverse().map((c) => (
              <option key={c.commit} value={c.commit}>
                #{c.seq} {c.id} · {new Date(c.at).toLocaleString()}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void load()}>
          Refresh
        </button>
        <span class="muted" role="status">
          {status || (listing ? `${listing.files.length} file${listing.files.length === 1 ? '' : 's'} changed since ${sinceLabel}, +${listing.added} −${listing.deleted}` : '')}
        </span>
      </div>
      <div class="changes-body">
        <div class="changes-side">
          <section aria-label="Changed files" class="changes-files">
            <h2>Changed files</h2>
            {listing && listing.files.length === 0 ? <p class="empty">No file changed since {sinceLabel}.</p> : null}
            <ul>
              {listing?.files.map((f) => (
                <li key={f.path}>
                  <button type="button" class="changes-file" aria-pressed={selected === f.path} aria-label={shown(`${f.path}, ${f.kind}, ${lineCounts(f)}`)} onClick={() => choose(f.path)}>
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
          <section aria-label="Checkpoints" class="changes-timeline">
            <h2>Checkpoints</h2>
            {timeline.length === 0 ? <p class="empty">No checkpoints yet.</p> : null}
            <ol>
              {timeline.map(({ checkpoint: c, lines }) => (
                <li key={c.commit} aria-label={`Checkpoint #${c.seq}`} class={listing?.since.commit === c.commit ? 'since' : ''}>
                  <div class="cp-head">
                    <strong>#{c.seq}</strong> <code>{c.id}</code> <span class="muted">{new Date(c.at).toLocaleString()}</span>
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
                    <button type="button" aria-label={`Restore all files to checkpoint #${c.seq}`} onClick={() => setRestoring({ to: c, files: [] })}>
                      Restore all…
                    </button>
                    {selected ? (
                      <button type="button" aria-label={`Restore ${selected} to checkpoint #${c.seq}`} onClick={() => setRestoring({ to: c, files: [selected] })}>
                        Restore {selected}…
                      </button>
                    ) : null}
                    {listing?.since.commit !== c.commit ? (
                      <button type="button" class="link-button" aria-label={`Changes since checkpoint #${c.seq}`} onClick={() => changeSince(c.commit)}>
                        Changes since
                      </button>
                    ) : null}
                  </div>
                </li>
              ))}
            </ol>
          </section>
        </div>
        <div class="changes-main">{diff ? <FileDiffView diff={diff} checkpointLabel={sinceLabel} /> : <p class="empty">{listing && listing.files.length > 0 ? 'Choose a file to see its diff.' : ''}</p>}</div>
      </div>
      {restoring ? (
        <RestoreDialog
          api={api}
          sessionId={sessionId}
          to={restoring.to}
          files={restoring.files}
          agentWorking={working}
          onClose={() => setRestoring(null)}
          onDone={(r) => {
            setRestoring(null);
            const n = r.actions.filter((a) => a.action !== 'skip').length;
            void load().then(() => setStatus(`Restored ${n} file${n === 1 ? '' : 's'} to ${label(r.to)}${r.before ? `; checkpoint #${r.before.seq} undoes it` : ''}.`));
          }}
        />
      ) : null}
    </div>
  );
}
