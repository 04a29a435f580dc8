// Targets off the machine in words (common/notify-targets.ts): a URL shown masked — no userinfo, no
// query, an ntfy topic or a webhook's path token cut to its first characters — and `--on` read.
import { describe, expect, it } from 'vitest';
import { isHttpUrl, maskedUrl, parseTargetEvents } from '../../../common/notify-targets.js';

describe('maskedUrl', () => {
  it('keeps the scheme, host and port; cuts the path to its last segment\'s first characters; drops userinfo and query', () => {
    expect(maskedUrl('https://ntfy.sh/mori-x8f3k9q')).toBe('https://ntfy.sh/mor…');
    expect(maskedUrl('https://me:pa55@ntfy.example:8443/alerts?auth=tk_123#x')).toBe('https://ntfy.example:8443/ale…?…');
    expect(maskedUrl('https://hooks.slack.com/services/T000/B000/XXXXXXXXsecret')).toBe('https://hooks.slack.com/…/XXX…');
    expect(maskedUrl('http://127.0.0.1:9')).toBe('http://127.0.0.1:9/');
    for (const secret of ['x8f3k9q', 'pa55', 'tk_123', 'secret']) expect(maskedUrl(`https://me:pa55@h.example/a/x8f3k9qsecret?t=tk_123`)).not.toContain(secret);
    expect(maskedUrl('not a url')).toBe('(not a URL)');
  });

  it('takes http and https URLs only', () => {
    expect(isHttpUrl('https://ntfy.sh/t')).toBe(true);
    expect(isHttpUrl('http://10.0.0.2:8080/t')).toBe(true);
    for (const bad of ['file:///etc/passwd', 'ftp://h/x', 'ntfy.sh/t', '']) expect(isHttpUrl(bad)).toBe(false);
  });
});

describe('parseTargetEvents', () => {
  it('reads a comma list or all, and names what is not an event', () => {
    expect(parseTargetEvents('needs-input, finished,needs-input')).toEqual({ ok: true, value: ['needs-input', 'finished'] });
    expect(parseTargetEvents('all')).toMatchObject({ ok: true, value: expect.arrayContaining(['resumed', 'handed-off']) });
    expect(parseTargetEvents('needs-input,lunch')).toMatchObject({ ok: false, code: 'usage', message: expect.stringMatching(/"lunch" is not an event/) });
    expect(parseTargetEvents(',')).toMatchObject({ ok: false, message: expect.stringMatching(/no events named/) });
  });
});
