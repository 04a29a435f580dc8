// The window's one open dialog (DESIGN.md §13): a new session, the command palette (the sessions in
// the list's order, the first nine with their Mod+digit, and every action of the window — the
// selected session's (verify, start or stop, restart, continue with another agent, trust, rename, remove, mute, its tabs), the
// theme, settings, notices, "While you were away" — each with its shortcut; in the app also the selected session's state
// folder, which only its main process can open), the keyboard shortcuts, the settings, or one asked
// about the selected session (rename, remove, stop, restart, continue with…). Runs in the renderer.
import { inListOrder } from '../sessions/shown-order.js';
import { NewSessionDialog } from '../dialogs/new-session-dialog.js';
import { Palette, type PaletteItem } from '../dialogs/palette.js';
import { SettingsDialog } from '../dialogs/settings-dialog.js';
import { keysWords } from '../ui/shortcuts.js';
import { ShortcutsDialog } from '../dialogs/shortcuts-dialog.js';
import type { WindowState, WindowStore } from './window-store.js';
import { stepTerminalFontSize } from '../ui/window-prefs.js';
import { setThemeChoice, THEMES, themeChoice } from '../ui/theme.js';
import { RemoveDialog, RenameDialog } from '../header/session-manage.js';
import { StopDialog } from '../header/stop-dialog.js';
import { HandoffDialog } from '../header/handoff-dialog.js';
import { TABS } from './session-tabs.js';

function paletteItems(store: WindowStore, onAway: () => void): PaletteItem[] {
  const mac = /Mac/.test(navigator.platform);
  const current = store.current;
  const items: PaletteItem[] = inListOrder(store.state.sessions).map((s, i) => ({
    id: `go-${s.id}`,
    label: `Go to ${s.name}`,
    ...(i < 9 ? { keys: keysWords(`Mod+${i + 1}`, mac) } : {}),
    run: () => store.select(s.id),
  }));
  if (current) {
    items.push({ id: 'verify', label: `Verify ${current.name}`, run: () => void store.act('checks.verify', 'Verify') });
    const resume = current.intent.kind === 'interrupted' ? 'Resume' : 'Start';
    if (store.running) {
      items.push({ id: 'stop', label: `Stop ${current.name}…`, run: () => store.openDialog('stop') });
      items.push({ id: 'restart', label: `Restart ${current.name}…`, run: () => store.openDialog('restart') });
    } else {
      items.push({ id: 'start', label: `${resume} ${current.name}`, run: () => void store.act('start', resume) });
      // A running session cannot be renamed (its agent runs in the folder a rename moves).
      items.push({ id: 'rename', label: `Rename ${current.name}…`, run: () => store.openDialog('rename') });
    }
    items.push({ id: 'handoff', label: `Continue ${current.name} with another agent…`, run: () => store.openDialog('handoff') });
    items.push({ id: 'trust', label: `Review and trust the checks of ${current.name}…`, run: () => store.reviewTrust(current.id) });
    items.push({ id: 'remove', label: `Remove ${current.name}…`, run: () => store.openDialog('remove') });
    for (const t of TABS) items.push({ id: `tab-${t.id}`, label: `Show ${t.label}`, run: () => store.setTab(t.id) });
    // Only where the API can open a folder (the app); a browser page cannot.
    if (store.api.openStateDir) items.push({ id: 'open-state-dir', label: `Open state folder of ${current.name}`, run: () => void store.openStateDir() });
    const muted = store.isMuted(current.id);
    items.push({ id: 'mute', label: `${muted ? 'Unmute' : 'Mute'} notifications of ${current.name}`, run: () => void store.toggleMute() });
    items.push({ id: 'search', label: 'Search the terminal', keys: keysWords('Mod+F', mac), run: store.searchTerminal });
  }
  items.push({ id: 'font-larger', label: 'Larger terminal text', keys: keysWords('Mod+=', mac), run: () => stepTerminalFontSize(1) });
  items.push({ id: 'font-smaller', label: 'Smaller terminal text', keys: keysWords('Mod+−', mac), run: () => stepTerminalFontSize(-1) });
  items.push({ id: 'new', label: 'New session', keys: keysWords('Mod+N', mac), run: () => store.openDialog('new') });
  items.push({ id: 'settings', label: 'Settings', run: () => store.openDialog('settings') });
  items.push({ id: 'away', label: 'While you were away', run: onAway });
  const theme = themeChoice();
  for (const t of THEMES) if (t !== theme) items.push({ id: `theme-${t}`, label: `Theme: ${t === 'system' ? 'follow the system' : t}`, run: () => setThemeChoice(t) });
  if (store.notices.groups.length > 0) items.push({ id: 'clear-notices', label: 'Clear all notifications', run: store.notices.clear });
  items.push({ id: 'shortcuts', label: 'Keyboard shortcuts', keys: '?', run: () => store.openDialog('shortcuts') });
  return items;
}

export function WindowDialogs(props: { store: WindowStore; state: WindowState; onAway: () => void }) {
  const { store } = props;
  switch (props.state.dialog) {
    case 'new':
      return <NewSessionDialog api={store.api} sessions={props.state.sessions} onClose={store.closeDialog} onCreated={store.created} />;
    case 'palette':
      return <Palette items={paletteItems(store, props.onAway)} onClose={store.closeDialog} />;
    case 'shortcuts':
      return <ShortcutsDialog onClose={store.closeDialog} />;
    case 'rename':
    case 'remove':
    case 'stop':
    case 'restart':
    case 'handoff':
      return <SessionDialog store={store} dialog={props.state.dialog} />;
    case 'settings':
      return <SettingsDialog api={store.api} onClose={store.closeDialog} browserNotifications={props.state.permission} onAskBrowser={store.askBrowser} />;
    default:
      return null;
  }
}

/** A dialog about the selected session; none when no session is selected (it was removed meanwhile). */
function SessionDialog(props: { store: WindowStore; dialog: 'rename' | 'remove' | 'stop' | 'restart' | 'handoff' }) {
  const { store } = props;
  const current = store.current;
  if (!current) return null;
  switch (props.dialog) {
    case 'rename':
      return <RenameDialog api={store.api} session={current} onClose={store.closeDialog} onStatus={store.setActionStatus} />;
    case 'remove':
      return <RemoveDialog api={store.api} session={current} onClose={store.closeDialog} onStatus={store.setActionStatus} />;
    case 'handoff':
      return <HandoffDialog api={store.api} session={current} onClose={store.closeDialog} onStatus={store.setActionStatus} />;
    default: {
      const restart = props.dialog === 'restart';
      return <StopDialog name={current.name} restart={restart} onCancel={store.closeDialog} onConfirm={() => void (restart ? store.restart() : store.act('stop', 'Stop'))} />;
    }
  }
}
