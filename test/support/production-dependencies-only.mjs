/**
 * `node --import ./test/support/production-dependencies-only.mjs …`: runs the service as the Docker image
 * would, where `npm ci --omit=dev` installed no devDependency. A module of this repository (not one inside
 * node_modules) that imports a devDependency fails to resolve, exactly as ERR_MODULE_NOT_FOUND in the image.
 */
import { readFileSync } from 'node:fs'
import { register } from 'node:module'
import { isMainThread } from 'node:worker_threads'

// Loaded twice: on the main thread to register, and in the loader thread as the hooks module.
if (isMainThread) register(import.meta.url)

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
const devOnly = new Set(Object.keys(pkg.devDependencies ?? {}).filter((name) => !(name in (pkg.dependencies ?? {}))))

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`); null for relative, absolute and node: ones. */
function packageOf(specifier) {
  if (/^(\.|\/|node:|file:|data:)/.test(specifier)) return null
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

export async function resolve(specifier, context, nextResolve) {
  const name = packageOf(specifier)
  const fromOwnCode = context.parentURL !== undefined && !context.parentURL.includes('/node_modules/')
  if (name !== null && fromOwnCode && devOnly.has(name)) {
    const error = new Error(`Cannot find package '${name}' imported from ${context.parentURL} (a devDependency: npm ci --omit=dev does not install it)`)
    error.code = 'ERR_MODULE_NOT_FOUND'
    throw error
  }
  return nextResolve(specifier, context)
}
