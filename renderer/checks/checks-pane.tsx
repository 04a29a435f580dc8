// The checks tab (DESIGN.md §7): every check derived from environment.md with its source line, its
// last result, duration and the tail of failing output; Verify runs them now. Commands and network
// checks off this machine need approval and show as untrusted until given it, as does a shell or
// custom session's agent command; the Trust dialog (trust-dialog.tsx) shows exactly what it approves.
// Asked to (Review and trust… in the header), it opens the dialog once the listing is read. Its
// state and reads are checks-store.ts's, its decisions checks-model.ts's. Runs in the renderer.
import { useEffect } from 'preact/hooks';
import { trustListNoun } from '../../common/checks.js';
import type { DaemonEvent } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { agentCommandText, outputTail, pendingTrust } from './checks-model.js';
import { ChecksStore } from './checks-store.js';
import { TrustDialog } from './trust-dialog.js';
import { usePane } from '../ui/pane-store.js';
import { Shown, ShownLines, shown } from '../ui/shown-text.js';
import { When } from '../ui/when.js';

export function ChecksPane(props: {
  api: MoriApi;
  sessionId: string;
  onEvent: (l: (e: DaemonEvent) => void) => () => void;
  /** Open the Trust dialog once the listing is read (Review and trust…); `onTrustAsked` says it was. */
  askTrust?: boolean;
  onTrustAsked?: () => void;
}) {
  const [store, { listing, running, status, trusting }] = usePane(() => new ChecksStore(props.api, props.sessionId, props.onEvent));

  useEffect(() => {
    if (props.askTrust && store.askTrust()) props.onTrustAsked?.();
  }, [props.askTrust, listing]);

  const results = new Map((listing?.lastVerification?.results ?? []).map((r) => [r.id, r]));
  const pending = pendingTrust(listing);
  const needsTrust = pending.checks || pending.agent !== null;
  const agent = listing?.agentCommand ?? null;
  // `commands`, `addresses` or both: what the banner and the dialog ask about.
  const what = trustListNoun(listing?.trust.items ?? [], true);
  return (
    <div class="checks-pane">
      <div class="checks-bar">
        <button type="button" onClick={() => void store.verify()} disabled={running}>
          Verify
        </button>
        {needsTrust ? (
          <button type="button" onClick={() => store.showTrust(true)}>
            Trust…
          </button>
        ) : null}
        <span class="muted" role="status">
          {running ? 'Verifying…' : shown(status)}
        </span>
        {listing?.lastVerification ? (
          <span class="muted checks-last">
            Last verified <When at={listing.lastVerification.at} />
          </span>
        ) : null}
      </div>
      {pending.agent ? (
        <p class="banner">
          <span>
            {pending.agent.changed ? 'The agent command changed since you approved it' : 'The agent command has not been approved yet'}:{' '}
            <code>{pending.agent.command === null ? agentCommandText(pending.agent) : <Shown text={pending.agent.command} />}</code>.
            The agent does not start until you trust it.
          </span>
        </p>
      ) : null}
      {agent?.refused ? (
        <p class="banner banner-error">
          <span>The agent command in session.json cannot run, whoever approves it: {shown(agent.refused)}. Fix agent.command in session.json.</span>
        </p>
      ) : null}
      {pending.checks && listing ? (
        <p class="banner">
          {listing.trust.changed ? `The ${what} changed since you approved them.` : `These ${what} have not been approved yet.`} Untrusted checks do not run until you trust them.
        </p>
      ) : null}
      {listing && listing.checks.length === 0 ? <p class="empty">No checks: environment.md lists none under “## Checks”.</p> : null}
      <ul class="check-list" aria-label="Checks">
        {listing?.checks.map((c) => {
          const r = results.get(c.id);
          const st = !c.trusted ? 'untrusted' : (r?.status ?? 'not run');
          return (
            <li key={c.id} class={`check status-${st.replace(' ', '-')}`} aria-label={shown(`${c.label ?? c.kind} ${c.target}: ${st}`)}>
              <div class="check-head">
                <span class="check-status">{st}</span>
                <strong>
                  <Shown text={c.label ?? c.kind} />
                </strong>
                <code>
                  <Shown text={c.target} />
                </code>
                <span class="muted check-source">
                  {shown(c.source.file)}:{c.source.line}
                </span>
                {r && c.trusted ? <span class="muted">{(r.durationMs / 1000).toFixed(1)} s</span> : null}
              </div>
              {r && c.trusted && r.status !== 'pass' && r.detail ? <div class="check-detail">
                  <ShownLines text={r.detail} />
                </div> : null}
              {r && c.trusted && (r.status === 'fail' || r.status === 'timeout') && r.outputTail ? <pre class="check-output">
                  <ShownLines text={outputTail(r.outputTail)} />
                </pre> : null}
            </li>
          );
        })}
      </ul>
      {listing && listing.unparsed.some((u) => u.severity === 'malformed') ? (
        <section aria-label="Lines that gave no check">
          <h3>Lines that gave no check</h3>
          <ul>
            {listing.unparsed
              .filter((u) => u.severity === 'malformed')
              .map((u) => (
                <li key={`${u.source.line}`}>
                  <code>
                    {shown(u.source.file)}:{u.source.line}
                  </code>{' '}
                  <Shown text={u.text} /> — {shown(u.reason)}
                </li>
              ))}
          </ul>
        </section>
      ) : null}
      {trusting && listing ? <TrustDialog listing={listing} onCancel={() => store.showTrust(false)} onTrust={() => void store.trust()} /> : null}
    </div>
  );
}
