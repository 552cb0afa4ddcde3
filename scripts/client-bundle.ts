/**
 * tsdown presets for the two halves of a dsh bundle plugin.
 *
 * Host half: one ESM file for Node with every `@deepseek-ai/*` import left to
 * the running dsh, so cordis and the harness services stay single instances.
 *
 * Browser half: the web shell's closure-factory format. The file calls
 * `window.__ModuleLoader__.load({ id, factory })`; `factory(require)` returns
 * the CommonJS exports, and `require` serves only the shell's module table.
 * Everything outside that table is bundled, stylesheets included: the shell
 * serves `client.js` alone, so CSS is compiled by lightningcss and injected
 * from JS once per document.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import { transform } from 'lightningcss'
import type { Plugin } from 'rolldown'
import type { UserConfig } from 'tsdown'
import { patchWorkspaceBundle } from '../src/workspace-browser/patch.ts'

/** Specifiers the web shell shares through its module table at rc.8. */
export const SHELL_MODULES: readonly string[] = [
  'react', 'react/jsx-runtime', 'react-dom', 'react-dom/client',
  '@deepseek-ai/cordis',
  '@deepseek-ai/dsh-client-ui-slots',
  '@deepseek-ai/dsh-client-ui-primitives',
  '@deepseek-ai/dsh-client-runtime/client',
]

/**
 * `@deepseek-ai/*` modules without runtime identity, safe to inline into a
 * browser bundle: the vendored libraries, the browser-safe file grammar, and
 * the session id factory of the session package's types entry.
 */
const INLINABLE = /^@deepseek-ai\/(cosmokit|schemastery)(\/|$)|^@deepseek-ai\/dsh-file-reference\/grammar$|^@deepseek-ai\/dsh-session\/types$/

const CSS_PREFIX = '\0dsh-sessions-css:'
const CSS_SUFFIX = '.js'

/** Compiles imported stylesheets and turns each into a module that injects one tagged `<style>`. */
function stylesheets(id: string): Plugin {
  return {
    name: 'dsh-sessions:stylesheets',
    async resolveId(source, importer) {
      if (!source.endsWith('.css')) return null
      const resolved = await this.resolve(source, importer, { skipSelf: true })
      if (resolved === null) return null
      return CSS_PREFIX + resolved.id + CSS_SUFFIX
    },
    load(moduleId) {
      if (!moduleId.startsWith(CSS_PREFIX)) return null
      const file = moduleId.slice(CSS_PREFIX.length, -CSS_SUFFIX.length)
      this.addWatchFile(file)
      const modular = file.endsWith('.module.css')
      const result = transform({
        filename: file,
        code: readFileSync(file),
        minify: true,
        cssModules: modular ? { pattern: 'dsh-sessions_[hash]_[local]' } : false,
      })
      const classes = Object.fromEntries(Object.entries(result.exports ?? {}).map(([local, entry]) => [local, entry.name]))
      const tag = `${id}/${basename(file)}`
      return [
        `const css = ${JSON.stringify(result.code.toString())};`,
        `const tag = ${JSON.stringify(tag)};`,
        'if (typeof document !== "undefined" && !document.querySelector(`style[data-plugin-css="${tag}"]`)) {',
        '  const style = document.createElement("style");',
        `  style.dataset.plugin = ${JSON.stringify(id)};`,
        '  style.dataset.pluginCss = tag;',
        '  style.textContent = css;',
        '  document.head.appendChild(style);',
        '}',
        modular ? `export default ${JSON.stringify(classes)};` : 'export {};',
      ].join('\n')
    },
  }
}

const VENDORED_WORKSPACE = 'virtual:dsh-sessions/vendored-workspace'
const VENDORED_WORKSPACE_ID = '\0dsh-sessions-vendored-workspace.js'

/**
 * Serves the published, pinned `@deepseek-ai/dsh-client-ui-workspace` browser
 * bundle with this project's patch applied, headed by the upstream
 * licence notice. A published bundle that no longer matches the patch's
 * anchors fails the build.
 */
function vendoredWorkspace(): Plugin {
  return {
    name: 'dsh-sessions:vendored-workspace',
    resolveId(source) {
      return source === VENDORED_WORKSPACE ? VENDORED_WORKSPACE_ID : null
    },
    load(id) {
      if (id !== VENDORED_WORKSPACE_ID) return null
      const bundle = createRequire(import.meta.url).resolve('@deepseek-ai/dsh-client-ui-workspace/client')
      const packageDir = dirname(dirname(bundle))
      const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { name: string; version: string }
      const license = readFileSync(join(packageDir, 'LICENSE'), 'utf8').replaceAll('*/', '* /')
      this.addWatchFile(bundle)
      const notice = `/*! ${manifest.name}@${manifest.version}, patched by @wishp3/dsh-sessions (src/workspace-browser/patch.ts).\n${license}*/\n`
      return notice + patchWorkspaceBundle(readFileSync(bundle, 'utf8'))
    },
  }
}

/** Fails the build when a browser import would bundle a second copy of a harness package. */
function harnessPurity(): Plugin {
  return {
    name: 'dsh-sessions:harness-purity',
    resolveId(source, importer) {
      if (!source.startsWith('@deepseek-ai/') || SHELL_MODULES.includes(source) || INLINABLE.test(source)) return null
      this.error(`browser half imports ${source} from ${importer ?? '?'}: only the shell's module table (${SHELL_MODULES.join(', ')}) may be imported at runtime`)
    },
  }
}

/**
 * Browser half in the closure-factory format.
 * @param id - the package name; the shell matches it against the boot entry.
 * @param entry - the browser entry source.
 * @returns the tsdown config emitting `lib/client.js`.
 */
export function clientBundle(id: string, entry: string): UserConfig {
  return {
    entry: { client: entry },
    tsconfig: 'tsconfig.client.json',
    format: 'cjs',
    platform: 'browser',
    target: 'es2022',
    outDir: 'lib',
    clean: false,
    dts: false,
    sourcemap: false,
    deps: {
      neverBundle: (source: string) => SHELL_MODULES.includes(source),
      alwaysBundle: (source: string) => !SHELL_MODULES.includes(source),
    },
    define: {
      'process.env.NODE_ENV': JSON.stringify('production'),
    },
    plugins: [vendoredWorkspace(), harnessPurity(), stylesheets(id)],
    outputOptions: {
      entryFileNames: 'client.js',
      banner: `window.__ModuleLoader__.load({ id: ${JSON.stringify(id)}, factory: (require) => {`,
      intro: 'var module = { exports: {} }; var exports = module.exports;',
      footer: 'return module.exports; } });',
    },
  }
}

/** Keeps the license of each package bundled into the host half: its notice, once, as a comment at the top of the file. */
function licenseNotices(): Plugin {
  /** Each bundled package's notice, by its folder. */
  const notices = new Map<string, string>()
  const packageDirOf = (id: string): string | undefined => {
    const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^@\\/][^\\/]*)[\\/]/.exec(id)
    return match === null || match[1]!.startsWith('@deepseek-ai') ? undefined : id.slice(0, match.index + match[0].length)
  }
  return {
    name: 'dsh-sessions:license-notices',
    transform(_code, id) {
      const packageDir = packageDirOf(id)
      if (packageDir === undefined || notices.has(packageDir)) return null
      const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { name: string; version: string; license?: string }
      const license = readFileSync(join(packageDir, 'LICENSE'), 'utf8').replaceAll('*/', '* /')
      notices.set(packageDir, `/*! ${manifest.name}@${manifest.version} (${manifest.license ?? 'see its LICENSE'})\n${license}*/\n`)
      return null
    },
    renderChunk(code, chunk) {
      const dirs = new Set(chunk.moduleIds.map(packageDirOf).filter(dir => dir !== undefined))
      const header = [...dirs].sort().map(dir => notices.get(dir) ?? '').join('')
      return header === '' ? null : { code: header + code, map: null }
    },
  }
}

/**
 * Host half: one ESM file, harness packages external.
 * @param entry - the host entry source.
 * @returns the tsdown config emitting `lib/index.js`.
 */
export function hostBundle(entry: string, name = 'index'): UserConfig {
  return {
    entry: { [name]: entry },
    tsconfig: 'tsconfig.host.json',
    format: 'esm',
    platform: 'node',
    target: 'node22',
    outDir: 'lib',
    clean: false,
    dts: false,
    sourcemap: false,
    fixedExtension: false,
    deps: {
      neverBundle: [/^@deepseek-ai\//],
    },
    plugins: [licenseNotices()],
  }
}
