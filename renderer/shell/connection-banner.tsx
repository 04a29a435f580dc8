// The banner while the daemon connection is down (DESIGN.md §13): connecting or reconnecting, that
// typing meanwhile was not sent, and why the connection failed. Runs in the renderer.
import type { WindowState } from './window-store.js';

export function ConnectionBanner(props: { connection: WindowState['connection']; everOpen: boolean; inputLost: boolean }) {
  const { connection } = props;
  if (connection.state === 'open') return null;
  return (
    <div class="banner banner-reconnect" role="status" aria-live="polite">
      <strong>{props.everOpen ? 'Reconnecting…' : 'Connecting to the Mori daemon…'}</strong>
      {props.inputLost ? <span class="banner-lost">What you typed meanwhile was not sent.</span> : null}
      {connection.detail ? (
        <span class="muted banner-detail" title={connection.detail}>
          {connection.detail}
        </span>
      ) : null}
    </div>
  );
}
