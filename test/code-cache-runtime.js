// Jest's module loader (`runtime` in jest.config.js), with V8's code cache kept between the test
// files one worker runs. Jest gives every file a fresh module registry, so each file compiles every
// module it loads again: about 2,000 modules and 12 MB of JavaScript for a file that starts the app,
// the largest part of the CPU of loading them (CONTRIBUTING.md, "Where a file's CPU goes"). Here the
// first compile of a module's code produces V8's cache of it, and later files of the same worker
// hand that back to V8, which then skips parsing. Only the compile changes: the module still runs
// afresh in each file's own context, and code that changed (an edited file) is compiled anew.
// Plain JavaScript, CommonJS: Jest require()s this file itself, before any transform.
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS, see above */
const { compileFunction } = require('node:vm');
const Runtime = require('jest-runtime').default;
/* eslint-enable @typescript-eslint/no-require-imports */

/** A module's compiled code by file name: the source it was compiled from and V8's cache of it. */
const codeCache = new Map();

class CodeCacheRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    // Jest 30's runtime compiles every CommonJS module in its executor's `compile`, with the
    // options copied below; an upgrade that moves it must update this file rather than lose it.
    const executor = this.executor;
    if (typeof executor?.compile !== 'function' || typeof executor.dynamicImport !== 'function') {
      throw new Error('test/code-cache-runtime.js: jest-runtime no longer compiles in executor.compile');
    }
    const jestCompile = executor.compile.bind(executor);
    executor.compile = (scriptSource, filename) => {
      const vmContext = executor.environment.getVmContext();
      if (vmContext == null) return null;
      const kept = codeCache.get(filename);
      const cachedData = kept && kept.source === scriptSource ? kept.data : undefined;
      const scriptFilename = executor.resolution.isCoreModule(filename)
        ? `jest-nodejs-core-${filename}`
        : filename;
      let compiled;
      try {
        compiled = compileFunction(scriptSource, executor.injectedModuleParameters, {
          filename: scriptFilename,
          cachedData,
          produceCachedData: cachedData === undefined,
          importModuleDynamically: (specifier, _function, importAttributes, phase) =>
            executor.dynamicImport(specifier, scriptFilename, vmContext, importAttributes, phase),
          parsingContext: vmContext,
        });
      } catch {
        // Jest's own compile reports the error as it always does (a syntax error with its hints).
        return jestCompile(scriptSource, filename);
      }
      if (compiled.cachedDataProduced)
        codeCache.set(filename, { source: scriptSource, data: compiled.cachedData });
      else if (compiled.cachedDataRejected) codeCache.delete(filename);
      return compiled;
    };
  }
}

module.exports = CodeCacheRuntime;
