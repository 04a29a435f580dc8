// The selected session's header (DESIGN.md §13): its name, its state in words, where it runs (and its worktree's branch), and
// its actions (Verify; Stop, or Start/Resume; Rename and Remove), with the line saying how the last action went. Runs
// in the renderer.
import type { SessionInfo } from '../../common/ipc.js';
import { SessionManage } from './session-manage.js';
import { SessionTitle } from './session-title.js';
import type { WindowStore } from '../shell/window-store.js';
import { shown } from '../ui/shown-text.js';

export function SessionHeader(props: { store: WindowStore; current: SessionInfo; running: boolean; actionStatus: string }) {
  const { store, current } = props;
  const resume = current.intent.kind === 'interrupted' ? 'Resume' : 'Start';
  return (
    <>
      <header class="session-header">
        <SessionTitle info={current} />
        <div class="session-actions">
          <button type="button" onClick={() => void store.act('checks.verify', 'Verify')}>
            Verify
          </button>
          {props.running ? (
            <button type="button" onClick={() => void store.act('stop', 'Stop')}>
              Stop
            </button>
          ) : (
            <button type="button" onClick={() => void store.act('start', resume)}>
              {resume}
            </button>
          )}
          <SessionManage api={store.api} session={current} onStatus={store.setActionStatus} />
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
