/**
 * The project is Apache-2.0, and every place a user or a package tool reads the licence
 * from says so: the LICENSE file, package.json, the served OpenAPI document's info.license, and the Python
 * SDK's metadata (PKG-INFO, pyproject.toml) and source archive (which ships the LICENSE text itself).
 */
import fs from 'node:fs/promises'
import t from 'tap'
import { generatePythonSdk } from '../../read-api/sdk/generate.js'
import { createRegistry } from '../../read-api/rpc/index.js'
import { startTestSystem } from '../support/system.js'

const root = new URL('../../', import.meta.url)
const SPDX = 'Apache-2.0'

t.test('LICENSE is the full Apache License 2.0 text', async (t) => {
  const text = await fs.readFile(new URL('LICENSE', root), 'utf8').catch(() => '')
  t.match(text, /^\s*Apache License\s+Version 2\.0, January 2004\s+http:\/\/www\.apache\.org\/licenses\/\s/, 'the licence header')
  t.match(text, /TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION/)
  // The nine sections and the appendix: the full text, not a pointer to it.
  for (const section of [
    '1. Definitions.',
    '2. Grant of Copyright License.',
    '3. Grant of Patent License.',
    '4. Redistribution.',
    '9. Accepting Warranty or Additional Liability.',
    'END OF TERMS AND CONDITIONS',
    'APPENDIX: How to apply the Apache License to your work.',
  ]) {
    t.ok(text.includes(section), `has "${section}"`)
  }
})

t.test('package.json says Apache-2.0', async (t) => {
  const pkg = JSON.parse(await fs.readFile(new URL('package.json', root), 'utf8')) as { license?: string }
  t.equal(pkg.license, SPDX)
})

t.test('the served OpenAPI document says Apache-2.0', async (t) => {
  const ts = await startTestSystem(t)
  const response = await ts.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })
  t.equal(response.statusCode, 200)
  const info = (response.json() as { info: { license?: { name?: string; identifier?: string; url?: string } } }).info
  // OpenAPI 3.1: name is required; identifier (SPDX) and url are mutually exclusive.
  t.same(info.license, { name: 'Apache 2.0', identifier: SPDX })
})

t.test('the Python SDK metadata and archive say Apache-2.0 and ship the text', async (t) => {
  const { files } = generatePythonSdk(createRegistry())
  const file = (path: string) => files.find((f) => f.path === path)?.data.toString('utf8') ?? ''
  const pkgInfo = file('PKG-INFO')
  t.match(pkgInfo, /^License: Apache-2\.0$/m, 'PKG-INFO License')
  t.match(pkgInfo, /^Classifier: License :: OSI Approved :: Apache Software License$/m, 'PKG-INFO classifier')
  t.match(file('pyproject.toml'), /^license = \{ text = "Apache-2\.0" \}$/m, 'pyproject.toml license')
  const license = await fs.readFile(new URL('LICENSE', root), 'utf8').catch(() => 'missing')
  t.equal(file('LICENSE'), license, 'the SDK tree carries the LICENSE file')
  // The archive pip installs is these files; a source archive the build backend re-creates keeps LICENSE too.
  const backend = await fs.readFile(new URL('sdk/python/backend.py', root), 'utf8')
  t.match(backend, /_TOP_FILES = \([^)]*"LICENSE"/, 'backend.py keeps LICENSE in a rebuilt sdist')
})
