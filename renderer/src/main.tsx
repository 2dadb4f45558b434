// Renderer: the agent-facing UI; it runs sandboxed and reaches main only through the preload bridge.
import './zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './app/App';
import './styles.css';

const container = document.getElementById('root');
if (container === null) {
  throw new Error('Renderer root element #root is missing from index.html');
}

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
