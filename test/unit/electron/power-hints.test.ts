// The OS's power and network news as daemon hints (main/electron/power-hints.ts): each powerMonitor
// event becomes one `hint.power` of its kind; a network change noticed on resume or unlock becomes
// one `hint.network`; an unchanged network sends none; a hint the daemon did not take is logged.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { fail, ok } from '../../../common/result.js';
import { forwardPowerHints } from '../../../main/electron/power-hints.js';

describe('forwardPowerHints', () => {
  it('forwards suspend, resume, lock and unlock, and network changes seen on them', async () => {
    const power = new EventEmitter();
    const sent: string[] = [];
    const logs: string[] = [];
    let online = true;
    const stop = forwardPowerHints(
      power,
      async (method, params) => {
        sent.push(`${method} ${JSON.stringify(params)}`);
        return method === 'hint.network' ? fail('failed', 'not connected to the Mori daemon') : ok({});
      },
      () => online,
      (l) => logs.push(l),
    );
    power.emit('suspend');
    online = false;
    power.emit('resume');
    power.emit('lock-screen');
    power.emit('unlock-screen');
    online = true;
    power.emit('unlock-screen');
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual([
      'hint.power {"kind":"suspend"}',
      'hint.power {"kind":"resume"}',
      'hint.network {"state":"offline"}',
      'hint.power {"kind":"lock"}',
      'hint.power {"kind":"unlock"}',
      'hint.power {"kind":"unlock"}',
      'hint.network {"state":"online"}',
    ]);
    expect(logs).toEqual(['network hint not delivered: not connected to the Mori daemon', 'network hint not delivered: not connected to the Mori daemon']);
    stop();
    power.emit('suspend');
    expect(sent).toHaveLength(7);
  });
});
