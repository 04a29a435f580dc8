// ESLint configuration. Besides typescript-eslint's recommended rules it enforces the layering of
// DESIGN.md §2: common/ is pure, only main/electron/ (and preload/) import 'electron', only the
// direct backend (main/terminals/direct/) imports node-pty, and the renderer reaches nothing but common/.
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const noNode = nodeBuiltins.map((name) => ({ name, message: 'this layer runs without Node: no Node built-ins here (DESIGN.md §2)' }));
const noElectron = { name: 'electron', message: "only main/electron/ and preload/ import 'electron' (DESIGN.md §2)" };
const noNodePty = { name: 'node-pty', message: 'only main/terminals/direct/ imports node-pty (DESIGN.md §2)' };

const layer = (message, ...folders) => ({ group: folders.map((f) => `**/${f}/**`), message });

/** Builds one no-restricted-imports rule from forbidden module names and forbidden folder patterns. */
const restrict = (paths, patterns) => ['error', { paths, patterns }];

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'bench/results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
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
);
