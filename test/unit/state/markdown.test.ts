// The state files' parsers on the seed's own examples, and lossless section edits on odd files.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MarkdownDoc, splitLines } from '../../../main/state/markdown-doc.js';
import { parseSessionState, SESSION_STATE_HEADINGS } from '../../../main/state/session-state.js';
import { parseEnvironment } from '../../../main/state/environment-file.js';
import { parseEntries } from '../../../main/state/work-log.js';
import { scanWorkLog } from '../../../main/state/work-log-scan.js';

const seed = (f: string) => readFileSync(new URL(`../../support/fixtures/seed/${f}`, import.meta.url));

describe('the seed files', () => {
  it('session_state.md gives task, files touched, last working state, context and next steps', () => {
    const s = parseSessionState(new MarkdownDoc(seed('session_state.md')));
    expect(s.task).toEqual(['Implementing user auth middleware']);
    expect(s.filesTouched).toEqual(['auth.py', 'middleware.py', 'tests/test_auth.py']);
    expect(s.lastWorkingState).toBe('tests passing, need to add rate limiting');
    expect(s.context).toEqual(['Using FastAPI + JWT tokens', 'Rate limit: 100 requests/minute per IP', 'Redis available at localhost:6379']);
    expect(s.nextSteps).toEqual(['Add rate limiting decorator', 'Test with curl', 'Update documentation']);
    expect(s.decisions).toEqual([]);
  });

  it('environment.md gives setup lines and running services with line numbers', () => {
    const e = parseEnvironment(new MarkdownDoc(seed('environment.md')));
    expect(e.setup.map((l) => l.text)).toEqual([
      'Project: /home/user/api-server',
      'Virtual env: .venv (activated)',
      'Database: PostgreSQL running on 5432',
      'Redis: localhost:6379',
      'Test command: `pytest tests/`',
    ]);
    expect(e.setup[4]?.line).toBe(7);
    expect(e.services).toEqual([
      { text: 'API server: http://localhost:8000 (pid 1234)', line: 10 },
      { text: 'Background worker: running (pid 1235)', line: 11 },
    ]);
    expect(e.checks).toEqual([]);
  });

  it('work_log.md gives timestamped entries', () => {
    const entries = parseEntries(seed('work_log.md'));
    expect(entries.map((e) => e.heading)).toEqual(['2024-01-15 14:30', '2024-01-15 14:45', '2024-01-15 15:00', '2024-01-15 15:15']);
    expect(entries[2]?.lines).toEqual(['SESSION INTERRUPTED - WiFi dropped']);
    expect(entries[0]?.at?.getHours()).toBe(14);
    expect(entries[3]?.lines).toHaveLength(3);
  });
});

describe('work log entries', () => {
  it('are not started by a heading inside a code fence', () => {
    const log = Buffer.from('# Work log\n## 2026-01-01 10:00\n- a\n```\n## not an entry\n```\n## 2026-01-01 11:00\n- b\n');
    const entries = parseEntries(log);
    expect(entries.map((e) => e.heading)).toEqual(['2026-01-01 10:00', '2026-01-01 11:00']);
    expect(entries[0]?.lines).toContain('## not an entry');
  });
});

describe('headings', () => {
  it('match case-insensitively, with synonyms and decoration', () => {
    const doc = MarkdownDoc.fromString('## CURRENT TASK:\n- a\n### **Todo**\n- b\n## Key decisions\n- c\n');
    const s = parseSessionState(doc);
    expect(s.task).toEqual(['a']); // `### Todo` is a section of its own
    expect(s.nextSteps).toEqual(['b']);
    expect(s.decisions).toEqual(['c']);
    expect(SESSION_STATE_HEADINGS.nextSteps).toContain('todo');
  });

  it('inside a code fence are not headings', () => {
    const text = '## Context\n```md\n## Next Steps\n- not a step\n```\n- real context\n';
    const s = parseSessionState(MarkdownDoc.fromString(text));
    expect(s.nextSteps).toEqual([]);
    expect(s.context).toEqual(['real context']);
  });

  it('duplicated sections are all read, and an edit touches only the first', () => {
    const text = '## Next Steps\n1. one\n## Other\nx\n## Next Steps\n1. two\n';
    const doc = MarkdownDoc.fromString(text);
    expect(parseSessionState(doc).nextSteps).toEqual(['one', 'two']);
    const first = doc.find(['next steps'])!;
    expect(doc.replaceBody(first, ['1. uno']).text).toBe('## Next Steps\n1. uno\n\n## Other\nx\n## Next Steps\n1. two\n');
  });
});

/** Replaces the body of one section and checks every byte outside it is unchanged. */
function editKeepsTheRest(bytes: Buffer, heading: string, body: string[]): MarkdownDoc {
  const doc = new MarkdownDoc(bytes);
  const section = doc.find([heading]);
  expect(section, `section ${heading}`).toBeDefined();
  const edited = doc.replaceBody(section!, body);
  const before = Buffer.concat(doc.lines.slice(0, section!.bodyStart));
  const after = Buffer.concat(doc.lines.slice(section!.bodyEnd));
  expect(edited.bytes.subarray(0, before.length).equals(before)).toBe(true);
  expect(edited.bytes.subarray(edited.bytes.length - after.length).equals(after)).toBe(true);
  return edited;
}

describe('lossless edits on odd files', () => {
  it('round-trips every file byte for byte when nothing is edited', () => {
    const corpus = [
      seed('session_state.md'),
      seed('environment.md'),
      seed('work_log.md'),
      Buffer.from('## A\r\n- x\r\n\r\n## B\r\n- y'),
      Buffer.from('no headings at all\njust text'),
      Buffer.from(''),
      Buffer.from('\r\r\n\n'),
      Buffer.concat([Buffer.from('## Context\n- caf'), Buffer.from([0xe9, 0xff, 0xfe]), Buffer.from('\n## Next Steps\n- y\n')]),
      Buffer.from('## Context\n' + 'x'.repeat(2_000_000) + '\n'),
    ];
    for (const bytes of corpus) {
      const doc = new MarkdownDoc(bytes);
      expect(Buffer.concat(doc.lines).equals(bytes)).toBe(true);
      expect(splitLines(bytes).reduce((n, l) => n + l.length, 0)).toBe(bytes.length);
    }
  });

  it('keeps CRLF line endings, and writes new lines with CRLF', () => {
    const bytes = Buffer.from('# t\r\n## Next Steps\r\n1. a\r\n\r\n## Notes  \r\nkeep   me\r\n');
    const edited = editKeepsTheRest(bytes, 'next steps', ['1. b', '2. c']);
    expect(edited.text).toBe('# t\r\n## Next Steps\r\n1. b\r\n2. c\r\n\r\n## Notes  \r\nkeep   me\r\n');
  });

  it('keeps invalid UTF-8 bytes in other sections exactly', () => {
    const odd = Buffer.from([0x2d, 0x20, 0xc3, 0x28, 0xa0, 0xa1, 0x0a]); // "- " + invalid sequences
    const bytes = Buffer.concat([Buffer.from('## Context\n'), odd, Buffer.from('## Next Steps\n1. a\n')]);
    const edited = editKeepsTheRest(bytes, 'next steps', ['1. b']);
    expect(edited.bytes.includes(odd)).toBe(true);
  });

  it('keeps a huge line in another section', () => {
    const huge = '- ' + 'z'.repeat(1_000_000) + '\n';
    const bytes = Buffer.from('## Next Steps\n1. a\n\n## Context\n' + huge + '## After\nx\n');
    const edited = editKeepsTheRest(bytes, 'next steps', ['1. b']);
    expect(edited.bytes.length).toBe(bytes.length);
  });

  it('does not parse past its head: a section after a huge line is not seen, every byte is kept', () => {
    const huge = '- ' + 'z'.repeat(1_000_000) + '\n';
    const bytes = Buffer.from('## Context\n' + huge + '## Next Steps\n1. a\n');
    const doc = new MarkdownDoc(bytes);
    expect(doc.truncated).toBe(true);
    expect(doc.find(['next steps'])).toBeUndefined();
    expect(doc.find(['context'])?.bodyEnd).toBe(1);
    expect(doc.bytes.equals(bytes)).toBe(true);
  });

  it('edits the last section of a file that does not end with a newline', () => {
    const edited = editKeepsTheRest(Buffer.from('## Other\nx\n## Next Steps'), 'next steps', ['1. b']);
    expect(edited.text).toBe('## Other\nx\n## Next Steps\n1. b\n');
  });

  it('appends a missing section after the rest, untouched', () => {
    const doc = MarkdownDoc.fromString('## Context\n- c');
    expect(doc.appendSection('Decisions', ['- d']).text).toBe('## Context\n- c\n\n## Decisions\n- d\n');
    expect(MarkdownDoc.fromString('').appendSection('Decisions', ['- d']).text).toBe('## Decisions\n- d\n');
  });

  it('parses an empty file and a file with no headings without error', () => {
    expect(parseSessionState(MarkdownDoc.fromString('')).task).toEqual([]);
    expect(parseEnvironment(MarkdownDoc.fromString('just words\n')).setup).toEqual([]);
  });

  it('parses a 20 MB work log and finds every entry', () => {
    const entry = (i: number) => `\n## 2026-11-30 ${String(i % 24).padStart(2, '0')}:00\n- step ${i} ${'w'.repeat(180)}\n`;
    const parts: string[] = ['# Work log\n'];
    let size = 0;
    let n = 0;
    while (size < 20 * 1024 * 1024) {
      const e = entry(n++);
      parts.push(e);
      size += e.length;
    }
    const bytes = Buffer.from(parts.join(''));
    expect(parseEntries(bytes)).toHaveLength(n);
    const scanned = scanWorkLog(bytes);
    expect(Buffer.concat(scanned.lines).equals(bytes)).toBe(true);
  });
});
