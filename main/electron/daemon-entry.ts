// The daemon as the packaged app runs it: the app's own binary started as Node
// (ELECTRON_RUN_AS_NODE=1, DESIGN.md §12) on this file, which is the `mori` CLI. The variable is
// removed first so nothing the daemon starts (a tmux server, an agent, a check) inherits it: it
// would turn any Electron-based tool the agent runs into plain Node. Runs as its own Node process;
// imports no Electron.
delete process.env['ELECTRON_RUN_AS_NODE'];
await import('../cli/index.js');
