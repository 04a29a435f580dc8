// The pure interruption decisions: who is interrupted, who is resumed, whether a resume goes ahead
// (recording an interruption, verifying first), and what is done to each agent.
import { describe, expect, it } from 'vitest';
import { decideResumeAction, planResume, sessionsToInterrupt, sessionsToResume, STUCK_AFTER_WAKE_MS, type ResumeStart, type InterruptCandidate } from '../../../../main/supervisor/resume/resume-plan.js';

const s = (over: Partial<InterruptCandidate> & { id: string }): InterruptCandidate => ({
  state: 'running',
  alive: true,
  activity: 'working',
  needsNetwork: true,
  userStopped: false,
  ...over,
});

describe('sessionsToInterrupt', () => {
  const all = [
    s({ id: 'a' }),
    s({ id: 'shell', needsNetwork: false }),
    s({ id: 'stopped', state: 'stopped', userStopped: true }),
    s({ id: 'finished', state: 'finished', alive: false }),
    s({ id: 'backoff', state: 'backoff', alive: false }),
  ];
  it('a sleep interrupts every running session', () => expect(sessionsToInterrupt(all, 'sleep')).toEqual(['a', 'shell']));
  it('a network loss only those whose agent needs the network', () => expect(sessionsToInterrupt(all, 'network')).toEqual(['a']));
});

describe('sessionsToResume', () => {
  const all = [
    { ...s({ id: 'slept', state: 'interrupted' }), interruptedFor: 'sleep' as const },
    { ...s({ id: 'net', state: 'interrupted' }), interruptedFor: 'network' as const },
    { ...s({ id: 'crash', state: 'interrupted' }), interruptedFor: 'crash' as const },
    { ...s({ id: 'user', state: 'interrupted', userStopped: true }), interruptedFor: 'sleep' as const },
  ];
  it('a wake resumes what sleep or the network interrupted', () => expect(sessionsToResume(all, 'sleep')).toEqual(['slept', 'net']));
  it('the network coming back resumes only what it interrupted', () => expect(sessionsToResume(all, 'network')).toEqual(['net']));
});

describe('decideResumeAction', () => {
  it('leaves a working agent alone', () => expect(decideResumeAction(s({ id: 'x' }), 0, false).kind).toBe('none'));
  it('nudges an agent that shows an error or waits', () => {
    expect(decideResumeAction(s({ id: 'x', activity: 'error' }), 0, false).kind).toBe('nudge');
    expect(decideResumeAction(s({ id: 'x', activity: 'waiting' }), 0, false).kind).toBe('nudge');
  });
  it('restarts an agent still stuck on an error after a nudge or long after the wake', () => {
    expect(decideResumeAction(s({ id: 'x', activity: 'error' }), 1000, true).kind).toBe('restart');
    expect(decideResumeAction(s({ id: 'x', activity: 'error' }), STUCK_AFTER_WAKE_MS, false).kind).toBe('restart');
  });
  it('never types into an agent that asks the person something', () => {
    expect(decideResumeAction(s({ id: 'x', activity: 'needs-input' }), 0, false).kind).toBe('none');
  });
  it('relaunches a dead agent', () => expect(decideResumeAction(s({ id: 'x', alive: false, activity: 'unknown' }), 0, false).kind).toBe('relaunch'));
});

describe('planResume', () => {
  const start = (over: Partial<ResumeStart>): ResumeStart => ({
    asked: false,
    stopping: false,
    intent: 'interrupted',
    agentRunning: false,
    verifyEnabled: true,
    checksGiven: false,
    ...over,
  });
  it('leaves a session the person stopped, or is stopping, unless they asked', () => {
    expect(planResume(start({ intent: 'user-stopped' })).kind).toBe('skip');
    expect(planResume(start({ stopping: true, intent: 'running' })).kind).toBe('skip');
    expect(planResume(start({ intent: 'user-stopped', asked: true })).kind).toBe('go');
  });
  it('records an interruption for a dead agent whose stop was not recorded, only then', () => {
    expect(planResume(start({ intent: 'running' }))).toEqual({ kind: 'go', recordInterruption: true, verify: true });
    expect(planResume(start({ intent: 'running', agentRunning: true }))).toMatchObject({ recordInterruption: false });
    for (const intent of ['interrupted', 'finished', 'attention'] as const) expect(planResume(start({ intent }))).toMatchObject({ recordInterruption: false });
    expect(planResume(start({ intent: 'user-stopped', asked: true }))).toMatchObject({ recordInterruption: false });
  });
  it('verifies unless verification is off or was already done for this resume', () => {
    expect(planResume(start({}))).toMatchObject({ verify: true });
    expect(planResume(start({ verifyEnabled: false }))).toMatchObject({ verify: false });
    expect(planResume(start({ checksGiven: true }))).toMatchObject({ verify: false });
  });
});
