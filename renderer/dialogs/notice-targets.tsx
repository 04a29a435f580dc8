// The settings' "Notices off the machine" group (DESIGN.md §13): the targets listed with their URLs
// masked, each with its Remove button, and a kind and URL to add one. Its state and calls are
// notice-targets-store.ts's. Runs in the renderer.
import type { MoriApi } from '../../common/mori-api.js';
import { TARGET_KINDS, type TargetKind } from '../../common/notify-events.js';
import { usePane } from '../ui/pane-store.js';
import { NoticeTargetsStore } from './notice-targets-store.js';

const KIND_WORDS: Record<TargetKind, string> = { ntfy: 'ntfy', webhook: 'Webhook (JSON POST)' };

export function NoticeTargets(props: { api: MoriApi }) {
  const [store, { targets, kind, url, error, said }] = usePane(() => new NoticeTargetsStore(props.api));
  return (
    <fieldset>
      <legend>Notices off the machine</legend>
      <p class="field-hint" id="notice-targets-hint">
        Needs input, failures, crash loops, usage limits, finished and handed-off sessions, sent once each to ntfy or a webhook. The URL is kept in
        settings.json and shown masked. Never the terminal's content.
      </p>
      {targets === null ? (
        <p>Loading…</p>
      ) : targets.length === 0 ? (
        <p class="muted">No targets.</p>
      ) : (
        <ul aria-label="Notice targets" class="notice-targets">
          {targets.map((t) => (
            <li key={t.id}>
              <span>
                {KIND_WORDS[t.kind]} <code>{t.url}</code> <span class="field-hint">{t.events.join(', ')}</span>
              </span>
              <button type="button" aria-label={`Remove ${t.kind} target ${t.url}`} onClick={() => void store.remove(t)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <label>
        Kind
        <select value={kind} onChange={(e) => store.setKind((e.target as HTMLSelectElement).value as TargetKind)}>
          {TARGET_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_WORDS[k]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Target URL
        <input type="url" placeholder="https://ntfy.sh/your-topic" value={url} aria-describedby="notice-targets-hint" aria-invalid={error !== ''} onInput={(e) => store.setUrl((e.target as HTMLInputElement).value)} />
      </label>
      <button type="button" onClick={() => void store.add()}>
        Add target
      </button>
      {error !== '' ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
      <p role="status" class="visually-hidden">
        {said}
      </p>
    </fieldset>
  );
}
