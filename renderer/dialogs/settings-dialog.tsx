// Settings (DESIGN.md §12): what the daemon keeps for every UI — which events notify, pausing them,
// probe targets, restart limits, the resume policy's defaults — read and replaced through
// settings.get/set, each field saying its default; start at login is the app's own and shows only when
// the app's preload offers it. The window's own preferences (its theme, renderer/ui/theme.ts, applied
// as soon as chosen; the terminals' screen-reader mode, renderer/ui/window-prefs.ts) are kept in this
// browser. Its state and
// calls are settings-store.ts's. Runs in the renderer.
import type { DaemonSettings, NotifyEvent } from '../../common/daemon-settings.js';
import { NOTIFY_EVENTS } from '../../common/notify-events.js';
import type { MoriApi } from '../../common/mori-api.js';
import { FormBody } from '../ui/form-dialog.js';
import { Modal } from '../ui/modal.js';
import { usePane } from '../ui/pane-store.js';
import { NoticeTargets } from './notice-targets.js';
import { SettingsStore } from './settings-store.js';
import { RESTART_DEFAULTS } from '../../common/restart-defaults.js';
import { CONTEXT_WARN_PERCENT } from '../../common/usage-figures.js';
import { THEMES, type ThemeChoice } from '../ui/theme.js';
import { permissionWords } from '../ui/notification-permission.js';

const EVENT_WORDS: Record<NotifyEvent, string> = {
  'verify-failed': 'Verification failed',
  'needs-input': 'Needs input',
  'crash-loop': 'Crash loop',
  resumed: 'Resumed after sleep or an outage',
  'usage-limit': 'Usage limit',
  'handed-off': 'Continued with another agent',
  'context-over': 'Context past the share set',
};

const THEME_WORDS: Record<ThemeChoice, string> = { system: 'System (default)', light: 'Light', dark: 'Dark' };

/** A restart field: its built-in value as placeholder and in words under it. */
function RestartField(props: { id: string; label: string; unit: string; min: number; value: number | null; fallback: number; onInput: (text: string) => void }) {
  return (
    <label>
      {props.label}
      <input type="number" min={props.min} placeholder={String(props.fallback)} aria-describedby={`${props.id}-default`} value={props.value ?? ''} onInput={(e) => props.onInput((e.target as HTMLInputElement).value)} />
      <span class="field-hint" id={`${props.id}-default`}>
        Default: {props.fallback.toLocaleString()}
        {props.unit}
      </span>
    </label>
  );
}

export function SettingsDialog(props: { api: MoriApi; onClose: () => void; browserNotifications: NotificationPermission | 'unsupported'; onAskBrowser: () => void }) {
  const [store, { settings: s, probes, error, reader, theme }] = usePane(() => new SettingsStore(props.api));
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
          <p class="field-hint">Which news notifies you, in the app and in this page. Default: all of them, not paused.</p>
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
            <p class="muted">{permissionWords(props.browserNotifications)}</p>
          )}
        </fieldset>
        <NoticeTargets api={props.api} />
        <label>
          Probe targets
          <textarea
            rows={3}
            value={probes}
            aria-describedby="probe-targets-hint"
            onInput={(e) => store.setProbes((e.target as HTMLTextAreaElement).value)}
          />
          <span class="field-hint" id="probe-targets-hint">
            How Mori tells a network outage from a crash: it connects to these addresses, and while none answers it waits for the network instead of restarting agents. One
            host:port a line. Default (empty): the API hosts of the agents that run.
          </span>
        </label>
        <fieldset>
          <legend>Restart limits</legend>
          <p class="field-hint">How a crashed agent is restarted. Empty: the default. Read when the daemon starts.</p>
          <RestartField id="restart-base" label="First delay (ms)" unit=" ms" min={100} value={s.restart.baseDelayMs} fallback={RESTART_DEFAULTS.baseDelayMs} onInput={(t) => store.restart('baseDelayMs', t)} />
          <RestartField id="restart-max" label="Longest delay (ms)" unit=" ms" min={100} value={s.restart.maxDelayMs} fallback={RESTART_DEFAULTS.maxDelayMs} onInput={(t) => store.restart('maxDelayMs', t)} />
          <RestartField
            id="restart-loop"
            label="Crashes that make a crash loop"
            unit={` within ${RESTART_DEFAULTS.crashLoopWindowMs / 60_000} minutes`}
            min={1}
            value={s.restart.crashLoopCount}
            fallback={RESTART_DEFAULTS.crashLoopCount}
            onInput={(t) => store.restart('crashLoopCount', t)}
          />
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
          <legend>Keep awake</legend>
          <p class="field-hint">While an agent works, and for a while after the last one stops, the machine does not go to sleep when idle. Closing the lid still suspends it: that is what the resume is for.</p>
          <label class="inline">
            <input type="checkbox" checked={s.keepAwake.enabled} onChange={(e) => store.keepAwake({ enabled: (e.target as HTMLInputElement).checked })} />
            Keep the machine awake while agents work
          </label>
          <label>
            Minutes after the last one stops
            <input type="number" min={0} max={120} aria-describedby="keep-awake-default" value={s.keepAwake.graceMinutes} onInput={(e) => store.keepAwake({ graceMinutes: (e.target as HTMLInputElement).value })} />
            <span class="field-hint" id="keep-awake-default">
              Default: 2
            </span>
          </label>
        </fieldset>
        <fieldset>
          <legend>Usage</legend>
          <p class="field-hint">A session whose context passes this share of its model's window says so: in mori ls, mori status and the window's meter.</p>
          <label>
            Context share that warns (%)
            <input type="number" min={1} max={100} aria-describedby="usage-warn-default" value={s.usage.contextWarnPercent} onInput={(e) => store.usage((e.target as HTMLInputElement).value)} />
            <span class="field-hint" id="usage-warn-default">
              Default: {CONTEXT_WARN_PERCENT} %
            </span>
          </label>
        </fieldset>
        <fieldset>
          <legend>This window</legend>
          <div role="radiogroup" aria-label="Theme" class="theme-choice">
            <span class="field-label">Theme</span>
            {THEMES.map((t) => (
              <label class="inline" key={t}>
                <input type="radio" name="theme" value={t} checked={theme === t} onChange={() => store.setTheme(t)} />
                {THEME_WORDS[t]}
              </label>
            ))}
          </div>
          <label class="inline">
            <input type="checkbox" checked={reader} onChange={(ev) => store.setReader((ev.target as HTMLInputElement).checked)} />
            Screen reader mode for terminals <span class="field-hint">(default: off)</span>
          </label>
        </fieldset>
        <p class="muted">Start at login is a setting of the desktop app.</p>
        </FormBody>
      )}
    </Modal>
  );
}
