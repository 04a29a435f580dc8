// The trust dialog of the checks tab (DESIGN.md §7): what the person approves with one Trust, shown
// exactly — the agent command line session.json gives a shell or custom session (where it came from,
// and that it runs as the agent), and the commands and addresses off this machine the checks name.
// Each is approved by the hash it was shown with (checks.trust, agent.trust): a list or command changed
// meanwhile is refused, not approved (checks-store.ts asks). Runs in the renderer.
import { trustListNoun } from '../../common/checks.js';
import type { ChecksListing } from '../../common/ipc.js';
import { agentCommandText, pendingTrust, trustTitle } from './checks-model.js';
import { Modal } from '../ui/modal.js';
import { hasHiddenText } from '../../common/visible-text.js';
import { Shown, shown } from '../ui/shown-text.js';

/** Said under what holds hidden characters: the approval is for exactly the characters the escapes name. */
function HiddenNote() {
  return (
    <p class="banner banner-error">
      <span>
        This holds control or invisible characters, shown marked as escapes (<code>\e</code> is ESC, <code>\xHH</code> and <code>\uHHHH</code> a character by its code,{' '}
        <code>\\</code> one backslash). Trust approves exactly these characters.
      </span>
    </p>
  );
}

export function TrustDialog(props: { listing: ChecksListing; onCancel: () => void; onTrust: () => void }) {
  const { listing } = props;
  const p = pendingTrust(listing);
  const what = trustListNoun(listing.trust.items, true);
  return (
    <Modal title={trustTitle(p, what)} onClose={props.onCancel} wide={p.agent !== null}>
      {p.agent ? (
        <section aria-label="Agent command">
          <h3>Runs as the agent</h3>
          <p>
            {p.agent.changed ? 'The agent command changed since you approved it. ' : ''}Mori starts this session's agent with exactly this command line, in the project folder
            and with your permissions, now and on every restart:
          </p>
          <pre class="trust-command" aria-label="Agent command line">
            {p.agent.command === null ? agentCommandText(p.agent) : <Shown text={p.agent.command} />}
          </pre>
          {hasHiddenText(p.agent.command ?? '') ? <HiddenNote /> : null}
          <p class="muted">From {shown(p.agent.where)}.</p>
        </section>
      ) : null}
      {p.checks ? (
        <section aria-label={`Checks' ${what}`}>
          {p.agent ? <h3>Run or contacted by the checks</h3> : null}
          <p>
            Mori will run or contact exactly these, from this session's environment.md, now and on every verification. An address off this machine is approved like a command:
            a check to it could carry data away.
          </p>
          <ul class="trust-items" aria-label={`${what[0]?.toUpperCase() ?? ''}${what.slice(1)} to trust`}>
            {listing.trust.items.map((i, n) => (
              <li key={n}>
                <span class="tag">{i.kind}</span>{' '}
                <code>
                  <Shown text={i.value} />
                </code>{' '}
                <span class="muted">{shown(i.where)}</span>
              </li>
            ))}
          </ul>
          {listing.trust.items.some((i) => hasHiddenText(i.value) || hasHiddenText(i.where)) ? <HiddenNote /> : null}
        </section>
      ) : null}
      <p>A later change {p.agent && p.checks ? 'to either' : p.agent ? 'to the command' : 'to the list'} asks again.</p>
      <div class="dialog-actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" class="primary" onClick={props.onTrust}>
          Trust
        </button>
      </div>
    </Modal>
  );
}
