// A notice as its target's HTTP request (main/daemon/notice-request.ts): ntfy's publish format
// (title, priority, tags as headers; a title past ASCII as an RFC 2047 encoded-word), a webhook's
// JSON; agent-written control characters written out as escapes, in headers and bodies alike; a
// URL's userinfo as Basic authorization (main/daemon/notice-sender.ts).
import { describe, expect, it } from 'vitest';
import { headerValue, noticeRequest, type SentNotice } from '../../../main/daemon/notice-request.js';
import { splitCredentials } from '../../../main/daemon/notice-sender.js';

const AT = Date.UTC(2026, 11, 6, 3, 4, 5);
const notice = (over: Partial<SentNotice> = {}): SentNotice => ({ kind: 'verify-failed', title: 'api: verification failed', body: 'checks 0/1 passed', sessions: ['id-1'], at: AT, ...over });

describe('noticeRequest', () => {
  it("ntfy: the body POSTed, title, priority and tags as headers", () => {
    expect(noticeRequest({ kind: 'ntfy' }, notice(), 'box')).toEqual({
      headers: { 'Content-Type': 'text/plain; charset=utf-8', Title: 'api: verification failed', Priority: '4', Tags: 'x,mori' },
      body: 'checks 0/1 passed',
    });
    // A notice with no words beyond its title says the title again (ntfy would say "triggered").
    expect(noticeRequest({ kind: 'ntfy' }, notice({ kind: 'finished', body: '' }), 'box')).toMatchObject({ headers: { Priority: '3', Tags: 'white_check_mark,mori' }, body: 'api: verification failed' });
  });

  it('a webhook: one JSON object with the kind, the words, the sessions and the time', () => {
    expect(JSON.parse(noticeRequest({ kind: 'webhook' }, notice(), 'box').body)).toEqual({ source: 'mori', host: 'box', kind: 'verify-failed', title: 'api: verification failed', body: 'checks 0/1 passed', sessions: ['id-1'], at: '2026-12-06T03:04:05.000Z' });
  });

  it('control characters an agent wrote are escaped in headers and bodies; a title past ASCII is an encoded-word; long text is cut', () => {
    const hostile = notice({ title: 'api\x1b]0;owned\x07: ✓ done\r\nX-Injected: 1', body: 'line\x1b[2J one\nline two\x00' + 'z'.repeat(5000) });
    for (const kind of ['ntfy', 'webhook'] as const) {
      const r = noticeRequest({ kind }, hostile, 'box');
      // No control character but a body's newlines, raw or in the webhook's JSON strings.
      const words = kind === 'webhook' ? Object.values(JSON.parse(r.body) as Record<string, unknown>).join(' ') : r.body;
      expect(words + Object.values(r.headers).join(' ')).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f]/);
      const said = kind === 'webhook' ? (JSON.parse(r.body) as { body: string }).body : r.body;
      expect(said.length).toBe(1000);
      expect(said.endsWith('z…')).toBe(true);
    }
    const ntfy = noticeRequest({ kind: 'ntfy' }, hostile, 'box');
    expect(ntfy.headers['Title']).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/);
    expect(Buffer.from(ntfy.headers['Title']!.slice(10, -2), 'base64').toString('utf8')).toBe('api\\e]0;owned\\x07: ✓ done\\r\\nX-Injected: 1');
    expect(ntfy.body.startsWith('line\\e[2J one\nline two\\x00')).toBe(true);
    expect(headerValue('plain words')).toBe('plain words');
  });
});

describe('splitCredentials', () => {
  it("a URL's userinfo becomes Basic authorization, the URL sent without it", () => {
    expect(splitCredentials('https://me:p%40ss@ntfy.example/topic')).toEqual({ url: 'https://ntfy.example/topic', authorization: `Basic ${Buffer.from('me:p@ss').toString('base64')}` });
    expect(splitCredentials('https://ntfy.sh/topic?auth=x')).toEqual({ url: 'https://ntfy.sh/topic?auth=x', authorization: null });
  });
});
