// The Usage tab (DESIGN.md §5 "Usage", §13): the session's tokens today and in all, their cost with
// the price table's version, and a bar per day of the last two weeks, the same figures as a table for
// a screen reader (the bars are hidden from it). The figures are the store's (usage-store.ts); this
// file only lays them out. Runs in the renderer.
import type { DaemonEvent } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { usePane } from '../ui/pane-store.js';
import { Shown } from '../ui/shown-text.js';
import { usageSummary } from './usage-model.js';
import { UsageStore } from './usage-store.js';

export function UsagePane(props: { api: MoriApi; sessionId: string; onEvent: (l: (e: DaemonEvent) => void) => () => void }) {
  const [store, state] = usePane(() => new UsageStore(props.api, props.sessionId, props.onEvent));
  if (state.usage === null) return <div class="usage-pane empty">{state.status || 'Reading usage…'}</div>;
  const u = usageSummary(state.usage);
  return (
    <section class="usage-pane" aria-label="Usage">
      {u.note ? (
        <p class="muted">
          <Shown text={u.note} />
        </p>
      ) : null}
      <dl class="usage-figures">
        <div>
          <dt>Today</dt>
          <dd>{u.today}</dd>
        </div>
        <div>
          <dt>In all</dt>
          <dd>{u.total}</dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd>
            {u.cost} <span class="muted">({u.priceTable})</span>
          </dd>
        </div>
        {u.models ? (
          <div>
            <dt>Models</dt>
            <dd>
              <Shown text={u.models} />
            </dd>
          </div>
        ) : null}
      </dl>
      {u.bars.length > 0 ? (
        <>
          <h2 class="usage-heading">Tokens per day</h2>
          <div class="usage-bars" aria-hidden="true">
            {u.bars.map((b) => (
              <div class="usage-bar" key={b.day} title={`${b.day}: ${b.words} tokens, ${b.cost}`}>
                <span class="usage-bar-value">{b.words}</span>
                <span class="usage-bar-fill" style={{ height: `${Math.max(b.height, 1)}%` }} />
                <span class="usage-bar-day">{b.day.slice(5)}</span>
              </div>
            ))}
          </div>
          <table class="usage-table">
            <caption>Tokens and cost per day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Tokens</th>
                <th scope="col">Cost</th>
              </tr>
            </thead>
            <tbody>
              {u.bars.map((b) => (
                <tr key={b.day}>
                  <th scope="row">{b.day}</th>
                  <td>{b.words}</td>
                  <td>{b.cost}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      <p>
        <button type="button" onClick={() => void store.read()}>
          Read again
        </button>
        {state.status ? <span class="muted"> {state.status}</span> : null}
      </p>
    </section>
  );
}
