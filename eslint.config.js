// ESLint configuration. Besides typescript-eslint's recommended rules it enforces the layering of
// DESIGN.md §2: common/ is pure, only main/electron/ (and preload/) import 'electron', only the
// direct backend (main/terminals/direct/) imports node-pty, the renderer reaches nothing but common/,
// and the folders of main/ import each other only downwards (the table of who imports whom).
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const noNode = nodeBuiltins.map((name) => ({ name, message: 'this layer runs without Node: no Node built-ins here (DESIGN.md §2)' }));
const noElectron = { name: 'electron', message: "only main/electron/ and preload/ import 'electron' (DESIGN.md §2)" };
const noNodePty = { name: 'node-pty', message: 'only main/terminals/direct/ imports node-pty (DESIGN.md §2)' };

const layer = (message, ...folders) => ({ group: folders.map((f) => `**/${f}/**`), message });

/** Builds one no-restricted-imports rule from forbidden module names and forbidden folder patterns. */
const restrict = (paths, patterns) => ['error', { paths, patterns }];

// Who imports whom inside main/ (DESIGN.md §2, the table under the folder map). Each folder lists the
// folders of main/ it may NOT import; an import climbing the layers fails. It is its own rule
// (typescript-eslint's twin of no-restricted-imports), so it adds to the module bans of the blocks
// below instead of replacing them.
/** Folders that import no folder of main/ above them, and each other as they need. */
const BASE = ['state', 'git', 'agents', 'terminals', 'power'];
/** Above the base, in order: each may import the ones before it. */
const UPPER = ['checks', 'supervisor', 'daemon', 'daemon-client', 'web', 'remote', 'cli', 'electron'];
/**
 * Files of main/daemon/ its clients read too: the socket's address, the log files, and the approval
 * rule the CLI applies to itself. The rest of main/daemon/ is the daemon's own.
 */
const DAEMON_SHARED = ['control-socket-path', 'daemon-log', 'approval-gate', 'agent-ancestry', 'daemon-settings'];

/** One folder of main/ banned from `from`, with the reason; `except` names files of it that stay allowed. */
const banFolder = (from, folder, except = []) => ({
  group: [`**/${folder}/**`, ...except.map((f) => `!**/${folder}/${f}.js`)],
  message: `main/${from} may not import main/${folder}/${except.length > 0 ? ` beyond ${except.map((f) => `${f}.ts`).join(', ')}` : ''} (DESIGN.md §2, who imports whom)`,
});

/** The table's block for the files of one folder: every folder in `banned` is off limits. */
const folderLayer = (from, files, banned, { ignores = [], except = {} } = {}) => ({
  files,
  ignores,
  rules: {
    '@typescript-eslint/no-restricted-imports': ['error', { patterns: banned.map((f) => banFolder(from, f, except[f])) }],
  },
});

const above = (folder) => UPPER.slice(UPPER.indexOf(folder) + 1);

// Who imports whom inside main/supervisor/ (DESIGN.md §2, the supervisor's parts), bottom up: a part
// may import the parts before it, none after it, and none of the Supervisor's own files at the top
// (supervisor.ts, its options, start-up and shutdown), which build the parts in this order and import
// them all. A part reaches an earlier one through the ports it is built with; it tells a later one by
// an event the Supervisor subscribes that part to once both exist. So no cycle, types included.
const SUPERVISOR_PARTS = [
  // A session's runtime state and its one writer, the set, the store of its files (the one writer of
  // session.json), the lifecycle table and its moves, its restart state: every part acts on sessions.
  'session',
  // Typing into an agent, confirmed: a session is all it needs.
  'typing',
  // Git checkpoints of a session's work tree: a session is all they need.
  'checkpoints',
  // Usage limits: their plan, the screen's and the transcript's limit lines; a planned resume is an event.
  'limits',
  // What the agent says of itself: activity from its screen, its hooks (which read limits' time zone rule).
  'signals',
  // What an exit means: a checkpoint of it, then stop, attention, or a restart (an event) after a backoff.
  'exits',
  // Spawning and adopting agents: a new run gets typing, checkpoints, limit watches and signals, its exit goes to exits.
  'launch',
  // The one resume path: verify, then relaunch (launch), nudge (typing) or restart (exits); the plans it launches.
  'resume',
];
const SUPERVISOR_TOP = ['**/supervisor.js', '**/supervisor-*.js'];
const partLayer = (part, i) => ({
  files: [`main/supervisor/${part}/**/*.ts`],
  rules: {
    '@typescript-eslint/no-restricted-imports': ['error', {
      patterns: [
        ...above('supervisor').map((f) => banFolder(`supervisor/${part}/`, f)),
        ...SUPERVISOR_PARTS.slice(i + 1).map((later) => ({
          group: [`**/${later}/**`],
          message: `main/supervisor/${part}/ may not import main/supervisor/${later}/, a part built after it (DESIGN.md §2, the supervisor's parts)`,
        })),
        { group: SUPERVISOR_TOP, message: `main/supervisor/${part}/ may not import the Supervisor's own files, which build the parts (DESIGN.md §2, the supervisor's parts)` },
      ],
    }],
  },
});
const CLIENT_BANS = ['supervisor', 'checks', 'git', 'agents', 'terminals', 'power', 'sandbox'];
/** main/sandbox/: a session's sandbox rules and their bubblewrap form, read by the launch (supervisor) and the daemon and CLI above it. */
const SANDBOX = 'sandbox';

const importTable = [
  // main/os: process and system utilities every folder may use; imports nothing of ours but common/.
  {
    files: ['main/os/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [...BASE, SANDBOX, ...UPPER].map((f) => banFolder('os/', f)).concat({ group: ['**/background.js'], message: 'main/os/ imports nothing of ours but common/ (DESIGN.md §2, who imports whom)' }),
      }],
    },
  },
  folderLayer('background.ts', ['main/*.ts'], ['os', ...BASE, SANDBOX, ...UPPER]),
  ...BASE.map((f) => folderLayer(`${f}/`, [`main/${f}/**/*.ts`], [SANDBOX, ...UPPER])),
  // main/sandbox: above the base, below the supervisor that launches through it; of the agents it reads only the profile's types.
  {
    files: ['main/sandbox/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [...BASE.filter((f) => f !== 'agents'), ...UPPER].map((f) => banFolder('sandbox/', f)).concat({
          group: ['**/agents/**'],
          allowTypeImports: true,
          message: 'main/sandbox/ imports only the types of main/agents/ (DESIGN.md §2, who imports whom)',
        }),
      }],
    },
  },
  folderLayer('checks/', ['main/checks/**/*.ts'], above('checks')),
  folderLayer('supervisor/', ['main/supervisor/**/*.ts'], above('supervisor')),
  ...SUPERVISOR_PARTS.map(partLayer),
  folderLayer('daemon/', ['main/daemon/**/*.ts'], above('daemon')),
  // Clients stay light: what reaches the daemon, never the supervisor itself.
  folderLayer('daemon-client/', ['main/daemon-client/**/*.ts'], ['daemon', ...CLIENT_BANS, ...above('daemon-client')], { except: { daemon: DAEMON_SHARED } }),
  folderLayer('web/', ['main/web/**/*.ts'], ['daemon', ...CLIENT_BANS, ...above('web')]),
  // Other hosts' daemons through ssh, and the bridge ssh runs: a client too, which reads the approval rule.
  folderLayer('remote/', ['main/remote/**/*.ts'], ['daemon', ...CLIENT_BANS, 'web', ...above('remote')], { except: { daemon: DAEMON_SHARED } }),
  // The CLI hosts the daemon in `mori up` only; its other commands are clients.
  folderLayer('cli/', ['main/cli/**/*.ts'], ['daemon', 'electron'], { ignores: ['main/cli/commands/up.ts'], except: { daemon: DAEMON_SHARED } }),
  folderLayer('cli/commands/up.ts', ['main/cli/commands/up.ts'], ['electron']),
  // The app is a client of the daemon; its daemon entry is the `mori` CLI run by the app's binary.
  folderLayer('electron/', ['main/electron/**/*.ts'], ['daemon', 'cli', ...CLIENT_BANS.filter((f) => f !== 'power')], { ignores: ['main/electron/daemon-entry.ts'] }),
  folderLayer('electron/daemon-entry.ts', ['main/electron/daemon-entry.ts'], ['daemon', 'cli', ...CLIENT_BANS, 'web'], { except: { cli: ['index'] } }),
];

// Who imports whom inside renderer/ (DESIGN.md §2, the window's folders): ui/ holds what every pane
// shares and imports none of them; each pane's folder imports ui/ and, for types only, another pane or
// shell/ (the window that composes them, free to import any folder).
const RENDERER_PANES = ['sessions', 'header', 'terminal', 'editor', 'work-log', 'changes', 'checks', 'dialogs', 'notices', 'usage'];
const rendererBan = (from, folder, allowTypeImports) => ({
  group: [`../${folder}/**`],
  allowTypeImports,
  message: `renderer/${from}/ may not import renderer/${folder}/${allowTypeImports ? ' but for types' : ''} (DESIGN.md §2, the window's folders)`,
});
const rendererTable = [
  {
    files: ['renderer/ui/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...RENDERER_PANES, 'shell'].map((f) => rendererBan('ui', f, false)) }] },
  },
  ...RENDERER_PANES.map((pane) => ({
    files: [`renderer/${pane}/**/*.{ts,tsx}`],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [...RENDERER_PANES.filter((f) => f !== pane), 'shell'].map((f) => rendererBan(pane, f, true)),
      }],
    },
  })),
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'bench/results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // bin/ is CommonJS (bin/package.json): a `mori` command never starts Node's ES module loader.
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // A promise nobody awaits or handles loses its rejection: every async effect ends in a handler
    // that reports it. Needs type information, hence the project.
    files: ['**/*.ts'],
    ignores: ['renderer/**'],
    languageOptions: { parserOptions: { project: './tsconfig.node.json', tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }] },
  },
  {
    // The renderer (DOM types, its own project). Its calls go through MoriApi, whose promises resolve
    // to Results and never reject, so an event handler may start one with `void`.
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    languageOptions: { parserOptions: { project: './tsconfig.web.json', tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }] },
  },
  {
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([...noNode, noElectron, noNodePty], [
        layer('common/ imports nothing of ours outside common/ (DESIGN.md §2)', 'main', 'preload', 'renderer'),
      ]),
    },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/electron/**', 'main/terminals/direct/**'],
    rules: {
      'no-restricted-imports': restrict([noElectron, noNodePty], [
        layer('main/ may not import the preload or the renderer (DESIGN.md §2)', 'preload', 'renderer'),
        layer('main/ may not import main/electron/ (DESIGN.md §2): the supervisor runs without Electron', 'electron'),
      ]),
    },
  },
  {
    // main/os/: what Mori knows of processes (liveness, groups, trees, start times, the boot), under
    // everything else: it imports nothing of ours but common/.
    files: ['main/os/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([noElectron, noNodePty], [
        { regex: '^\\.\\./(?!\\.\\./common/)', message: 'main/os/ imports nothing of ours but common/ (DESIGN.md §2)' },
      ]),
    },
  },
  {
    files: ['main/terminals/direct/**'],
    rules: {
      'no-restricted-imports': restrict([noElectron], [
        layer('main/ may not import the preload or the renderer (DESIGN.md §2)', 'preload', 'renderer'),
      ]),
    },
  },
  {
    files: ['main/electron/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([noNodePty], [
        layer('main/electron/ may not import the preload or the renderer (DESIGN.md §2)', 'preload', 'renderer'),
      ]),
    },
  },
  {
    files: ['preload/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([noNodePty], [
        layer('preload/ imports only common/ (DESIGN.md §2)', 'main', 'renderer'),
      ]),
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': restrict([...noNode, noElectron, noNodePty], [
        layer('the renderer imports only common/ (DESIGN.md §2)', 'main', 'preload'),
      ]),
    },
  },
  ...importTable,
  ...rendererTable,
);
