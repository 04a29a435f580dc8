// The tmux backend (control mode, private server) against the terminal contract.
import { TmuxBackend } from '../../main/terminals/tmux-backend.js';
import { terminalContract } from '../fixtures/terminals/contract.js';
import { testSocketName } from '../fixtures/terminals/harness.js';

terminalContract('tmux', async () => {
  const backend = new TmuxBackend({ socketName: testSocketName('contract') });
  const found = await backend.detect();
  if (!found.available) throw new Error(`tmux is required here: ${found.reason}`);
  // tmux reports pane death through a subscription checked once a second.
  return { backend, exitLatencyMs: 1500, cleanup: () => backend.server.killServer() };
});
