// The sandbox holds against its own agent: a real supervised agent (a shell session whose program is
// a script) in a real bubblewrap sandbox under `mori up --daemon` tries to reach Mori's control
// socket, list Mori's home, reach the tmux server that holds another session's agent and type into
// it (by tmux and by its pty), see Mori's processes in /proc, write another project, another
// session's state files, its own session.json and the person's ~/.bashrc, and approve a check through
// a double-forked setsid process. Each fails; the agent still writes its project and its work log.
// A sandboxed session whose bwrap is missing waits in attention, never started without it.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MORI_BIN } from '../../../testkit/mori-cli.js';
import { DEADLINE_MS, until, UpHarness } from '../../support/mori-up.js';

const bwrapWorks = ((): boolean => {
  try {
    execFileSync('bwrap', ['--unshare-pid', '--ro-bind', '/', '/', '--proc', '/proc', '--', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const hasTmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;

let h: UpHarness | null = null;
/** A file the agent tries to make in the person's home: removed whatever happened (a sandbox that failed made it). */
const homeProbe = path.join(os.homedir(), `.mori-sandbox-probe-${process.pid}`);
afterEach(() => {
  h?.cleanup();
  h = null;
  rmSync(homeProbe, { force: true });
});

/** A probe of the control socket as an agent could write one: CONNECTED, or the error's code. */
const CONNECT = `const s = require('net').connect(process.argv[1]); s.on('connect', () => { console.log('CONNECTED'); process.exit(0); }); s.on('error', (e) => { console.log(e.code); process.exit(1); });`;

/** The attacker's script: each attempt's exit code (and what it saw) in `out`, then `done`. */
function attackScript(h: UpHarness, out: string, other: string, bashrcProbe: string): string {
  const mori = `'${process.execPath}' '${MORI_BIN}'`;
  const r = (name: string) => `> '${out}/${name}.out' 2>&1; echo $? > '${out}/${name}.code'`;
  return [
    `'${process.execPath}' -e "${CONNECT}" "$MORI_HOME/mori.sock" ${r('socket')}`,
    `python3 -c "import socket,os; socket.socket(socket.AF_UNIX).connect(os.environ['MORI_HOME'] + '/mori.sock')" ${r('socket-py')}`,
    `ls -A "$MORI_HOME" ${r('home-list')}`,
    `tmux -L '${h.socketName}' ls ${r('tmux-ls')}`,
    `tmux -L '${h.socketName}' send-keys -t mori-victim 'pwned' Enter ${r('tmux-send')}`,
    `echo pwned > "$(cat '${h.project}/victim-tty')" ${r('pty-write')}`,
    `for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline; echo; done ${r('proc')}`,
    `sh -c "echo evil > '${other}/file.txt'" ${r('other-project')}`,
    `sh -c "echo evil > '${h.stateDir('victim')}/session_state.md'" ${r('other-state')}`,
    `sh -c 'echo {} > "$MORI_STATE_DIR/session.json"' ${r('own-session-json')}`,
    `true >> "$HOME/.bashrc" ${r('bashrc')}`,
    `touch '${bashrcProbe}' ${r('home-write')}`,
    // Started in a new session and re-parented at once: the approval escape of an unsandboxed agent.
    `setsid -f sh -c "${mori} trust victim --yes --json > '${out}/setsid.out' 2>&1; echo \\$? > '${out}/setsid.code'"`,
    `while [ ! -f '${out}/setsid.code' ]; do sleep 0.1; done`,
    // The agent's own work still works.
    `sh -c "echo made > '${h.project}/made-by-agent.txt'" ${r('project-write')}`,
    `sh -c 'printf "\\n## agent\\n- wrote made-by-agent.txt\\n" >> "$MORI_STATE_DIR/work_log.md"' ${r('work-log')}`,
    `echo done > '${out}/done'`,
    'exec sleep 600',
  ].join('\n');
}

describe.skipIf(!bwrapWorks && !process.env['CI'])('a sandboxed agent (real bubblewrap)', () => {
  it('reaches neither Mori nor other sessions nor the person\'s files, and still does its own work', { timeout: 150_000 }, async () => {
    h = new UpHarness('sandbox-escape');
    const out = path.join(h.project, 'sbx-results');
    const other = path.join(h.tmp, 'other-project');
    mkdirSync(out);
    mkdirSync(other);
    writeFileSync(path.join(other, 'file.txt'), 'theirs\n');
    const bashrcProbe = homeProbe;
    const script = path.join(h.project, 'attack.sh');
    writeFileSync(script, attackScript(h, out, other, bashrcProbe));
    const backend = hasTmux ? 'tmux' : 'direct';
    // The victim: another session's agent, unsandboxed, that says where its terminal is and waits for a line.
    const victim = h.mori('init', h.project, '--name', 'victim', '--agent', 'shell', '--backend', backend, '--command', `sh -c 'tty > ${h.project}/victim-tty; read x; echo "$x" > ${h.project}/victim-got; exec sleep 600'`);
    expect(victim.code, victim.stderr).toBe(0);
    const attacker = h.mori('init', h.project, '--name', 'attacker', '--agent', 'shell', '--backend', 'direct', '--sandbox', '--command', `sh ${script}`, '--json');
    expect(attacker.code, attacker.stderr).toBe(0);
    expect(JSON.parse(attacker.stdout)).toMatchObject({ sandboxed: true });
    const trustFile = path.join(h.home, 'trust.json');
    const trustBefore = readFileSync(trustFile);
    const victimStateBefore = readFileSync(path.join(h.stateDir('victim'), 'session_state.md'), 'utf8');
    const sessionJsonBefore = readFileSync(path.join(h.stateDir('attacker'), 'session.json'), 'utf8');

    const up = h.mori('up', '--daemon', 'victim');
    expect(up.code, up.stderr).toBe(0);
    await until('the victim says its terminal', () => existsSync(path.join(h!.project, 'victim-tty')), () => '', DEADLINE_MS);
    const start = h.mori('start', 'attacker');
    expect(start.code, start.stderr).toBe(0);
    await until('the agent tried everything', () => existsSync(path.join(out, 'done')), () => readdirSync(out).join(', '), DEADLINE_MS * 2);

    const code = (name: string): string => readFileSync(path.join(out, `${name}.code`), 'utf8').trim();
    // A redirection that fails leaves no output file: nothing said.
    const said = (name: string): string => (existsSync(path.join(out, `${name}.out`)) ? readFileSync(path.join(out, `${name}.out`), 'utf8') : '');
    const failed = (name: string): void => expect(code(name), `${name}: ${said(name)}`).not.toBe('0');

    // Mori's control socket: not there to connect to.
    failed('socket');
    expect(said('socket')).not.toContain('CONNECTED');
    failed('socket-py');
    // Mori's home: nothing of it but what this launch's hooks need (a shell agent has none).
    // (Here it lies in /tmp, the sandbox's own: not there at all.)
    if (code('home-list') === '0') expect(said('home-list').split('\n').filter((l) => l !== '').every((l) => l === 'hooks'), said('home-list')).toBe(true);
    else expect(said('home-list')).toMatch(/No such file/);
    expect(readdirSync(h.home)).toContain('mori.sock');
    // The tmux server that holds the victim, and the victim's own terminal.
    if (hasTmux) {
      failed('tmux-ls');
      failed('tmux-send');
    }
    failed('pty-write');
    // Its own processes only: no daemon, no tmux server, no victim.
    const procs = said('proc');
    expect(procs).not.toContain(MORI_BIN);
    expect(procs).not.toContain('victim-tty');
    expect(procs).not.toMatch(/tmux/);
    // Another project, another session's state, its own session.json, the person's home: unchanged.
    expect(readFileSync(path.join(other, 'file.txt'), 'utf8')).toBe('theirs\n');
    expect(readFileSync(path.join(h.stateDir('victim'), 'session_state.md'), 'utf8')).toBe(victimStateBefore);
    failed('own-session-json');
    expect(readFileSync(path.join(h.stateDir('attacker'), 'session.json'), 'utf8')).not.toBe('{}\n');
    if (existsSync(path.join(os.homedir(), '.bashrc'))) failed('bashrc');
    failed('home-write');
    expect(existsSync(bashrcProbe)).toBe(false);
    // The setsid escape: nothing approved, the trust store byte for byte.
    expect(readFileSync(path.join(out, 'setsid.code'), 'utf8').trim(), readFileSync(path.join(out, 'setsid.out'), 'utf8')).not.toBe('0');
    expect(readFileSync(trustFile).equals(trustBefore)).toBe(true);
    expect(existsSync(path.join(h.project, 'victim-got'))).toBe(false);
    // Its own work: the project and its work log.
    expect(code('project-write')).toBe('0');
    expect(readFileSync(path.join(h.project, 'made-by-agent.txt'), 'utf8')).toBe('made\n');
    expect(h.workLog('attacker')).toContain('wrote made-by-agent.txt');
    expect(JSON.parse(readFileSync(path.join(h.stateDir('attacker'), 'session.json'), 'utf8'))).toMatchObject({ sandbox: { on: true, network: 'full', home: 'read-only' } });
    expect(sessionJsonBefore).toContain('"sandbox"');
    const ls = JSON.parse(h.mori('ls', '--json').stdout) as { sessions?: { sandboxed: boolean }[] } | { sandboxed: boolean }[];
    expect(JSON.stringify(ls)).toMatch(/"sandboxed":true/);
  });

  it('waits in attention(sandbox-unavailable) naming what is missing when bwrap is not there, and never runs unsandboxed', { timeout: 60_000 }, async () => {
    h = new UpHarness('sandbox-missing', { MORI_BWRAP: '/nonexistent/bwrap' });
    const marker = path.join(h.project, 'ran');
    const init = h.mori('init', h.project, '--name', 'boxed', '--agent', 'shell', '--backend', 'direct', '--sandbox', '--command', `touch ${marker}`);
    expect(init.code, init.stderr).toBe(0);
    const up = h.mori('up', '--daemon', 'boxed');
    expect(up.code, up.stderr).toBe(0);
    const intent = (): { kind: string; reason?: string } => (JSON.parse(readFileSync(path.join(h!.stateDir('boxed'), 'session.json'), 'utf8')) as { intent: { kind: string; reason?: string } }).intent;
    await until('the session is in attention', () => intent().kind === 'attention', () => JSON.stringify(intent()), DEADLINE_MS);
    expect(intent()).toEqual({ kind: 'attention', reason: 'sandbox-unavailable' });
    const status = h.mori('status', 'boxed');
    expect(status.stdout + h.workLog('boxed')).toMatch(/apt-get install bubblewrap/);
    expect(existsSync(marker)).toBe(false);
  });
});
