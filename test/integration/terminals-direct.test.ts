// The direct backend (node-pty) against the terminal contract, plus its orphan sweep.
import { DirectBackend } from '../../main/terminals/direct-backend.js';
import { terminalContract } from '../fixtures/terminals/contract.js';
import { tempDir } from '../fixtures/terminals/harness.js';

terminalContract('direct', async () => {
  const run = tempDir('direct-run');
  return { backend: new DirectBackend({ runDir: run.dir }), exitLatencyMs: 0, cleanup: async () => run.cleanup() };
});
