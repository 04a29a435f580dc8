// The bridge that starts a sandboxed agent in `allowlist` mode (DESIGN.md §11 "Sandbox"): a Node
// program, kept as text and written into Mori's home (`$MORI_HOME/hooks/proxy-bridge.mjs`, beside the
// hook report script, bound read-only into the sandbox) because it runs inside the sandbox where
// neither Mori's install nor its packages are visible: Node's built-ins only. Run as
// `node proxy-bridge.mjs <port> <socket> -- <agent argv>`, it listens on 127.0.0.1:<port> (the
// sandbox's own loopback), pipes each connection to the proxy's unix socket, then spawns the agent in
// its own process group's place (no setsid: the agent keeps the terminal, its Ctrl-C and resizes),
// forwards SIGTERM and SIGHUP to it and exits as it does. Any Node process writes the file.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isAgentFileError, readAgentFileSync } from '../os/agent-file.js';

export const PROXY_BRIDGE_SCRIPT = 'proxy-bridge.mjs';

export const PROXY_BRIDGE_TEXT = `// Mori's sandbox network bridge: 127.0.0.1:<port> -> the session's proxy socket, then the agent.
// usage: node proxy-bridge.mjs <port> <socket> -- <program> [args...]
import net from 'node:net';
import { spawn } from 'node:child_process';

const [port, socketPath, dashes, program, ...args] = process.argv.slice(2);
if (!/^[0-9]+$/.test(port ?? '') || !socketPath || dashes !== '--' || !program) {
  process.stderr.write('usage: node proxy-bridge.mjs <port> <socket> -- <program> [args...]\\n');
  process.exit(2);
}

const server = net.createServer((client) => {
  const up = net.connect(socketPath);
  client.on('error', () => up.destroy());
  up.on('error', () => client.destroy());
  client.pipe(up);
  up.pipe(client);
});
server.on('error', (err) => {
  process.stderr.write('mori proxy bridge: cannot listen on 127.0.0.1:' + port + ': ' + err.message + '\\n');
  process.exit(1);
});

server.listen(Number(port), '127.0.0.1', () => {
  // The agent never sees the variable that made Electron's binary run this as Node.
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(program, args, { stdio: 'inherit', env });
  // The terminal signals the whole foreground group, the agent included: the bridge lives on.
  for (const s of ['SIGINT', 'SIGQUIT', 'SIGTSTP', 'SIGWINCH']) process.on(s, () => {});
  // Sent to the bridge alone (a stop by pid): passed on to the agent.
  for (const s of ['SIGTERM', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('error', (err) => {
    process.stderr.write('mori proxy bridge: cannot run ' + program + ': ' + err.message + '\\n');
    process.exit(127);
  });
  child.on('exit', (code, signal) => {
    server.close();
    if (signal === null) process.exit(code ?? 1);
    for (const s of ['SIGINT', 'SIGQUIT', 'SIGTSTP', 'SIGWINCH', 'SIGTERM', 'SIGHUP']) process.removeAllListeners(s);
    process.kill(process.pid, signal);
  });
});
`;

/** Writes the bridge into `dir` (Mori's hooks dir) unless it already holds this text; its path. */
export function ensureProxyBridge(dir: string): string {
  const file = path.join(dir, PROXY_BRIDGE_SCRIPT);
  // Absent, unreadable or not a plain file (a FIFO there is never waited on): written below.
  const read = readAgentFileSync(file, Buffer.byteLength(PROXY_BRIDGE_TEXT));
  if (isAgentFileError(read) || read.toString('utf8') !== PROXY_BRIDGE_TEXT) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, PROXY_BRIDGE_TEXT, { mode: 0o600 });
    renameSync(tmp, file);
  }
  return file;
}
