import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import './index.css';

// Zod compiles object parsers with `new Function` when it may, and finds out by trying when a
// schema is built: under this app's CSP (no 'unsafe-eval') that try is a reported violation.
// Its global config must say so before the first schema exists, which is before any module
// that imports zod runs, so it is set here (zod's own config object, read when zod loads) and
// not with z.config(), which would bring zod into the first page.
(globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig = { jitless: true };

const container = document.getElementById('root');
if (!container) throw new Error('index.html is missing the #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
