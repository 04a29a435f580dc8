// A state file in a CodeMirror 6 markdown editor (DESIGN.md §3, §13). What is on disk shows live
// while the person has no unsaved change; with unsaved changes an external edit raises a banner
// offering Reload or Compare. Save writes against the version read: a `conflict` answer writes
// nothing, and shows the other writer's text beside the person's. Runs in the renderer.
import { markdown } from '@codemirror/lang-markdown';
import { EditorView, basicSetup } from 'codemirror';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { DaemonEvent, EditableStateFile } from '../common/ipc.js';
import type { MoriApi } from '../common/mori-api.js';

type Banner = { kind: 'changed' } | { kind: 'conflict'; text: string; version: string } | null;

export function StateEditor(props: { api: MoriApi; sessionId: string; file: EditableStateFile; onEvent: (l: (e: DaemonEvent) => void) => () => void }) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const base = useRef<{ text: string; version: string } | null>(null);
  const [dirty, setDirty] = useState(false);
  const [banner, setBanner] = useState<Banner>(null);
  const [compare, setCompare] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const dirtyRef = useRef(false);

  const replaceDoc = (text: string, version: string): void => {
    base.current = { text, version };
    const v = view.current;
    if (v && v.state.doc.toString() !== text) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text } });
    dirtyRef.current = false;
    setDirty(false);
  };

  const load = async (): Promise<void> => {
    const r = await props.api.call('state.read', { session: props.sessionId, file: props.file });
    if (!r.ok) return setStatus(`Cannot read ${props.file}: ${r.message}`);
    replaceDoc(r.value.text, r.value.version);
    setBanner(null);
    setCompare(null);
    setStatus('');
  };

  /**
   * Someone changed the file: what is on disk replaces the text only while the person has no unsaved
   * change, judged when the read answers (they may have typed meanwhile); a version already held (the
   * echo of our own save, a second event for one write) changes nothing.
   */
  const refreshFromDisk = async (): Promise<void> => {
    const r = await props.api.call('state.read', { session: props.sessionId, file: props.file });
    if (!r.ok || r.value.version === base.current?.version) return;
    if (dirtyRef.current) setBanner((b) => (b?.kind === 'conflict' ? b : { kind: 'changed' }));
    else replaceDoc(r.value.text, r.value.version);
  };

  useEffect(() => {
    const v = new EditorView({
      parent: host.current as HTMLDivElement,
      extensions: [
        basicSetup,
        markdown(),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': `${props.file} text` }),
        EditorView.updateListener.of((u) => {
          if (!u.docChanged) return;
          dirtyRef.current = base.current !== null && u.state.doc.toString() !== base.current.text;
          setDirty(dirtyRef.current);
        }),
      ],
    });
    view.current = v;
    void load();
    const off = props.onEvent((e) => {
      if (e.type === 'state.changed' && e.sessionId === props.sessionId && e.file === props.file) void refreshFromDisk();
    });
    return () => {
      off();
      v.destroy();
    };
  }, [props.sessionId, props.file]);

  const save = async (): Promise<void> => {
    const v = view.current;
    const b = base.current;
    if (!v || !b) return;
    const text = v.state.doc.toString();
    // Nothing of the person's to write (the click raced a reload): writing the disk's text back is no save.
    if (text === b.text) return;
    const r = await props.api.call('state.write', { session: props.sessionId, file: props.file, text, baseVersion: b.version });
    if (!r.ok) return setStatus(`Not saved: ${r.message}`);
    if (r.value.outcome === 'conflict') {
      setBanner({ kind: 'conflict', text: r.value.text, version: r.value.version });
      setStatus('');
      return;
    }
    base.current = { text, version: r.value.version };
    // The person may have typed while the write was on its way: still dirty then.
    dirtyRef.current = v.state.doc.toString() !== text;
    setDirty(dirtyRef.current);
    setBanner(null);
    setCompare(null);
    setStatus('Saved');
  };

  /** Shows the disk's text beside the person's, read fresh. */
  const showCompare = async (): Promise<void> => {
    const r = await props.api.call('state.read', { session: props.sessionId, file: props.file });
    if (r.ok) setCompare(r.value.text);
  };

  /** The person chose, having seen both, to put their text over the other writer's. */
  const saveOverDisk = async (): Promise<void> => {
    const r = await props.api.call('state.read', { session: props.sessionId, file: props.file });
    if (!r.ok) return;
    base.current = { text: r.value.text, version: r.value.version };
    await save();
  };

  return (
    <div class="editor-pane">
      <div class="editor-bar">
        <button type="button" onClick={() => void save()} disabled={!dirty || banner?.kind === 'conflict'}>
          Save
        </button>
        <span class="muted" role="status">
          {dirty ? 'Unsaved changes' : status}
        </span>
      </div>
      {banner ? (
        <div class={`banner ${banner.kind === 'conflict' ? 'banner-error' : ''}`} role="alert">
          <span>{banner.kind === 'conflict' ? `Not saved: ${props.file} changed on disk since you opened it. Nothing was overwritten.` : `${props.file} changed on disk while you were editing.`}</span>
          <button type="button" onClick={() => void load()}>
            Reload
          </button>
          <button type="button" onClick={() => void showCompare()}>
            Compare
          </button>
        </div>
      ) : null}
      <div class={compare !== null ? 'editor-split' : 'editor-single'}>
        <div class="editor-host" ref={host} />
        {compare !== null ? (
          <section class="compare" aria-label={`${props.file} on disk`}>
            <div class="compare-bar">
              <strong>On disk</strong>
              <button type="button" onClick={() => void load()}>
                Use the disk version
              </button>
              <button type="button" onClick={() => void saveOverDisk()}>
                Save mine over it
              </button>
              <button type="button" onClick={() => setCompare(null)}>
                Close
              </button>
            </div>
            <pre>{compare}</pre>
          </section>
        ) : null}
      </div>
    </div>
  );
}
