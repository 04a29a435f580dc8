// The window (DESIGN.md §13): the sessions list on the left with the notices; the selected session's
// header, advice and tabs; the banner while the daemon connection is down; the open dialog; "While
// you were away" (renderer/away/, its own store). On a phone (styles.css's narrow layout) the list
// and the session are two screens, `data-screen` saying which is shown; without a session there is
// only the list. The state and its actions are renderer/shell/window-store.ts's; this file only lays
// the parts out. Runs in the renderer.
import { useEffect, useMemo } from 'preact/hooks';
import { AwayDialog } from '../away/away-dialog.js';
import { AwayStore } from '../away/away-store.js';
import type { MoriApi } from '../../common/mori-api.js';
import { ConnectionBanner } from './connection-banner.js';
import { ContextMeter } from '../usage/context-meter.js';
import { NoticesPanel } from '../notices/notices-panel.js';
import { SessionAdvice } from '../header/session-advice.js';
import { SessionHeader } from '../header/session-header.js';
import { SessionsSidebar } from '../sessions/sessions-sidebar.js';
import { RemoteHosts } from '../sessions/remote-hosts.js';
import { SessionTabs } from './session-tabs.js';
import { SidebarSplitter } from '../sessions/sidebar-splitter.js';
import { useWindowKeys } from './use-window-keys.js';
import { usePane } from '../ui/pane-store.js';
import { Welcome } from './welcome.js';
import { WindowDialogs } from './window-dialogs.js';
import { useWindowState, WindowStore } from './window-store.js';

export function App(props: { api: MoriApi; pageNotifies: boolean }) {
  const store = useMemo(() => new WindowStore(props.api, props.pageNotifies), [props.api, props.pageNotifies]);
  const state = useWindowState(store);
  useEffect(() => store.start(), [store]);
  const [away, awayState] = usePane(() => new AwayStore(props.api));
  useWindowKeys(store.shortcut);
  const current = store.current;
  return (
    <div class="app" data-screen={current ? state.screen : 'list'}>
      <aside class="sidebar" aria-label="Sessions and notices">
        <div class="brand">Mori</div>
        <SessionsSidebar sessions={state.sessions} selected={state.selected} lastActivity={store.lastActivity} now={state.now} onSelect={store.select} onOpen={store.open} onEnter={store.enterTerminal} />
        <RemoteHosts hosts={state.hosts} />
        <div class="sidebar-actions">
          <button type="button" class="primary" onClick={() => store.openDialog('new')}>
            New session
          </button>
          <button type="button" onClick={() => store.openDialog('settings')}>
            Settings
          </button>
        </div>
        <NoticesPanel
          notices={store.notices.groups}
          permission={state.permission}
          onSelect={store.openSession}
          onDismiss={store.notices.dismiss}
          onClear={store.notices.clear}
          onAskBrowser={store.askBrowser}
        />
        <SidebarSplitter />
      </aside>
      <main class="main">
        <ConnectionBanner connection={state.connection} everOpen={state.everOpen} inputLost={store.pool.inputLostSince(state.lostConnectionAt ?? 0)} />
        {current ? (
          <>
            <SessionHeader
              store={store}
              current={current}
              running={store.running}
              actionStatus={state.actionStatus}
              meter={<ContextMeter key={`${current.id}:${state.epoch}`} api={store.api} sessionId={current.id} onEvent={store.onEvent} />}
            />
            <SessionAdvice
              key={current.id}
              api={store.api}
              pool={store.pool}
              info={current}
              message={store.attentionMessages.get(current.id) ?? current.attention?.message ?? null}
              onOpen={store.setTab}
              onReviewTrust={() => store.reviewTrust(current.id)}
              onStatus={store.setActionStatus}
            />
            <SessionTabs store={store} state={state} current={current} />
          </>
        ) : (
          <Welcome />
        )}
      </main>
      <WindowDialogs store={store} state={state} onAway={() => void away.show()} />
      {awayState.shown ? (
        <AwayDialog
          state={awayState}
          onGotIt={() => void away.dismiss()}
          onClose={away.hide}
          onChanges={(id) => {
            away.hide();
            store.select(id);
            store.setTab('changes');
          }}
        />
      ) : null}
    </div>
  );
}
