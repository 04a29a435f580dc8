// The remote hosts in the window's sidebar (DESIGN.md §12, §13): only the ones not connected, each
// with what is wrong, in full ("box — unreachable: … the ssh login did not finish within 2 s …"), so
// a host whose sessions are missing from the list says why; "connecting…" only until its first login
// ends, which the login bound keeps short; nothing while every host answers. Runs in the renderer.
import type { HostStatus } from '../../common/mori-api.js';

const words = (h: HostStatus): string => (h.state === 'connecting' && h.detail === '' ? 'connecting…' : `unreachable${h.detail ? `: ${h.detail}` : ''}`);

export function RemoteHosts(props: { hosts: readonly HostStatus[] }) {
  const away = props.hosts.filter((h) => h.state !== 'open');
  if (away.length === 0) return null;
  return (
    <ul class="remote-hosts" aria-label="Remote hosts not connected">
      {away.map((h) => (
        <li key={h.name}>
          <strong>{h.name}</strong> — {words(h)}
        </li>
      ))}
    </ul>
  );
}
