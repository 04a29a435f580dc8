// The session header's context meter (DESIGN.md §5 "Usage", §13): the last request's context against
// the model's window as a meter with its tokens and share in words, a badge while it is past the share
// the person set, and a live region that says each crossing once. The figures are the store's
// (usage-store.ts); this file only lays them out. Runs in the renderer.
import type { DaemonEvent } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { usePane } from '../ui/pane-store.js';
import { meterView } from './usage-model.js';
import { UsageStore } from './usage-store.js';

export function ContextMeter(props: { api: MoriApi; sessionId: string; onEvent: (l: (e: DaemonEvent) => void) => () => void }) {
  const [, state] = usePane(() => new UsageStore(props.api, props.sessionId, props.onEvent));
  const view = meterView(state.usage);
  return (
    <div class={`context-meter${view?.over ? ' over' : ''}`}>
      {view ? (
        <>
          <span class="context-label">Context</span>
          {view.percent !== null ? (
            <div class="meter-track" role="meter" aria-label="Context used" aria-valuemin={0} aria-valuemax={100} aria-valuenow={view.percent} aria-valuetext={view.text}>
              <div class="meter-fill" style={{ width: `${view.percent}%` }} />
            </div>
          ) : null}
          <span class="context-figures">{view.text}</span>
          {view.over ? <span class="badge context-over">{view.over}</span> : null}
        </>
      ) : null}
      <span role="status" class="visually-hidden">
        {state.notice}
      </span>
    </div>
  );
}
