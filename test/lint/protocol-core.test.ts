// One client core of the control API (common/protocol-client.ts) and one terminal frame type
// (common/terminal.ts): no other product file matches replies to requests by id, parses the daemon's
// messages, says hello on its own, keeps its own reconnect backoff, or defines a frame. Three clients
// each had their own copy of these, and they drifted; this test finds a copy by what it cannot do without.
// The one other hello is the frame early-request.ts writes before the core loads, which the core awaits
// as its own (ProtocolClient.sentAhead); both build it with protocol-frames.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../testkit/mori-cli.js';

/** What gives a copy away, where the one definition lives, and what it would be a copy of. */
const RULES: { pattern: RegExp; owner: string; also?: string; what: string }[] = [
  { pattern: /\b(pending|waiting)\w*\s*=\s*new Map<number\b/, owner: 'common/protocol-client.ts', what: 'a table of requests waiting for replies by id' },
  { pattern: /\bIpcServerMessage\.safeParse\(/, owner: 'common/protocol-client.ts', what: "a parser of the daemon's messages" },
  { pattern: /['"]hello['"],[^\n]*(\{\s*protocol:\s*PROTOCOL_VERSION\b|helloParams\()/, owner: 'common/protocol-client.ts', also: 'main/daemon-client/early-request.ts', what: 'a hello of its own' },
  { pattern: /\bRECONNECT_(FIRST|MAX)_MS\s*=/, owner: 'common/protocol-client.ts', what: 'a reconnect backoff of its own' },
  { pattern: /z\.literal\(['"]snapshot['"]\)|\bkind:\s*['"]snapshot['"]\s*;/, owner: 'common/terminal.ts', what: 'a definition of the terminal frame' },
];

const PRODUCT = ['main', 'common', 'renderer', 'preload'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.tsx?$/.test(p) ? [p] : [];
  });
}

/** `file:line: what` for every line of `text` that looks like a copy, unless `rel` is that rule's owner. */
function copiesIn(rel: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const r of RULES) if (rel !== r.owner && rel !== r.also && r.pattern.test(line)) found.push(`${rel}:${i + 1}: ${r.what}`);
  });
  return found;
}

describe('one protocol core', () => {
  it('no product file holds a second reply-matching client, hello, backoff or frame type', () => {
    const files = PRODUCT.flatMap((d) => sourceFiles(path.join(REPO, d)));
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => {
      const rel = path.relative(REPO, f);
      return copiesIn(rel, readFileSync(f, 'utf8'));
    });
    expect(found).toEqual([]);
  });

  it('each rule finds its owner, so a renamed owner cannot leave the rule matching nothing', () => {
    for (const r of RULES) expect(readFileSync(path.join(REPO, r.owner), 'utf8')).toMatch(r.pattern);
  });

  it('finds the copies the clients used to hold', () => {
    const copy = [
      'private readonly pending = new Map<number, (r: Result<unknown>) => void>();',
      'const parsed = IpcServerMessage.safeParse(json);',
      "const hello = await client.request('hello', { protocol: PROTOCOL_VERSION });",
      'const RECONNECT_FIRST_MS = 250;',
      "type Frame = { kind: 'snapshot'; data: string; size: { cols: number; rows: number } } | { kind: 'output'; data: string };",
    ].join('\n');
    expect(copiesIn('main/elsewhere.ts', copy)).toHaveLength(RULES.length);
  });
});
