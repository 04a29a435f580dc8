// The remote hosts in the window's sidebar (DESIGN.md §12, §13): only the ones not connected, each
// with what is wrong ("box — unreachable: ssh: connect to host … refused"), so a host whose sessions
// are missing from the list says why; nothing while every host answers. Runs in the renderer.
import type { HostStatus } from '../../common/mori-api.js';

const words = (h: HostStatus): string => (h.state === 'connecting' && h.detail === '' ? 'connecting…' : `unreachable${h.detail ? `: ${h.detail}` : ''}`);

export function RemoteHosts(props: { hosts: readonly HostStatus[] }) {
  const away = props.hosts.filter((h) => h.state !== 'open');
  if (away.length === 0) return null;
  return (
    <ul class="remote-hosts" aria-label="Remote hosts not connected">
      {away.map((h) => (
        <li key={h.name} title={h.detail || undefined}>
          <strong>{h.name}</strong> — {words(h)}
        </li>
      ))}
    </ul>
  );
}
