import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// `vite` (dev) proxies the API to a judge started with `bin/judge up --port 8080`
const judge = process.env.JUDGE_URL ?? 'http://127.0.0.1:8080';

/**
 * index.html's script is src/boot.ts, which imports the app (src/main.tsx) only after sending the
 * opened page's requests. So that the app's chunks do not wait for boot.ts to arrive and run, the
 * page preloads them (and links their styles) from the start, as it would if boot.ts imported them.
 */
function preloadApp(): Plugin {
  return {
    name: 'judge:preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle ?? {};
        const chunks = Object.values(bundle).flatMap((o) => (o.type === 'chunk' ? [o] : []));
        const app = chunks.find((c) => c.facadeModuleId?.endsWith('/src/main.tsx'));
        if (!app) throw new Error('the build has no chunk for src/main.tsx');
        const js = new Set<string>();
        const css = new Set<string>();
        const visit = (fileName: string) => {
          if (js.has(fileName)) return;
          js.add(fileName);
          const c = bundle[fileName];
          if (c?.type !== 'chunk') return;
          for (const f of c.viteMetadata?.importedCss ?? []) css.add(f);
          c.imports.forEach(visit);
        };
        visit(app.fileName);
        const tags = [
          ...[...js].filter((f) => !html.includes(`/${f}"`)).map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
          ...[...css].filter((f) => !html.includes(`/${f}"`)).map((f) => `<link rel="stylesheet" crossorigin href="/${f}">`),
        ];
        return html.replace(/\n\s*<\/head>/, `\n    ${tags.join('\n    ')}\n  </head>`);
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), preloadApp()],
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
