import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The api serves dist/ (docs/web.md). In development `vite` proxies /api to an api on
 * API_PROXY_TARGET, so requests stay same-origin as in production.
 */
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022' },
  server: {
    proxy: { '/api': { target: process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:3000', changeOrigin: false } },
  },
});
