// Pure decisions of the terminals layer: flow control, the tmux control-mode parser, version
// checks, /proc parsing and the recovery of output tmux drops at pane exit.
import { describe, expect, it } from 'vitest';
import { FlowControl, FlowControlConstants } from '../../../main/terminals/flow-control.js';
import { parseProcStat } from '../../../main/os/process-tree.js';
import { paneExit, parseFate } from '../../../main/terminals/tmux/pane-format.js';
import { missingTail } from '../../../main/terminals/tmux/screen-recovery.js';
import { shellQuote } from '../../../main/terminals/tmux/session-setup.js';
import { ControlParser, decodeOctal, hexKeys, tmuxWord, type ControlEvent } from '../../../main/terminals/tmux/tmux-protocol.js';
import { parseTmuxVersion, tmuxUnusableReason } from '../../../main/terminals/tmux/tmux-version.js';

describe('flow control', () => {
  it('pauses above the high watermark and resumes below the low one', () => {
    const f = new FlowControl();
    f.attach('a');
    expect(f.sent(FlowControlConstants.HIGH_WATERMARK_CHARS)).toBeNull();
    expect(f.sent(1)).toBe('pause');
    expect(f.ack('a', 50_000)).toBeNull();
    expect(f.ack('a', 50_001 - FlowControlConstants.LOW_WATERMARK_CHARS + 1)).toBe('resume');
  });
  it('never pauses with no attachment, and a re-attach resets the debt', () => {
    const f = new FlowControl();
    expect(f.sent(10_000_000)).toBeNull();
    f.attach('a');
    expect(f.sent(200_000)).toBe('pause');
    expect(f.detach('a')).toBe('resume');
    expect(f.attach('b')).toBeNull();
    expect(f.isPaused).toBe(false);
    expect(f.ack('a', 10)).toBeNull();
  });
  it('never pauses for a view that does not hold; one far behind is sent nothing until it holds again', () => {
    const high = FlowControlConstants.HIGH_WATERMARK_CHARS;
    const f = new FlowControl();
    f.attach('shown');
    f.attach('hidden', false);
    expect(f.sent(high)).toBeNull();
    expect(f.ack('shown', high)).toBeNull();
    expect(f.sends('hidden')).toBe(true);
    expect(f.sent(10)).toBeNull();
    expect(f.sends('hidden')).toBe(false);
    expect(f.sends('shown')).toBe(true);
    // Shown again: caught up with a snapshot; its debt is still owed, so the program waits for its acks.
    expect(f.hold('hidden', true)).toEqual({ decision: 'pause', caughtUp: true });
    expect(f.sends('hidden')).toBe(true);
    expect(f.ack('hidden', high + 10)).toBe('resume');
    // Hidden again while holding a debt: the program goes on.
    f.sent(high + 1);
    expect(f.isPaused).toBe(true);
    expect(f.hold('hidden', false).decision).toBeNull();
    expect(f.hold('shown', false)).toEqual({ decision: 'resume', caughtUp: false });
  });
});

describe('tmux control-mode parser', () => {
  const parse = (chunks: string[]): ControlEvent[] => {
    const events: ControlEvent[] = [];
    const p = new ControlParser((e) => events.push(e));
    for (const c of chunks) p.push(c);
    return events;
  };
  it('decodes octal escapes', () => {
    expect(decodeOctal('a\\033[31mb\\015\\012\\134')).toBe('a\x1b[31mb\r\n\\');
  });
  it('splits replies, output, exit across chunk boundaries', () => {
    const events = parse(['%begin 1 5 1\nline one\n%end 1 5', ' 1\n%output %3 hi\\015\\012\n%out', 'put %3 there\n', '%begin 2 7 1\nbad\n%error 2 7 1\n%exit server exited\n']);
    expect(events).toEqual([
      { kind: 'reply', number: 5, fromUs: true, ok: true, lines: ['line one'] },
      { kind: 'output', pane: '%3', bytes: 'hi\r\n' },
      { kind: 'output', pane: '%3', bytes: 'there' },
      { kind: 'reply', number: 7, fromUs: true, ok: false, lines: ['bad'] },
      { kind: 'exit', reason: 'server exited' },
    ]);
  });
  it('keeps a reply line that looks like %end of another block', () => {
    const events = parse(['%begin 9 1 0\n%end 8 1 0\n%end 9 1 0\n']);
    expect(events).toEqual([{ kind: 'reply', number: 1, fromUs: false, ok: true, lines: ['%end 8 1 0'] }]);
  });
  it('reads subscriptions, pause and continue', () => {
    expect(parse(['%subscription-changed mori-dead $0 - - - : 1\n%pause %1\n%continue %1\n'])).toEqual([
      { kind: 'subscription', name: 'mori-dead', value: '1' },
      { kind: 'pause', pane: '%1' },
      { kind: 'continue', pane: '%1' },
    ]);
  });
  it('quotes a word for a control-mode command line: one line, nothing expanded', () => {
    expect(tmuxWord('K=plain value-1')).toBe('"K=plain value-1"');
    expect(tmuxWord('a"b$c~d\\e#{f};g')).toBe('"a\\"b\\$c\\~d\\\\e\\#\\{f\\}\\;g"');
    expect(tmuxWord('line\nnext é')).toBe('"line\\012next \\303\\251"');
  });
  it('sends input as hex bytes', () => {
    expect(hexKeys('a\x03é')).toEqual(['61', '03', 'c3', 'a9']);
  });
});

describe('tmux helpers', () => {
  it('parses versions and explains the fallback', () => {
    expect(parseTmuxVersion('tmux 3.3a')).toEqual({ major: 3, minor: 3, text: '3.3a' });
    expect(tmuxUnusableReason(parseTmuxVersion('tmux 3.3a'), 'tmux 3.3a')).toBeNull();
    expect(tmuxUnusableReason(parseTmuxVersion('tmux 2.9'), 'tmux 2.9')).toMatch(/too old/);
    expect(tmuxUnusableReason(null, 'garbage')).toMatch(/could not read/);
  });
  it('reads exit status and signal of a dead pane', () => {
    expect(paneExit('3', '')).toEqual({ code: 3, signal: null });
    expect(paneExit('', '15')).toEqual({ code: null, signal: 'SIGTERM' });
  });
  it('tells a pane whose pty closed before tmux reaped its program from a dead one', () => {
    expect(parseFate('0::')).toEqual({ state: 'running' });
    // pane_dead is 1 as soon as the pty closes; status and signal only once the program was reaped.
    expect(parseFate('1::')).toEqual({ state: 'exiting' });
    expect(parseFate('1:0:')).toEqual({ state: 'dead', exit: { code: 0, signal: null } });
    expect(parseFate('1::9\n')).toEqual({ state: 'dead', exit: { code: null, signal: 'SIGKILL' } });
    expect(parseFate('garbage')).toBeNull();
  });
  it('recovers the lines after the last ones seen', () => {
    const screen = ['a', 'b', 'c', 'd', '', ''];
    expect(missingTail('a\r\nb\r\n', screen, screen, 4)).toBe('c\r\nd\r\n');
    expect(missingTail('a\r\nb\r\nc\r\nd\r\n', screen, screen, 4)).toBe('');
    expect(missingTail('', screen, screen, 4)).toBe('a\r\nb\r\nc\r\nd\r\n');
    // Seen only the echo of typed input at the top of a blank screen: the reply after it is new.
    expect(missingTail('hello\r\n', ['hello', 'got:hello', ''], ['hello', 'got:hello', ''], 24)).toBe('got:hello\r\n');
  });
  it('quotes a lone command for the shell', () => {
    expect(shellQuote('claude')).toBe('claude');
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
  it('parses /proc stat lines with odd command names', () => {
    expect(parseProcStat('42 (a b) c)) S 1 42 42 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 777 0 0')).toMatchObject({ pid: 42, ppid: 1, pgid: 42, sid: 42, startTime: 777 });
  });
  it('takes a zombie, which has exited and waits only to be reaped, for no process', () => {
    expect(parseProcStat('43 (node) Z 1 43 43 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 778 0 0')).toBeNull();
    expect(parseProcStat('44 (node) X 1 44 44 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 779 0 0')).toBeNull();
  });
});
