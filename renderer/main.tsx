// The window's entry: styles, the API (preload or WebSocket), and the Preact app. Runs in the renderer.
import '@xterm/xterm/css/xterm.css';
import { render } from 'preact';
import { connectApi } from './api.js';
import { App } from './app.js';
import './styles.css';

render(<App api={connectApi()} />, document.getElementById('app') as HTMLElement);
