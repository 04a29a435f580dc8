// The window's one open dialog (DESIGN.md §13): a new session, the command palette (the sessions in
// the list's order, the first nine with their Mod+digit, and the actions, each with its shortcut; in
// the app also the selected session's state folder, which only its main process can open),
// the keyboard shortcuts, or the settings. Runs in the renderer.
import { inListOrder } from '../sessions/shown-order.js';
import { NewSessionDialog } from '../dialogs/new-session-dialog.js';
import { Palette, type PaletteItem } from '../dialogs/palette.js';
import { SettingsDialog } from '../dialogs/settings-dialog.js';
import { keysWords } from '../ui/shortcuts.js';
import { ShortcutsDialog } from '../dialogs/shortcuts-dialog.js';
import type { WindowState, WindowStore } from './window-store.js';
import { stepTerminalFontSize } from '../ui/window-prefs.js';

function paletteItems(store: WindowStore): PaletteItem[] {
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
    items.push(store.running ? { id: 'stop', label: `Stop ${current.name}`, run: () => void store.act('stop', 'Stop') } : { id: 'start', label: `${resume} ${current.name}`, run: () => void store.act('start', resume) });
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
  items.push({ id: 'shortcuts', label: 'Keyboard shortcuts', keys: '?', run: () => store.openDialog('shortcuts') });
  return items;
}

export function WindowDialogs(props: { store: WindowStore; state: WindowState }) {
  const { store } = props;
  switch (props.state.dialog) {
    case 'new':
      return <NewSessionDialog api={store.api} onClose={store.closeDialog} onCreated={store.created} />;
    case 'palette':
      return <Palette items={paletteItems(store)} onClose={store.closeDialog} />;
    case 'shortcuts':
      return <ShortcutsDialog onClose={store.closeDialog} />;
    case 'settings':
      return <SettingsDialog api={store.api} onClose={store.closeDialog} browserNotifications={props.state.permission} onAskBrowser={store.askBrowser} />;
    default:
      return null;
  }
}
