/**
 * `npm test`: starts one embedded PostgreSQL for the whole run (or uses TEST_DATABASE_URL), migrates a
 * template database, then runs tap. Each test file clones the template into a database of its own, so
 * files run in parallel and never see each other's data.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { startEmbeddedPostgres, type EmbeddedCluster } from '../ops/embedded-postgres.js'
import { prepareTemplate, TEMPLATE_DATABASE } from './support/template.js'

const args = process.argv.slice(2)
let cluster: EmbeddedCluster | undefined
let directory: string | undefined
let serverUrl = process.env.TEST_DATABASE_URL

if (!serverUrl) {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'rankrelay-test-'))
  cluster = await startEmbeddedPostgres({ directory: path.join(directory, 'pg'), password: 'rankrelay-test', durable: false })
  serverUrl = cluster.connectionString('postgres')
}

let code = 1
try {
  await prepareTemplate(serverUrl)
  code = await new Promise<number>((resolve) => {
    const tap = spawn(path.resolve('node_modules/.bin/tap'), args, {
      stdio: 'inherit',
      env: { ...process.env, RR_TEST_SERVER_URL: serverUrl, RR_TEST_TEMPLATE: TEMPLATE_DATABASE },
    })
    tap.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)))
  })
} finally {
  await cluster?.stop().catch(() => {})
  if (directory) await fs.rm(directory, { recursive: true, force: true }).catch(() => {})
}
process.exit(code)
