// The terminals' colours in the page's two themes (styles.css's --term-bg and --text): the text, the
// caret, the selection, and the sixteen ANSI colours an agent's output uses, each ≥ 4.5:1 on its
// background (but black on dark and white on light, the colours programs use as backgrounds).
// Runs in the renderer.
import type { ITheme } from '@xterm/xterm';

const DARK: ITheme = {
  background: '#16181d',
  foreground: '#d7dae0',
  cursor: '#d7dae0',
  cursorAccent: '#16181d',
  selectionBackground: '#264f78',
  black: '#484f58',
  red: '#ff7b72',
  green: '#56d364',
  yellow: '#e3b341',
  blue: '#79b8ff',
  magenta: '#d2a8ff',
  cyan: '#56d4dd',
  white: '#d7dae0',
  brightBlack: '#8b919b',
  brightRed: '#ffa198',
  brightGreen: '#7ee787',
  brightYellow: '#f2cc60',
  brightBlue: '#a5d6ff',
  brightMagenta: '#e2c5ff',
  brightCyan: '#b3f0ff',
  brightWhite: '#ffffff',
};

const LIGHT: ITheme = {
  background: '#fbfbfa',
  foreground: '#1f2328',
  cursor: '#1f2328',
  cursorAccent: '#fbfbfa',
  selectionBackground: '#c8d7f0',
  black: '#1f2328',
  red: '#b42318',
  green: '#17722f',
  yellow: '#8a5c00',
  blue: '#1f5fbf',
  magenta: '#8250df',
  cyan: '#0f6a7a',
  white: '#646a73',
  brightBlack: '#57606a',
  brightRed: '#a40e26',
  brightGreen: '#116329',
  brightYellow: '#7a4f00',
  brightBlue: '#0550ae',
  brightMagenta: '#6e40c9',
  brightCyan: '#0b5a67',
  brightWhite: '#3d434b',
};

export const terminalTheme = (dark: boolean): ITheme => (dark ? DARK : LIGHT);
