// The web app (src/web, React) is built by `vite build` into dist/web, which the Koa API serves
// (src/http/web-static.ts). Vite only strips types, so the build first type-checks the web app
// against src/web/tsconfig.json: a type error there fails `npm run build` like one in the API.
import { join } from 'node:path';
import ts from 'typescript';
import { defineConfig, type Plugin } from 'vite';

function typecheckWebApp(): Plugin {
  let root = '';
  return {
    name: 'typecheck-web-app',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    buildStart() {
      const host: ts.ParseConfigFileHost = {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) =>
          this.error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')),
      };
      const parsed = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), { noEmit: true }, host);
      if (!parsed) return this.error('Cannot read src/web/tsconfig.json');
      const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
      const diagnostics = [...parsed.errors, ...ts.getPreEmitDiagnostics(program)];
      if (diagnostics.length > 0) {
        const text = ts.formatDiagnostics(diagnostics, {
          getCanonicalFileName: (name) => name,
          getCurrentDirectory: () => process.cwd(),
          getNewLine: () => '\n',
        });
        this.error(`The web app does not type-check:\n${text}`);
      }
    },
  };
}

export default defineConfig({
  root: 'src/web',
  base: '/',
  plugins: [typecheckWebApp()],
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
  },
  server: {
    // `npx vite` while working on the pages; the API (`npm start`) answers /app/api and /api.
    proxy: { '/app/api': 'http://localhost:3000', '/api': 'http://localhost:3000' },
  },
});
