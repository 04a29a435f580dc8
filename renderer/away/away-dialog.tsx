// The window's "While you were away" (DESIGN.md §9, §13): a dialog named by its title, what needs
// the person first (said there once, not again in its session), then per session a headed section with its timeline as a list in order, the
// checks, the files changed with a button to the session's Changes, the usage and the agent's own
// account (shown as text, its escapes marked). Lays out away-model.ts's view; the store acts. Runs in the renderer.
import { Modal } from '../ui/modal.js';
import { Shown } from '../ui/shown-text.js';
import { awayView, type SessionView } from './away-model.js';
import type { AwayState } from './away-store.js';
import './away-dialog.css';

export interface AwayActions {
  onGotIt: () => void;
  onClose: () => void;
  onChanges: (sessionId: string) => void;
}

function Account(props: { account: SessionView['account'] }) {
  const a = props.account;
  if ('problem' in a) return <p class="muted">session_state.md: {a.problem}</p>;
  return (
    <>
      {a.task.length > 0 ? (
        <p>
          <strong>Task now:</strong> <Shown text={a.task.join(' · ')} />
        </p>
      ) : null}
      {a.nextSteps.length > 0 ? (
        <p>
          <strong>Next steps:</strong> <Shown text={a.nextSteps.join(' · ')} />
        </p>
      ) : null}
      {a.logLines.length > 0 ? (
        <ul class="away-log" aria-label="The agent's last work-log lines">
          {a.logLines.map((l, i) => (
            <li key={i}>
              <Shown text={l} />
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

function SessionReport(props: { s: SessionView; onChanges: (id: string) => void }) {
  const { s } = props;
  const headingId = `away-${s.id.replace(/\W+/g, '-')}`;
  return (
    <section class="away-session" aria-labelledby={headingId}>
      <h3 id={headingId}>
        <Shown text={s.title} />
      </h3>
      {s.items.length > 0 ? (
        <ol class="away-timeline" aria-label={`What happened in ${s.title}`}>
          {s.items.map((i, n) => (
            <li key={n} class={`away-${i.tone}`}>
              <time>{i.time}</time> <Shown text={i.text} />
            </li>
          ))}
        </ol>
      ) : null}
      {s.checks !== null ? <p>{s.checks}</p> : null}
      {s.changes !== null ? (
        'problem' in s.changes ? (
          <p class="muted">Files changed: {s.changes.problem}</p>
        ) : (
          <div class="away-changes">
            <p>
              {s.changes.heading}: {s.changes.files.length === 0 ? 'none' : <Shown text={s.changes.files.join(', ')} />}
            </p>
            <button type="button" onClick={() => props.onChanges(s.id)} aria-label={`Open the Changes of ${s.title}`}>
              Changes
            </button>
          </div>
        )
      ) : null}
      <p class="muted">{s.usage}</p>
      <Account account={s.account} />
    </section>
  );
}

export function AwayDialog(props: { state: AwayState } & AwayActions) {
  const { report, status } = props.state;
  const view = report === null ? null : awayView(report);
  return (
    <Modal title="While you were away" onClose={props.onClose} wide>
      {/* Focus starts on the report itself, so that the arrows scroll it and Enter acts on nothing unread. */}
      <div class="away-body" tabIndex={0} role="region" aria-label="The report">
        {view === null ? null : (
          <>
            <p class="muted">{view.since}</p>
            {view.needsYou.length > 0 ? (
              <section class="away-first" aria-labelledby="away-needs-you">
                <h3 id="away-needs-you">Needs you now</h3>
                <ul>
                  {view.needsYou.map((n) => (
                    <li key={n.session}>
                      <strong>
                        <Shown text={n.session} />
                      </strong>
                      : <Shown text={n.why} />
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}
            {view.sessions.length === 0 ? <p>Nothing happened.</p> : view.sessions.map((s) => <SessionReport key={s.id} s={s} onChanges={props.onChanges} />)}
            {view.quiet !== null ? <p class="muted">{view.quiet}</p> : null}
          </>
        )}
      </div>
      <p role="status" class="muted">
        {status}
      </p>
      <div class="dialog-actions">
        <button type="button" onClick={props.onClose}>
          Later
        </button>
        <button type="button" class="primary" onClick={props.onGotIt}>
          Got it
        </button>
      </div>
    </Modal>
  );
}
