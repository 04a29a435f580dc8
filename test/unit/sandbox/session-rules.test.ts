// The sandbox rules of one launch: the work dir and the session's own state files writable, its
// session.json read-only, Mori's home and the desktop's sockets hidden but for this launch's hooks.
import { describe, expect, it } from 'vitest';
import { claudeProfile } from '../../../main/agents/claude/profile.js';
import { codexProfile } from '../../../main/agents/codex/profile.js';
import { geminiProfile } from '../../../main/agents/gemini/profile.js';
import { opencodeProfile } from '../../../main/agents/opencode/profile.js';
import { sessionSandboxRules, type LaunchPlaces, type SandboxChoice } from '../../../main/sandbox/session-rules.js';

const env = {
  HOME: '/home/p',
  XDG_RUNTIME_DIR: '/run/user/1000',
  SSH_AUTH_SOCK: '/tmp/ssh-x/agent.1',
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/dbus/user-bus,guid=abc',
  WAYLAND_DISPLAY: 'wayland-0',
  TMUX_TMPDIR: '/var/tmux',
};
const places: LaunchPlaces = {
  workDir: '/home/p/proj',
  stateDir: '/home/p/proj/.mori/main',
  moriHome: '/home/p/.config/Mori',
  hooks: { spoolDir: '/home/p/.config/Mori/hooks/abc', readable: ['/home/p/.config/Mori/hooks/report.sh', '/home/p/.config/Mori/hooks/abc.json'] },
  configPaths: claudeProfile.configPaths?.(env) ?? [],
  env,
  uid: 1000,
};
const choice: SandboxChoice = { network: 'full', home: 'read-only', readWrite: ['~/.npm'], readOnly: ['~/.gitconfig', '/opt/tools'] };

describe('sessionSandboxRules', () => {
  const r = sessionSandboxRules(places, choice);

  it('binds the work dir, the three state files, the CLI dirs, the spool and the listed paths read-write', () => {
    expect(r.readWrite).toEqual([
      '/home/p/proj',
      '/home/p/proj/.mori/main/session_state.md',
      '/home/p/proj/.mori/main/environment.md',
      '/home/p/proj/.mori/main/work_log.md',
      '/home/p/.claude',
      '/home/p/.claude.json',
      '/home/p/.config/Mori/hooks/abc',
      '/home/p/.npm',
    ]);
  });

  it('keeps session.json and transcript/ (the state dir) and the hook files read-only', () => {
    expect(r.readOnly).toEqual(['/home/p/proj/.mori/main', '/home/p/.config/Mori/hooks/report.sh', '/home/p/.config/Mori/hooks/abc.json', '/home/p/.gitconfig', '/opt/tools']);
  });

  it('hides Mori, other sessions, the desktop sockets, tmux and /tmp', () => {
    for (const p of ['/home/p/.config/Mori', '/home/p/proj/.mori', '/run/user/1000', '/tmp/ssh-x/agent.1', '/run/dbus/user-bus', '/run/user/1000/wayland-0', '/tmp/.X11-unix', '/home/p/.gnupg', '/var/tmux/tmux-1000', '/tmp']) {
      expect(r.hidden).toContain(p);
    }
    expect(r.hidden).not.toContain('/home/p');
  });

  it('hides the home when asked', () => {
    expect(sessionSandboxRules(places, { ...choice, home: 'hidden' }).hidden).toContain('/home/p');
  });

  it("follows each CLI's own overrides of its dirs", () => {
    // With CLAUDE_CONFIG_DIR set, claude keeps its .claude.json inside that dir, not in the home.
    expect(claudeProfile.configPaths?.({ HOME: '/h', CLAUDE_CONFIG_DIR: '/c' })).toEqual(['/c']);
    expect(claudeProfile.configPaths?.({ HOME: '/h' })).toEqual(['/h/.claude', '/h/.claude.json']);
    expect(codexProfile.configPaths?.({ HOME: '/h', CODEX_HOME: '/x' })).toEqual(['/x']);
    expect(geminiProfile.configPaths?.({ HOME: '/h', GEMINI_CLI_HOME: '/g' })).toEqual(['/g/.gemini']);
    expect(opencodeProfile.configPaths?.({ HOME: '/h' })).toEqual(['/h/.config/opencode', '/h/.local/share/opencode', '/h/.local/state/opencode', '/h/.cache/opencode']);
    expect(opencodeProfile.configPaths?.({ HOME: '/h', XDG_DATA_HOME: '/d' })).toContain('/d/opencode');
  });

  it('names the tmux socket dir a pane is in', () => {
    const rr = sessionSandboxRules({ ...places, env: { ...env, TMUX: '/srv/t/mori,12,0' } }, choice);
    expect(rr.hidden).toContain('/srv/t');
  });
});
