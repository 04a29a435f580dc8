// Deriving checks from environment.md and session_state.md: the seed's files, the explicit ## Checks
// grammar, timeouts, malformed lines (listed, never dropped), and a 1,000-line file.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deriveChecks } from '../../../main/checks/derive-checks.js';
import { parseDuration, parseFreeLine } from '../../../main/checks/check-line.js';
import { environmentLines as parseEnvironment, touchedFiles } from '../../../main/checks/load-checks.js';
import { MarkdownDoc } from '../../../main/state/markdown-doc.js';
import { SEED_CHECK_IDS } from '../../support/fixtures/checks/seed-check-ids.js';

const fixture = (name: string) => readFileSync(new URL(`../../support/fixtures/checks/${name}`, import.meta.url));
const derive = (env: string, state?: string) => {
  const touched = state === undefined ? [] : touchedFiles(MarkdownDoc.fromString(state));
  return deriveChecks(parseEnvironment(MarkdownDoc.fromString(env)), touched);
};

describe('the seed files', () => {
  const env = new MarkdownDoc(fixture('seed-environment.md'));
  const state = new MarkdownDoc(fixture('seed-session-state.md'));
  const d = deriveChecks(parseEnvironment(env), touchedFiles(state));
  const ids = d.checks.map((c) => c.id);

  it('yields the test command, the two tcp ports, the http URL and both pids', () => {
    expect(ids).toEqual(SEED_CHECK_IDS);
  });

  it('says where each check came from', () => {
    const by = (id: string) => d.checks.find((c) => c.id === id);
    expect(by('command:pytest tests/')?.source).toEqual({ file: 'environment.md', line: 7 });
    expect(by('command:pytest tests/')?.label).toBe('Test command');
    expect(by('tcp:localhost:5432')?.source.line).toBe(5);
    expect(by('pid:1235')?.source.line).toBe(11);
    expect(by('file:middleware.py')?.source).toEqual({ file: 'session_state.md', line: 4 });
  });

  it('makes the running services services, without start commands', () => {
    expect(d.services.map((s) => [s.name, s.slug, s.start, s.checkIds])).toEqual([
      ['API server', 'api-server', null, ['http:http://localhost:8000', 'pid:1234']],
      ['Background worker', 'background-worker', null, ['pid:1235']],
    ]);
  });

  it('lists the lines it found no check in', () => {
    expect(d.unparsed.map((u) => [u.source.line, u.severity])).toEqual([
      [3, 'no-check'],
      [4, 'no-check'],
    ]);
  });
});

describe('the explicit ## Checks section (DESIGN.md §3 example)', () => {
  const d = derive(`## Running Services
- API server: http://localhost:8000 (pid 1234) start: \`uvicorn app:app --port 8000\`
## Checks
- http: http://localhost:8000/health
- tcp: localhost:5432
- command: \`npm run lint\` (timeout 120s)
- file: src/auth.py
- dns: example.org
- tcp: 6380 (timeout 500ms)
`);

  it('reads kind: target with per-check timeouts', () => {
    expect(d.checks.map((c) => [c.kind, c.target, c.timeoutMs])).toEqual([
      ['http', 'http://localhost:8000', 5000],
      ['pid', '1234', 2000],
      ['http', 'http://localhost:8000/health', 5000],
      ['tcp', 'localhost:5432', 5000],
      ['command', 'npm run lint', 120_000],
      ['file', 'src/auth.py', 2000],
      ['dns', 'example.org', 5000],
      ['tcp', 'localhost:6380', 500],
    ]);
    expect(d.unparsed).toEqual([]);
  });

  it('takes start: as the restart command and does not scan it for ports', () => {
    expect(d.services).toHaveLength(1);
    expect(d.services[0]?.start).toBe('uvicorn app:app --port 8000');
    expect(d.checks.some((c) => c.target === 'localhost:8000' && c.kind === 'tcp')).toBe(false);
  });
});

describe('the Checks section', () => {
  it('also takes lines in the free form, a labelled test command included', () => {
    const d = derive('## Checks\n- Test command: `npm test` (timeout 90s)\n- localhost:7001\n');
    expect(d.checks.map((c) => [c.kind, c.target, c.timeoutMs])).toEqual([
      ['command', 'npm test', 90_000],
      ['tcp', 'localhost:7001', 5_000],
    ]);
    expect(d.unparsed).toEqual([]);
  });
});

describe('malformed and odd lines', () => {
  const d = derive(`## Setup
- Install: \`pip install -r requirements.txt\`
- Notes: the cache warms up in a minute
- Build: \`make\` (timeout soon)
## Running Services
- Worker: started by cron start: npm run worker
## Checks
- tcp: localhost:99999
- http: ftp://example.org/
- pid: abc
- banana: yes
- just some words
- http://127.0.0.1:9000/ready
- localhost:7000
- dns: not a host!
- command:
`);

  it('lists every line that gave no check, with the reason, never dropping one', () => {
    const lines = d.unparsed.map((u) => u.source.line);
    expect(lines).toEqual([2, 3, 4, 6, 8, 9, 10, 11, 12, 15, 16]);
    const reason = (line: number) => d.unparsed.find((u) => u.source.line === line)?.reason ?? '';
    expect(reason(2)).toMatch(/not labelled as a test/);
    expect(reason(4)).toMatch(/\(timeout 120s\)/);
    expect(reason(6)).toMatch(/start: needs its command in backticks/);
    expect(reason(8)).toMatch(/not host:port/);
    expect(reason(9)).toMatch(/not an http/);
    expect(reason(10)).toMatch(/not a process id/);
    expect(reason(11)).toMatch(/"banana" is not a check kind/);
    expect(d.unparsed.filter((u) => u.severity === 'malformed').map((u) => u.source.line)).toEqual([8, 9, 10, 11, 12, 15, 16]);
  });

  it('keeps what it understood of a partly understood line, and still reads a bare URL or host:port under ## Checks', () => {
    expect(d.unparsed.find((u) => u.source.line === 4)?.reason).toMatch(/^partly understood/);
    expect(d.checks.map((c) => c.id)).toEqual(['command:make', 'http:http://127.0.0.1:9000/ready', 'tcp:localhost:7000']);
  });
});

describe('free-form lines', () => {
  it('finds "on PORT", host:port, IPv6, pids in several spellings', () => {
    expect(parseFreeLine('Database: PostgreSQL running on port 5433').targets).toEqual([{ kind: 'tcp', target: 'localhost:5433' }]);
    expect(parseFreeLine('Cache: [::1]:11211 and db.internal:5432').targets).toEqual([
      { kind: 'tcp', target: '[::1]:11211' },
      { kind: 'tcp', target: 'db.internal:5432' },
    ]);
    expect(parseFreeLine('Worker: PID: 77').targets).toEqual([{ kind: 'pid', target: '77' }]);
    expect(parseFreeLine('Deployed 2024-01-15 14:30 to staging').targets).toEqual([]);
  });

  it('runs a backticked command only when labelled as a test, lint or build command', () => {
    expect(parseFreeLine('Lint: `npm run lint`').targets).toEqual([{ kind: 'command', target: 'npm run lint' }]);
    expect(parseFreeLine('Typecheck: `tsc --noEmit` (timeout 3m)').timeoutMs).toBe(180_000);
    expect(parseFreeLine('Dev server: `npm run dev`').targets).toEqual([]);
  });

  it('parses durations', () => {
    expect([parseDuration('120s'), parseDuration('500ms'), parseDuration('2m'), parseDuration('1.5 h'), parseDuration('90'), parseDuration('soon')]).toEqual([
      120_000, 500, 120_000, 5_400_000, 90_000, null,
    ]);
  });
});

describe('a 1,000-line environment.md', () => {
  it('derives every check, in file order', () => {
    const lines = ['# Environment', '## Setup'];
    for (let i = 0; i < 330; i++) lines.push(`- Service ${i}: localhost:${10000 + i}`);
    lines.push('## Running Services');
    for (let i = 0; i < 330; i++) lines.push(`- Worker ${i}: http://localhost:${20000 + i}/health (pid ${30000 + i})`);
    lines.push('## Checks');
    while (lines.length < 1000) lines.push(`- file: src/file-${lines.length}.ts`);
    const text = lines.join('\n') + '\n';
    const d = derive(text);
    expect(d.checks.filter((c) => c.kind === 'tcp')).toHaveLength(330);
    expect(d.checks.filter((c) => c.kind === 'http')).toHaveLength(330);
    expect(d.checks.filter((c) => c.kind === 'pid')).toHaveLength(330);
    expect(d.checks.filter((c) => c.kind === 'file')).toHaveLength(1000 - 664);
    expect(d.services).toHaveLength(330);
    expect(d.unparsed).toEqual([]);
    expect(d.checks.find((c) => c.target === 'localhost:10329')?.source.line).toBe(332);
  });
});

describe('a file with a "# Environment" title over its sections (the template Mori writes)', () => {
  it('reads each line once', () => {
    const d = derive(`# Environment
- Lint: \`npm run lint\`
## Setup
- Redis: localhost:6379
## Checks
- tcp: localhost:5432
`);
    expect(d.checks.map((c) => [c.id, c.source.line])).toEqual([
      ['command:npm run lint', 2],
      ['tcp:localhost:6379', 4],
      ['tcp:localhost:5432', 6],
    ]);
    expect(d.unparsed).toEqual([]);
  });

  it('finds nothing to check, and nothing to complain about, in a fresh template', async () => {
    const { environmentTemplate } = await import('../../../main/state/state-templates.js');
    const d = derive(environmentTemplate({ name: 'x', task: undefined, projectDir: '/p', contextFiles: [] }));
    expect(d.checks).toEqual([]);
    expect(d.unparsed).toEqual([]);
  });
});
