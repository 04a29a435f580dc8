// Settings (DESIGN.md §12): what the daemon keeps for every UI — which events notify, pausing them,
// probe targets, restart limits, the resume policy's defaults — read and replaced through settings.get/set; start at login is the
// app's own and shows only when the app's preload offers it. The window's own preference (the
// terminals' screen-reader mode, renderer/ui/window-prefs.ts) is kept in this browser. Its state and
// calls are settings-store.ts's. Runs in the renderer.
import type { DaemonSettings, NotifyEvent } from '../../common/daemon-settings.js';
import { NOTIFY_EVENTS } from '../../common/notify-events.js';
import type { MoriApi } from '../../common/mori-api.js';
import { FormBody } from '../ui/form-dialog.js';
import { Modal } from '../ui/modal.js';
import { usePane } from '../ui/pane-store.js';
import { SettingsStore } from './settings-store.js';

const EVENT_WORDS: Record<NotifyEvent, string> = {
  'verify-failed': 'Verification failed',
  'needs-input': 'Needs input',
  'crash-loop': 'Crash loop',
  resumed: 'Resumed after sleep or an outage',
  'usage-limit': 'Usage limit',
};

export function SettingsDialog(props: { api: MoriApi; onClose: () => void; browserNotifications: NotificationPermission | 'unsupported'; onAskBrowser: () => void }) {
  const [store, { settings: s, probes, error, reader }] = usePane(() => new SettingsStore(props.api));
  const save = async (): Promise<void> => {
    if (await store.save()) props.onClose();
  };

  return (
    <Modal title="Settings" onClose={props.onClose}>
      {s === null ? (
        <p>{error || 'Loading…'}</p>
      ) : (
        <FormBody onSubmit={() => void save()} footer={{ error, errorId: 'settings-error', onCancel: props.onClose, primary: { label: 'Save settings', describedByError: true } }}>
        <fieldset>
          <legend>Notifications</legend>
          {NOTIFY_EVENTS.map((e) => (
            <label class="inline" key={e}>
              <input type="checkbox" checked={s.notifications.events.includes(e)} onChange={(ev) => store.notify(e, (ev.target as HTMLInputElement).checked)} />
              {EVENT_WORDS[e]}
            </label>
          ))}
          <label class="inline">
            <input type="checkbox" checked={s.notifications.paused} onChange={(ev) => store.pause((ev.target as HTMLInputElement).checked)} />
            Pause notifications
          </label>
          {props.browserNotifications === 'default' ? (
            <button type="button" onClick={props.onAskBrowser}>
              Allow browser notifications
            </button>
          ) : (
            <p class="muted">Browser notifications: {props.browserNotifications}</p>
          )}
        </fieldset>
        <label>
          Probe targets (host:port, one a line; empty: the agents' own API hosts)
          <textarea rows={3} value={probes} onInput={(e) => store.setProbes((e.target as HTMLTextAreaElement).value)} />
        </label>
        <fieldset>
          <legend>Restart limits (empty: built in; read when the daemon starts)</legend>
          <label>
            First delay (ms)
            <input type="number" min={100} value={s.restart.baseDelayMs ?? ''} onInput={(e) => store.restart('baseDelayMs', (e.target as HTMLInputElement).value)} />
          </label>
          <label>
            Longest delay (ms)
            <input type="number" min={100} value={s.restart.maxDelayMs ?? ''} onInput={(e) => store.restart('maxDelayMs', (e.target as HTMLInputElement).value)} />
          </label>
          <label>
            Crashes that make a crash loop
            <input type="number" min={1} value={s.restart.crashLoopCount ?? ''} onInput={(e) => store.restart('crashLoopCount', (e.target as HTMLInputElement).value)} />
          </label>
        </fieldset>
        <fieldset>
          <legend>Resume (the mode and share read when the daemon starts)</legend>
          <label>
            Resume sessions
            <select value={s.resume.mode} onChange={(e) => store.resume({ mode: (e.target as HTMLSelectElement).value as DaemonSettings['resume']['mode'] })}>
              <option value="auto">Auto: by id while the conversation is small, else fresh</option>
              <option value="by-id">By id: reload the agent's conversation</option>
              <option value="fresh">Fresh: a new conversation from the state files</option>
            </select>
          </label>
          <label>
            Auto goes fresh at this share of the model's window (%)
            <input type="number" min={1} max={100} value={s.resume.contextSharePercent} onInput={(e) => store.resume({ contextSharePercent: (e.target as HTMLInputElement).value })} />
          </label>
          <label>
            Notice when session_state.md passes (bytes)
            <input type="number" min={1024} value={s.resume.stateFileNoticeBytes} onInput={(e) => store.resume({ stateFileNoticeBytes: (e.target as HTMLInputElement).value })} />
          </label>
        </fieldset>
        <fieldset>
          <legend>This window</legend>
          <label class="inline">
            <input type="checkbox" checked={reader} onChange={(ev) => store.setReader((ev.target as HTMLInputElement).checked)} />
            Screen reader mode for terminals
          </label>
        </fieldset>
        <p class="muted">Start at login is a setting of the desktop app.</p>
        </FormBody>
      )}
    </Modal>
  );
}
