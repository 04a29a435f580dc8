// A remote session's keystroke echo through OpenSSH (DESIGN.md §12, sessions on other hosts): a real
// sshd on a loopback port (its own key and config), a second Mori home as the remote with a `cat`
// session, and the system's `ssh` running `mori bridge` there. Each keystroke's time to its echo,
// one at a time, through ssh and through the daemon's own socket, rounds alternating so load on the
// machine hits both alike. Budget: through ssh p95 ≤ 2 × the local socket's p95 + 5 ms.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ControlClient } from '../main/daemon-client/control-client.js';
import { controlDir, RemoteClient } from '../main/remote/remote-client.js';
import { MORI_BIN, tempDir } from '../testkit/mori-cli.js';
import { shq, SSHD, SshServer } from '../testkit/sshd.js';
import { echoLatencies, Screen } from './lib/echo-screen.js';
import { percentile } from './lib/percentile.js';

const KEYSTROKES = 200;
/** Rounds alternate ssh / socket so a burst of load on the machine hits both alike. */
const ROUNDS = 4;
const BUDGET = { ratio: 2, slackMs: 5 };


function mori(home: string, args: string[]): string {
  const r = spawnSync(process.execPath, [MORI_BIN, ...args], { env: { ...process.env, MORI_HOME: home }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mori ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

interface Attachable {
  onStream: ControlClient['onStream'];
  notify: ControlClient['notify'];
  request: ControlClient['request'];
}

/** Attaches to the `cat` session; the screen it fills, acking what it reads as a view does. */
async function attach(c: Attachable): Promise<Screen> {
  const screen = new Screen();
  c.onStream((m) => {
    if (m.kind !== 'frame') return;
    screen.push(m.frame.data);
    if (m.frame.kind === 'output') c.notify('ack', { chars: m.frame.data.length });
  });
  const a = await c.request('attach', { session: 'echo', cols: 120, rows: 40 });
  if (!a.ok) throw new Error(a.message);
  return screen;
}

async function main(): Promise<void> {
  if (!existsSync(SSHD)) {
    process.stdout.write(JSON.stringify({ name: 'remote-echo', pass: false, error: `${SSHD} is not installed (apt-get install openssh-server openssh-client)` }) + '\n');
    return;
  }
  const tmp = tempDir('bench-remote');
  const remoteHome = path.join(tmp, 'remote-home');
  const localHome = path.join(tmp, 'local-home');
  const project = path.join(tmp, 'project');
  mkdirSync(project);
  mkdirSync(localHome, { mode: 0o700 });
  spawnSync('git', ['-C', project, 'init', '-q']);
  mori(remoteHome, ['init', project, '--name', 'echo', '--agent', 'shell', '--command', 'cat', '--backend', 'direct']);
  mori(remoteHome, ['up', '--daemon']);
  const sshd = new SshServer();
  let remote: RemoteClient | null = null;
  let local: ControlClient | null = null;
  try {
    await sshd.start();
    const bridge = ['env', shq(`MORI_HOME=${remoteHome}`), shq(process.execPath), shq(MORI_BIN), 'bridge'].join(' ');
    const r = await RemoteClient.connect({ name: 'box', destination: sshd.destination, sshOptions: sshd.options(), remoteCommand: bridge }, { home: localHome });
    if (!r.ok) throw new Error(r.message);
    remote = r.value;
    const l = await ControlClient.connect(remoteHome);
    if (!l.ok) throw new Error(l.message);
    local = l.value;
    const viaSsh = await attach(remote);
    const viaSocket = await attach(local);
    const ssh: number[] = [];
    const socket: number[] = [];
    const per = KEYSTROKES / ROUNDS;
    for (let round = 0; round < ROUNDS; round++) {
      ssh.push(...(await echoLatencies((d) => remote?.notify('input', { data: d }), viaSsh, per)));
      socket.push(...(await echoLatencies((d) => local?.notify('input', { data: d }), viaSocket, per)));
    }
    const sshP95 = percentile(ssh, 95);
    const socketP95 = percentile(socket, 95);
    const limit = BUDGET.ratio * socketP95 + BUDGET.slackMs;
    process.stdout.write(
      JSON.stringify({
        name: 'remote-echo',
        budget: `keystroke echo through ssh (mori bridge) p95 <= ${BUDGET.ratio} x the local socket's p95 + ${BUDGET.slackMs} ms`,
        pass: sshP95 <= limit,
        keystrokes: KEYSTROKES,
        echoSshP95Ms: +sshP95.toFixed(2),
        echoSocketP95Ms: +socketP95.toFixed(2),
        echoSshLimitMs: +limit.toFixed(2),
        ratio: +(sshP95 / socketP95).toFixed(2),
      }) + '\n',
    );
  } finally {
    remote?.close();
    local?.close();
    // The connection ssh keeps shared (ControlPersist) ends with the bench, not minutes later.
    const shared = controlDir(localHome);
    if (existsSync(shared)) for (const f of readdirSync(shared)) spawnSync('ssh', ['-o', `ControlPath=${path.join(shared, f)}`, '-O', 'exit', 'shared'], { stdio: 'ignore', timeout: 10_000 });
    sshd.stop();
    spawnSync(process.execPath, [MORI_BIN, 'down'], { env: { ...process.env, MORI_HOME: remoteHome } });
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
