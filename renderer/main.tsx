import { render } from 'preact';
render(<h1>Mori</h1>, document.getElementById('app') as HTMLElement);
