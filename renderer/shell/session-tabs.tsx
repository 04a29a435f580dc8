// The selected session's tabs (DESIGN.md §13): its terminal, its editable state files, its work log,
// its checks, its changes and its usage, as a tablist (arrow keys move; Enter on the Terminal tab takes the
// keyboard into the terminal) with a mark on a file's tab while it has unsaved edits (its place kept,
// and the bold of the selected tab reserved, so no tab changes width), and the panel
// of the open tab. The terminal stays mounted (its pool keeps the live xterms); the other panes are
// mounted afresh on each reconnect (`epoch`) so they read again. Runs in the renderer.
import type { LiveSession } from '../../common/ipc.js';
import { ChecksPane } from '../checks/checks-pane.js';
import { LazyChangesTab } from '../changes/lazy-changes-tab.js';
import { rovingIndex } from '../ui/roving.js';
import { StateEditor } from '../editor/state-editor.js';
import { TerminalPane } from '../terminal/terminal-pane.js';
import { UsagePane } from '../usage/usage-pane.js';
import type { Tab, WindowState, WindowStore } from './window-store.js';
import { WorkLog } from '../work-log/work-log.js';
import { ENVIRONMENT, SESSION_STATE, WORK_LOG } from '../../common/state-files.js';

export const TABS: { id: Tab; label: string }[] = [
  { id: 'terminal', label: 'Terminal' },
  { id: SESSION_STATE, label: SESSION_STATE },
  { id: ENVIRONMENT, label: ENVIRONMENT },
  { id: WORK_LOG, label: WORK_LOG },
  { id: 'checks', label: 'Checks' },
  { id: 'changes', label: 'Changes' },
  { id: 'usage', label: 'Usage' },
];

/** The tabs that can hold unsaved edits: each keeps a place for its marker, so it does not widen when one appears. */
const EDITABLE: readonly Tab[] = [SESSION_STATE, ENVIRONMENT];

export function SessionTabs(props: { store: WindowStore; state: WindowState; current: LiveSession }) {
  const { store, current } = props;
  const { tab, epoch } = props.state;
  const api = store.api;
  const unsaved = store.drafts.files(current.id);
  return (
    <>
      <div role="tablist" aria-label="Session views" class="tabs">
        {TABS.map((t) => (
          <button
            type="button"
            role="tab"
            key={t.id}
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => store.setTab(t.id)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && t.id === 'terminal') {
                // Enter on the Terminal tab takes the keyboard into the terminal (and is not typed there).
                e.preventDefault();
                store.enterTerminal();
                return;
              }
              const n = rovingIndex(e.key, TABS.findIndex((x) => x.id === tab), TABS.length);
              const next = n === null ? undefined : TABS[n];
              if (next) {
                e.preventDefault();
                store.setTab(next.id);
                document.getElementById(`tab-${next.id}`)?.focus();
              }
            }}
          >
            <span class="tab-label" data-label={t.label}>
              {t.label}
            </span>
            {EDITABLE.includes(t.id) ? (
              <span class="tab-mark">
                {unsaved.includes(t.id) ? (
                  <span class="tab-unsaved" role="img" aria-label="unsaved changes" title="Unsaved changes" />
                ) : null}
              </span>
            ) : null}
          </button>
        ))}
      </div>
      <div class="panel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        <TerminalPane api={api} pool={store.pool} sessionId={current.id} visible={tab === 'terminal'} focusRequest={props.state.focusRequest} searchRequest={props.state.searchRequest} />
        {tab === SESSION_STATE || tab === ENVIRONMENT ? <StateEditor key={`${current.id}:${tab}:${epoch}`} api={api} sessionId={current.id} file={tab} drafts={store.drafts} onEvent={store.onEvent} /> : null}
        {tab === WORK_LOG ? <WorkLog key={`${current.id}:${epoch}`} api={api} sessionId={current.id} onEvent={store.onEvent} /> : null}
        {tab === 'checks' ? (
          <ChecksPane key={`${current.id}:${epoch}`} api={api} sessionId={current.id} onEvent={store.onEvent} askTrust={props.state.trustRequest === current.id} onTrustAsked={store.trustAsked} />
        ) : null}
        {tab === 'changes' ? <LazyChangesTab key={`${current.id}:${epoch}`} api={api} session={current} onEvent={store.onEvent} /> : null}
        {tab === 'usage' ? <UsagePane key={`${current.id}:${epoch}`} api={api} sessionId={current.id} onEvent={store.onEvent} /> : null}
      </div>
    </>
  );
}
