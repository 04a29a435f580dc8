// The new session dialog's Sandbox choice (DESIGN.md §11 "Sandbox", §13): off or on, and when on how
// its sandbox reaches the network; both start as the daemon's settings have them. Runs in the renderer.
import type { SessionSandbox } from '../../common/session.js';
import { SANDBOX_NETWORKS } from '../../common/sandbox-networks.js';

const HINT_ID = 'new-session-sandbox-hint';
const NETWORK_HINT_ID = 'new-session-network-hint';

/** The network modes' words, in the order shown. */
const NETWORK_WORDS: Record<SessionSandbox['network'], string> = {
  full: 'Full',
  allowlist: 'Allowlist (through a proxy)',
  none: 'None',
};

export function SandboxChoice(props: { on: boolean; network: SessionSandbox['network']; onChange: (patch: { sandbox?: boolean; network?: SessionSandbox['network'] }) => void }) {
  return (
    <fieldset>
      <legend>Sandbox</legend>
      {([false, true] as const).map((on) => (
        <label class="inline" key={String(on)}>
          <input type="radio" name="sandbox" checked={props.on === on} aria-describedby={HINT_ID} onChange={() => props.onChange({ sandbox: on })} />
          {on ? 'On' : 'Off'}
        </label>
      ))}
      <p class="muted" id={HINT_ID}>
        On: the agent writes its project and its own config only; your home is read-only, Mori, other sessions and your desktop's keyring and agents are out of reach.
      </p>
      {props.on ? (
        <>
          <label>
            Network
            <select value={props.network} aria-describedby={NETWORK_HINT_ID} onChange={(e) => props.onChange({ network: (e.target as HTMLSelectElement).value as SessionSandbox['network'] })}>
              {SANDBOX_NETWORKS.map((n) => (
                <option key={n} value={n}>
                  {NETWORK_WORDS[n]}
                </option>
              ))}
            </select>
          </label>
          <p class="muted" id={NETWORK_HINT_ID}>
            Full: the network as you reach it. Allowlist: only the agent's API and the hosts in settings.json's sandbox.allowedHosts. None: no network at all.
          </p>
        </>
      ) : null}
    </fieldset>
  );
}
