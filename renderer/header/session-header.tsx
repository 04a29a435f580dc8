// The selected session's header (DESIGN.md §13): on a phone a back action to the list first, its name, its state in words, where it runs (and its worktree's branch), and
// its actions (Verify; Stop…, which asks first, or Start/Resume; and a More actions menu away from
// Stop: Rename…, disabled with the reason while the agent runs, Restart…, Continue with… (another agent), and Remove… in red), with the
// line saying how the last action went. The dialogs they open are the window's (shell/window-dialogs.tsx). Runs
// in the renderer.
import type { ComponentChildren } from 'preact';
import type { LiveSession } from '../../common/ipc.js';
import { MenuButton, type MenuItem } from '../ui/menu-button.js';
import { SessionTitle } from './session-title.js';
import type { WindowStore } from '../shell/window-store.js';
import { shown } from '../ui/shown-text.js';
import { headerAdvice } from '../../common/session-view.js';
import { startIsPrimary } from './primary-action.js';

/** `meter`: the context meter (the window's usage/ pane) shown under the title. */
export function SessionHeader(props: { store: WindowStore; current: LiveSession; running: boolean; actionStatus: string; meter?: ComponentChildren }) {
  const { store, current } = props;
  const resume = current.intent.kind === 'interrupted' ? 'Resume' : 'Start';
  const more: MenuItem[] = [
    { id: 'rename', label: 'Rename…', run: () => store.openDialog('rename'), ...(props.running ? { disabledReason: 'Stop the session first: its agent runs in the folder a rename moves.' } : {}) },
    ...(props.running ? [{ id: 'restart', label: 'Restart…', run: () => store.openDialog('restart') }] : []),
    { id: 'handoff', label: 'Continue with…', run: () => store.openDialog('handoff') },
    { id: 'remove', label: 'Remove…', run: () => store.openDialog('remove'), danger: true },
  ];
  return (
    <>
      <header class="session-header">
        {/* Shown only in the narrow layout (styles.css), where the list is a screen of its own. */}
        <button type="button" class="back-to-list" aria-label="Back to sessions" onClick={store.showList}>
          <span aria-hidden="true">‹</span> Sessions
        </button>
        <div class="session-header-main">
          <SessionTitle info={current} />
          {props.meter}
        </div>
        <div class="session-actions">
          <button type="button" onClick={() => void store.act('checks.verify', 'Verify')}>
            Verify
          </button>
          {props.running ? (
            <button type="button" onClick={() => store.openDialog('stop')}>
              Stop…
            </button>
          ) : (
            <button type="button" class={startIsPrimary(props.running, headerAdvice(current, null, Date.now())?.actions ?? null) ? 'primary' : ''} onClick={() => void store.act('start', resume)}>
              {resume}
            </button>
          )}
          <MenuButton label="More actions" id="session-more" items={more} />
        </div>
      </header>
      {props.actionStatus ? (
        <div class="muted action-status" role="status">
          {shown(props.actionStatus)}
        </div>
      ) : null}
    </>
  );
}
