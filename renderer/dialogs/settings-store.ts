// The settings dialog's state and actions (DESIGN.md §12): the daemon's settings read on open and
// edited here, then replaced through settings.set on Save; the window's own preference (the
// terminals' screen-reader mode) kept in this browser on Save, its theme as soon as it is chosen. Runs in the renderer.
import type { DaemonSettings, NotifyEvent } from '../../common/daemon-settings.js';
import type { MoriApi } from '../../common/mori-api.js';
import { PaneStore } from '../ui/pane-store.js';
import { screenReaderMode, setScreenReaderMode } from '../ui/window-prefs.js';
import { setThemeChoice, themeChoice, type ThemeChoice } from '../ui/theme.js';

const numberOrNull = (text: string): number | null => (text.trim() === '' ? null : Number(text));

export interface SettingsState {
  /** The daemon's settings as edited, once read. */
  settings: DaemonSettings | null;
  /** The probe targets' box: one host:port a line. */
  probes: string;
  error: string;
  reader: boolean;
  /** The window's theme: applied and kept as soon as it is chosen. */
  theme: ThemeChoice;
}

export class SettingsStore extends PaneStore<SettingsState> {
  constructor(private readonly api: MoriApi) {
    super({ settings: null, probes: '', error: '', reader: screenReaderMode(), theme: themeChoice() });
  }

  open(): void {
    void this.api.call('settings.get', {}).then((r) => {
      if (!r.ok) return this.set({ error: r.message });
      this.set({ settings: r.value, probes: (r.value.probeTargets ?? []).join('\n') });
    });
  }

  /** Saves; true when the daemon took the settings (the dialog then closes). */
  async save(): Promise<boolean> {
    const s = this.state.settings;
    if (!s) return false;
    setScreenReaderMode(this.state.reader);
    const targets = this.state.probes
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const r = await this.api.call('settings.set', { settings: { ...s, probeTargets: targets.length > 0 ? targets : null } });
    if (!r.ok) this.set({ error: r.message });
    return r.ok;
  }

  notify(e: NotifyEvent, on: boolean): void {
    const s = this.state.settings;
    if (!s) return;
    const events = on ? [...new Set([...s.notifications.events, e])] : s.notifications.events.filter((x) => x !== e);
    this.set({ settings: { ...s, notifications: { ...s.notifications, events } } });
  }

  pause(paused: boolean): void {
    const s = this.state.settings;
    if (s) this.set({ settings: { ...s, notifications: { ...s.notifications, paused } } });
  }

  restart(key: keyof DaemonSettings['restart'], text: string): void {
    const s = this.state.settings;
    if (s) this.set({ settings: { ...s, restart: { ...s.restart, [key]: numberOrNull(text) } } });
  }

  /** The resume policy's defaults (a number field left empty keeps the value it had). */
  resume(patch: { mode?: DaemonSettings['resume']['mode']; contextSharePercent?: string; stateFileNoticeBytes?: string }): void {
    const s = this.state.settings;
    if (!s) return;
    const num = (text: string | undefined, was: number): number => (text === undefined || text.trim() === '' ? was : Number(text));
    const r = s.resume;
    this.set({ settings: { ...s, resume: { mode: patch.mode ?? r.mode, contextSharePercent: num(patch.contextSharePercent, r.contextSharePercent), stateFileNoticeBytes: num(patch.stateFileNoticeBytes, r.stateFileNoticeBytes) } } });
  }

  /** The context share that warns (a field left empty keeps the value it had). */
  usage(contextWarnPercent: string): void {
    const s = this.state.settings;
    if (s) this.set({ settings: { ...s, usage: { contextWarnPercent: contextWarnPercent.trim() === '' ? s.usage.contextWarnPercent : Number(contextWarnPercent) } } });
  }

  /** Keeping the machine awake while agents work: on or off, and the grace period (a field left empty keeps what it had). */
  keepAwake(patch: { enabled?: boolean; graceMinutes?: string }): void {
    const s = this.state.settings;
    if (!s) return;
    const k = s.keepAwake;
    const grace = patch.graceMinutes === undefined || patch.graceMinutes.trim() === '' ? k.graceMinutes : Number(patch.graceMinutes);
    this.set({ settings: { ...s, keepAwake: { enabled: patch.enabled ?? k.enabled, graceMinutes: grace } } });
  }

  setProbes(probes: string): void {
    this.set({ probes });
  }

  setTheme(theme: ThemeChoice): void {
    setThemeChoice(theme);
    this.set({ theme });
  }

  setReader(reader: boolean): void {
    this.set({ reader });
  }
}
