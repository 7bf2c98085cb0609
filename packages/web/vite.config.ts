import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `vite` (dev) proxies the API to a judge started with `bin/judge up --port 8080`
const judge = process.env.JUDGE_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // hashed file names under assets/ are what the server caches for a year
    assetsDir: 'assets',
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: {
      // the judge accepts cookie-authenticated writes from its own origin only
      '/api': { target: judge, ws: true, changeOrigin: true, headers: { origin: judge } },
    },
  },
});
