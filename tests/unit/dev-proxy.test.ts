import { describe, expect, it } from 'vitest';
import config from '../../vite.config.ts';

// `npm run dev` serves the app from Vite and proxies the API. A proxy that rewrote the Host
// header made every POST fail the API's same-origin check (Origin localhost:5000, Host :5001).
describe('the development proxy', () => {
  it('keeps the browser-facing Host on API calls', () => {
    const api = config.server?.proxy?.['/api'];
    expect(typeof api).toBe('object');
    expect(api).toMatchObject({ changeOrigin: false });
  });
});
