// The Seatbelt profile of a session's sandbox (main/sandbox/seatbelt-profile.ts), read back as SBPL:
// `sandbox-exec` does not run here, so the test parses the text into forms as SBPL's reader would
// (strings with `\` escapes, `#"..."` regexes, `;` comments) and checks each rule, their order, and
// that a hostile path stays one string.
import { describe, expect, it } from 'vitest';
import type { SandboxRules } from '../../../main/sandbox/sandbox-rules.js';
import { SANDBOX_EXEC, sbplString, seatbeltArgv, seatbeltProfile } from '../../../main/sandbox/seatbelt-profile.js';

type Form = string | { str: string } | Form[];

/** The top-level forms of an SBPL text; throws on an unterminated string or list. */
function readSbpl(text: string): Form[] {
  let i = 0;
  const readString = (): string => {
    let s = '';
    for (i++; i < text.length && text[i] !== '"'; i++) s += text[i] === '\\' ? text[++i] : text[i];
    if (i >= text.length) throw new Error('unterminated string');
    i++;
    return s;
  };
  const readList = (): Form[] => {
    const items: Form[] = [];
    for (i++; ; ) {
      while (/\s/.test(text[i] ?? '')) i++;
      if (i >= text.length) throw new Error('unterminated list');
      if (text[i] === ')') return (i++, items);
      items.push(readForm());
    }
  };
  const readForm = (): Form => {
    if (text[i] === '(') return readList();
    if (text[i] === '"') return { str: readString() };
    if (text.startsWith('#"', i)) return (i++, { str: readString() });
    const m = /^[^\s()"]+/.exec(text.slice(i));
    if (m === null) throw new Error(`unexpected ${text[i]}`);
    i += m[0].length;
    return m[0];
  };
  const forms: Form[] = [];
  while (i < text.length) {
    if (/\s/.test(text[i] ?? '')) i++;
    else if (text[i] === ';') while (i < text.length && text[i] !== '\n') i++;
    else forms.push(readForm());
  }
  return forms;
}

/** Each rule as `action ops… | filter filter…` with string values unquoted. */
function rules(profile: string): string[] {
  const word = (f: Form): string => (typeof f === 'string' ? f : Array.isArray(f) ? `(${f.map(word).join(' ')})` : JSON.stringify(f.str));
  return readSbpl(profile).map((f) => (Array.isArray(f) ? f.map(word).join(' ') : word(f)));
}

const base: SandboxRules = {
  readWrite: ['/Users/p/proj', '/Users/p/.claude', '/Users/p/proj/.mori/s1/session_state.md'],
  readOnly: ['/Users/p/proj/.mori/s1', '/Users/p/.gitconfig'],
  hidden: ['/Users/p/.mori'],
  home: 'hidden',
  network: 'allowlist',
  allowedHosts: ['api.anthropic.com'],
};
const HOME = '/Users/p';
const PROXY = { port: 3128, socket: '/Users/p/.mori/net/s1/net-proxy.sock' };

describe('the Seatbelt profile', () => {
  it('denies by kind, then re-allows the listed paths, the nearer path last', () => {
    const r = rules(seatbeltProfile(base, HOME, PROXY));
    const at = (rule: string): number => {
      const n = r.indexOf(rule);
      expect(n, `${rule}\nin\n${r.join('\n')}`).toBeGreaterThanOrEqual(0);
      return n;
    };
    expect(r.slice(0, 2)).toEqual(['version 1', 'allow default']);
    const denyWrites = at('deny file-write*');
    const allowWrites = at('allow file-write* (subpath "/Users/p/proj") (subpath "/Users/p/.claude") (subpath "/Users/p/proj/.mori/s1/session_state.md") (literal "/dev/null") (literal "/dev/tty") (regex "^/dev/ttys[0-9]+$") (literal "/dev/ptmx") (literal "/dev/dtracehelper") (subpath "/dev/fd")');
    const hide = at('deny file-read* file-write* (subpath "/Users/p/.mori") (subpath "/Users/p")');
    const readOnly = at('allow file-read* (subpath "/Users/p/proj/.mori/s1") (subpath "/Users/p/.gitconfig")');
    const readWrite = at('allow file-read* file-write* (subpath "/Users/p/proj") (subpath "/Users/p/.claude") (subpath "/Users/p/proj/.mori/s1/session_state.md")');
    const roInsideRw = at('deny file-write* (subpath "/Users/p/proj/.mori/s1") (subpath "/Users/p/.gitconfig")');
    const rwInsideRo = at('allow file-write* (subpath "/Users/p/proj/.mori/s1/session_state.md")');
    expect([denyWrites, allowWrites, hide, readOnly, readWrite, roInsideRw, rwInsideRo]).toEqual([...[denyWrites, allowWrites, hide, readOnly, readWrite, roInsideRw, rwInsideRo]].sort((a, b) => a - b));
    const denyNet = at('deny network*');
    expect(at('deny mach-lookup (global-name "com.apple.dnssd.service") (global-name "com.apple.mDNSResponder")')).toBeGreaterThan(denyNet);
    expect(at('allow network-bind network-inbound (local ip "localhost:3128")')).toBeGreaterThan(denyNet);
    expect(at('allow network-outbound (remote ip "localhost:3128") (remote unix-socket (path-literal "/Users/p/.mori/net/s1/net-proxy.sock"))')).toBeGreaterThan(denyNet);
    expect(at('allow signal (target same-sandbox)')).toBeGreaterThan(at('deny signal'));
  });

  it('keeps the home readable when it is read-only, the network whole in full mode, and none but denial in none', () => {
    const full = rules(seatbeltProfile({ ...base, home: 'read-only', network: 'full' }, HOME));
    expect(full).toContain('deny file-read* file-write* (subpath "/Users/p/.mori")');
    expect(full.join('\n')).not.toMatch(/network|mach-lookup/);
    const none = rules(seatbeltProfile({ ...base, network: 'none' }, HOME));
    expect(none).toContain('deny network*');
    expect(none.join('\n')).not.toMatch(/allow network/);
    expect(() => seatbeltProfile(base, HOME)).toThrow(/proxy's port and socket/);
  });

  it('keeps a path holding quotes, parentheses and backslashes inside its one string', () => {
    const attack = '/Users/p/x") (allow file-write* (subpath "/")) ; \\" (';
    const profile = seatbeltProfile({ ...base, readWrite: [attack], readOnly: [], hidden: [], home: 'read-only', network: 'none' }, HOME);
    const forms = readSbpl(profile);
    // version, allow default, deny writes, allow writes, deny network, deny mach-lookup, deny signal, allow signal: no rule added.
    expect(forms).toHaveLength(8);
    expect(forms[3]).toEqual(['allow', 'file-write*', ['subpath', { str: attack }], ...(forms[3] as Form[]).slice(3)]);
    expect(rules(profile).filter((r) => r.includes('(subpath "/")'))).toEqual([]);
    expect(sbplString('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(() => sbplString('/Users/p/a\nb')).toThrow(/control character/);
  });

  it('runs the agent behind sandbox-exec with the profile as one word', () => {
    expect(seatbeltArgv('(version 1)', ['claude', '--resume', 'x'])).toEqual([SANDBOX_EXEC, '-p', '(version 1)', '--', 'claude', '--resume', 'x']);
  });
});
