/**
 * The Python SDK: the archive and its index are served publicly and reproducibly; pip installs the archive
 * offline into a fresh virtual environment; the installed client then talks to this server over a real
 * socket (RPCs, ApiError codes, table reads), to a local stand-in for the jobs API (the spec's shapes, which
 * a later issue serves), and verifies webhook signatures computed here in Node.
 *
 * python3 is required: without it the test fails, it does not skip.
 */
import { spawn, spawnSync } from 'node:child_process'
import { createHash, createHmac } from 'node:crypto'
import fs from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import t from 'tap'
import { createRegistry } from '../../read-api/rpc/index.js'
import { rpc, RpcRegistry, type AnyRpc } from '../../read-api/registry.js'
import { ARCHIVE_FILENAME, LATEST_FILENAME, buildSdkArchive } from '../../read-api/sdk/archive.js'
import { generatePythonSdk, pythonMethodName } from '../../read-api/sdk/generate.js'
import { pythonType } from '../../read-api/sdk/python-types.js'
import { tarGz } from '../../read-api/sdk/tar.js'
import { SDK_VERSION } from '../../read-api/sdk/version.js'
import { API_VERSION } from '../../read-api/version.js'
import { z } from 'zod'
import { startTestSystem } from '../support/system.js'
import { keyFor, orgWithKey } from './helpers.js'

const PYTHON = process.env.PYTHON ?? 'python3'

/** python3 and its venv module, or a message saying what is missing. */
function pythonProblem(): string | null {
  const version = spawnSync(PYTHON, ['--version'], { encoding: 'utf8' })
  if (version.error || version.status !== 0)
    return `${PYTHON} is required for the SDK test and was not found (${version.error?.message ?? version.stderr})`
  const venv = spawnSync(PYTHON, ['-c', 'import venv, ensurepip'], { encoding: 'utf8' })
  if (venv.status !== 0) return `${PYTHON} lacks the venv/ensurepip modules (install python3-venv): ${venv.stderr}`
  return null
}

/**
 * Runs a command to completion without blocking the event loop: the servers the Python script talks to live
 * in this process, so a synchronous spawn would deadlock them.
 */
function run(
  command: string,
  args: string[],
  options: { cwd?: string; input?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      // Offline and isolated from the developer's pip configuration and cache.
      env: {
        ...process.env,
        PIP_NO_INDEX: '1',
        PIP_NO_CACHE_DIR: '1',
        PIP_DISABLE_PIP_VERSION_CHECK: '1',
        PIP_CONFIG_FILE: os.devNull,
        PYTHONDONTWRITEBYTECODE: '1',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000)
    child.on('error', (error) => {
      clearTimeout(timer)
      resolve({ code: null, stdout, stderr: `${stderr}${String(error)}` })
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
    child.stdin.end(options.input ?? '')
  })
}

const sign = (secret: string, timestamp: number, body: string) =>
  `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`

interface Recorded {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

/**
 * A stand-in for the jobs API as the spec describes it (POST /api/v1/jobs → 202 {job_id, status_url};
 * GET /api/v1/jobs/{id} → the record; POST …/cancel), plus a few answers the real server gives only under
 * conditions a test cannot set up cheaply (a 409 with Retry-After, a non-JSON 502). Records every request.
 */
async function startStub(t: { teardown(fn: () => unknown): void }) {
  const requests: Recorded[] = []
  const polls = new Map<number, number>()
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers })
        res.end(JSON.stringify(value))
      }
      const url = req.url ?? ''
      if (req.method === 'POST' && url === '/api/v1/jobs') return json(202, { job_id: 77, status_url: '/api/v1/jobs/77' })
      const job = /^\/api\/v1\/jobs\/(\d+)$/.exec(url)
      if (req.method === 'GET' && job) {
        const id = Number(job[1])
        const n = (polls.get(id) ?? 0) + 1
        polls.set(id, n)
        if (id === 404) return json(404, { error: 'Not found', code: 'not_found', detail: 'job 404 not found' })
        // Job 88 never finishes; job 77 is queued, then running, then rate limited once, then done.
        if (id === 88 || n === 1) return json(200, { job_id: id, kind: 'export_org', status: 'queued' })
        if (n === 2) return json(200, { job_id: id, kind: 'export_org', status: 'running', progress: 0.5 })
        if (n === 3) return json(429, { error: 'Rate limited', code: 'rate_limited' }, { 'retry-after': '0' })
        return json(200, { job_id: id, kind: 'export_org', status: 'done', result: { download_url: '/api/v1/exports/1/x.zip' } })
      }
      if (req.method === 'POST' && url === '/api/v1/jobs/77/cancel')
        return json(409, { error: 'The job is finished', code: 'job_already_terminal' })
      if (req.method === 'POST' && url === '/api/v1/rpc/add_client') return json(200, { result: 4242 })
      if (req.method === 'POST' && url === '/api/v1/rpc/busy') {
        return json(409, { error: 'In flight', code: 'idempotency_in_flight', hint: 'retry' }, { 'retry-after': '7' })
      }
      res.writeHead(502, { 'content-type': 'text/plain' })
      res.end('bad gateway')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }
}

/** The script the installed SDK runs: every observation printed as one JSON object for the asserts below. */
const SCRIPT = String.raw`
import inspect, json, sys
import rankrelay
from rankrelay import ApiError, Client, JobTimeout, UNSET, verify_webhook_signature

cfg = json.loads(sys.stdin.read())
out = {}

def failure(fn):
    try:
        fn()
    except ApiError as e:
        return {"status": e.status, "code": e.code, "error": e.error, "detail": e.detail, "hint": e.hint,
                "retry_after": e.retry_after, "request_id": e.request_id, "is_exception": isinstance(e, Exception)}
    return None

out["version"] = [rankrelay.__version__, rankrelay.API_VERSION, rankrelay.REGISTRY_FINGERPRINT]
out["methods"] = sorted(rankrelay.METHODS)
out["not_callable"] = [n for n, m in rankrelay.METHODS.items() if not callable(getattr(Client, m["python_name"], None))]
sig = inspect.signature(Client.get_client)
out["get_client_params"] = {n: [p.kind.name, p.default is UNSET, p.default is inspect.Parameter.empty] for n, p in sig.parameters.items()}
out["get_client_annotations"] = {n: str(p.annotation) for n, p in sig.parameters.items() if n != "self"}
out["add_client_params"] = list(inspect.signature(Client.add_client).parameters)
out["get_client_doc"] = Client.get_client.__doc__

c = Client(api_key=cfg["org_key"], base_url=cfg["base_url"])
client_id = c.add_client(client={"name": "Py Plumbing", "website_url": "https://py-plumbing.example.com",
                                  "services": ["Drains"], "locations": ["Austin, TX", "Waco, TX"]})
out["client_id"] = client_id
out["client"] = c.get_client(client_id=client_id)
out["via_call"] = c.call("get_client", client_id=client_id)["name"]
out["via_call_dict"] = c.call("get_client", {"client_id": client_id})["id"]
out["services"] = [s["name"] for s in c.get_services_for_client(client_id=client_id)]
out["count"] = c.count_active_clients()
out["api_version_header"] = c.last_headers.get("x-service-api-version")
key = "sdk-idem-" + str(client_id)
first = c.add_client(client={"name": "Idem Co", "website_url": "https://idem.example.com"}, idempotency_key=key)
first_replayed = c.last_headers.get("idempotency-replayed")
again = c.add_client(client={"name": "Idem Co", "website_url": "https://idem.example.com"}, idempotency_key=key)
out["idempotency"] = {"same_id": first == again, "first_replayed": first_replayed, "again_replayed": c.last_headers.get("idempotency-replayed")}
out["idempotency_reused"] = failure(lambda: c.add_client(client={"name": "Other Co", "website_url": "https://other.example.com"}, idempotency_key=key))
out["count_after"] = c.count_active_clients()
out["not_found"] = failure(lambda: c.get_client(client_id=999999))
out["validation"] = failure(lambda: c.call("get_client", client_id="seven"))
out["unknown_method"] = failure(lambda: c.call("no_such_method"))
out["read_only"] = failure(lambda: Client(api_key=cfg["read_key"], base_url=cfg["base_url"]).add_client(
    client={"name": "Nope", "website_url": "https://nope.example.com"}))
out["bad_key"] = failure(lambda: Client(api_key="rrk_not_a_key", base_url=cfg["base_url"]).count_active_clients())
out["foreign_org"] = failure(lambda: c.get_client(client_id=client_id, org_id=cfg["other_org_id"]))
out["table"] = c.read_table("clients", {"id": client_id})
out["locations"] = [r["name"] for r in c.iter_table("client_locations", {"client_id": client_id, "removed_at": None}, page_size=1)]
out["table_error"] = failure(lambda: c.read_table("es_events"))
try:
    c.call("../health")
    out["bad_method_name"] = None
except ValueError as e:
    out["bad_method_name"] = str(e)

w = cfg["webhook"]
body = w["body"].encode("utf-8")
out["webhook"] = {
    "valid": verify_webhook_signature(w["secret"], w["header"], body),
    "valid_str_body": verify_webhook_signature(w["secret"], w["header"], w["body"]),
    "rotated": verify_webhook_signature(w["secret"], w["rotated_header"], body),
    "tampered": verify_webhook_signature(w["secret"], w["header"], body + b" "),
    "wrong_secret": verify_webhook_signature("whsec_other", w["header"], body),
    "old": verify_webhook_signature(w["secret"], w["old_header"], body),
    "old_wide_tolerance": verify_webhook_signature(w["secret"], w["old_header"], body, tolerance=3600),
    "old_at_its_time": verify_webhook_signature(w["secret"], w["old_header"], body, now=w["old_t"] + 10),
    "future": verify_webhook_signature(w["secret"], w["future_header"], body),
    "malformed": [verify_webhook_signature(w["secret"], h, body) for h in ["", "t=abc,v1=00", "v1=00", "t=1", "garbage", None]],
}

s = Client(api_key="rrk_stub", base_url=cfg["stub_url"])
job = s.create_job("export_org", payload={"note": "x"}, idempotency_key="job-key-1")
out["job_created"] = job
out["job_done"] = s.wait_for_job(job, timeout=30, interval=0.01)
try:
    s.wait_for_job(88, timeout=0.2, interval=0.01)
    out["job_timeout"] = None
except JobTimeout as e:
    out["job_timeout"] = {"is_timeout_error": isinstance(e, TimeoutError), "job_id": e.job_id, "last_status": e.job["status"]}
out["job_missing"] = failure(lambda: s.wait_for_job(404, timeout=5, interval=0.01))
out["job_cancel"] = failure(lambda: s.cancel_job(77))
out["stub_add_client"] = s.add_client(client={"name": "X", "website_url": "https://x.example.com"}, idempotency_key="rpc-key-1")
out["in_flight"] = failure(lambda: s.call("busy", idempotency_key="rpc-key-2"))
out["not_json"] = failure(lambda: s.call("anything_else"))
try:
    s.add_client(client={}, idempotency_key="k" * 201)
    out["long_key"] = None
except ValueError as e:
    out["long_key"] = str(e)
print(json.dumps(out))
`

t.test('the archive and its index are public, reproducible and cacheable', async (t) => {
  const ts = await startTestSystem(t)
  const index = await ts.app.inject({ method: 'GET', url: '/sdk/' })
  t.equal(index.statusCode, 200)
  const body = index.json() as {
    version: string
    api_version: string
    archives: { filename: string; url: string; sha256: string; bytes: number }[]
    latest: string
  }
  t.equal(body.version, SDK_VERSION)
  t.equal(body.api_version, API_VERSION)
  t.same(
    body.archives.map((a) => a.url),
    [`/sdk/${ARCHIVE_FILENAME}`],
  )
  t.equal(ARCHIVE_FILENAME, `rankrelay-${SDK_VERSION}.tar.gz`)
  t.equal((await ts.app.inject({ method: 'GET', url: '/sdk' })).statusCode, 200, '/sdk without the slash too')

  const archive = await ts.app.inject({ method: 'GET', url: `/sdk/${ARCHIVE_FILENAME}` })
  t.equal(archive.statusCode, 200, 'no key needed')
  t.equal(archive.headers['content-type'], 'application/gzip')
  t.match(String(archive.headers['content-disposition']), ARCHIVE_FILENAME)
  const sha = createHash('sha256').update(archive.rawPayload).digest('hex')
  t.equal(sha, body.archives[0]!.sha256, 'the index names the sha256 of what is served')
  t.equal(archive.rawPayload.length, body.archives[0]!.bytes)
  t.equal(archive.headers.etag, `"${sha}"`)
  const latest = await ts.app.inject({ method: 'GET', url: body.latest })
  t.equal(body.latest, `/sdk/${LATEST_FILENAME}`)
  t.same(latest.rawPayload, archive.rawPayload, 'the latest alias serves the same bytes')
  const cached = await ts.app.inject({ method: 'GET', url: `/sdk/${ARCHIVE_FILENAME}`, headers: { 'if-none-match': `"${sha}"` } })
  t.equal(cached.statusCode, 304, 'a matching ETag answers 304')
  t.same(buildSdkArchive(createRegistry()).bytes, archive.rawPayload, 'a fresh build of the same registry gives the same bytes')

  const missing = await ts.app.inject({ method: 'GET', url: '/sdk/rankrelay-0.9.0.tar.gz' })
  t.equal(missing.statusCode, 404)
  t.equal(missing.json().code, 'sdk_archive_not_found')
})

t.test('generation: type hints, reserved names and keyword parameters make valid Python', async (t) => {
  t.equal(pythonType({ type: 'integer' }), 'int')
  t.equal(pythonType({ type: ['boolean', 'null'] }), 'Optional[bool]')
  t.equal(pythonType({ anyOf: [{ type: 'integer' }, { type: 'null' }] }), 'Optional[int]')
  t.equal(pythonType({ type: 'string', enum: ['a', 'b'] }), 'Literal["a", "b"]')
  t.equal(pythonType({ type: 'array', items: { type: 'number' } }), 'List[float]')
  t.equal(pythonType({ type: 'object', additionalProperties: { type: 'string' } }), 'Dict[str, str]')
  t.equal(pythonType({ type: 'object', properties: { a: { type: 'string' } } }), 'Dict[str, Any]')
  t.equal(pythonType({}), 'Any')
  t.equal(pythonType({ anyOf: [{ type: 'string' }, {}] }), 'Any', 'a union with anything is anything')
  t.equal(pythonMethodName('call'), 'call_rpc', "an RPC named like the client's own method is suffixed")
  t.equal(pythonMethodName('get_client'), 'get_client')

  const odd = new RpcRegistry([
    rpc({
      name: 'call',
      domain: 'test',
      access: 'write',
      orgScoped: false,
      summary: 'Says """hello""" with a backslash \\ and a "quote".',
      example: { params: { from: 'me' } },
      params: z.strictObject({ from: z.string(), class: z.number().optional(), self: z.boolean().optional() }),
      result: z.string(),
      handler: async () => 'x',
    }),
  ] as AnyRpc[])
  const methods = generatePythonSdk(odd)
    .files.find((f) => f.path === 'rankrelay/_methods.py')!
    .data.toString('utf8')
  t.match(methods, 'def call_rpc(')
  t.match(methods, 'from_: str')
  t.match(methods, '"from": from_')
  t.match(methods, '"self": self_')
  const problem = pythonProblem()
  if (problem) return void t.fail(problem)
  const parsed = await run(PYTHON, ['-c', 'import ast, sys; ast.parse(sys.stdin.read()); print("ok")'], { input: methods })
  t.equal(parsed.stdout.trim(), 'ok', `the generated module parses (${parsed.stderr})`)

  // ustar's prefix field carries paths over 100 bytes; Python's tarfile reads them back.
  const long = `${'d'.repeat(60)}/${'e'.repeat(60)}/file.txt`
  const tar = tarGz(
    [
      { path: long, data: Buffer.from('hello') },
      { path: 'empty', data: Buffer.alloc(0) },
    ],
    0,
  )
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rankrelay-tar-'))
  t.teardown(() => fs.rm(dir, { recursive: true, force: true }))
  await fs.writeFile(path.join(dir, 'a.tar.gz'), tar)
  const listed = await run(PYTHON, [
    '-c',
    'import tarfile, sys; t = tarfile.open(sys.argv[1]); print([(m.name, m.size) for m in t.getmembers()]); print(t.extractfile(t.getmembers()[0]).read().decode())',
    path.join(dir, 'a.tar.gz'),
  ])
  t.equal(listed.stdout.trim(), `[('${long}', 5), ('empty', 0)]\nhello`, `tarfile reads it (${listed.stderr})`)
})

t.test('pip installs the archive offline and the client works against the running server', async (t) => {
  const problem = pythonProblem()
  if (problem) return void t.fail(problem)
  const ts = await startTestSystem(t)
  const baseUrl = await ts.app.listen({ host: '127.0.0.1', port: 0 })
  const stub = await startStub(t)
  const org = await orgWithKey(ts, 'Acme')
  const other = await orgWithKey(ts, 'Other')
  const readOnly = await keyFor(ts, org.orgId, 'read')

  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rankrelay-sdk-'))
  t.teardown(() => fs.rm(dir, { recursive: true, force: true }))
  // Downloaded over HTTP like a user would.
  const download = await fetch(`${baseUrl}/sdk/${ARCHIVE_FILENAME}`)
  t.equal(download.status, 200)
  const archivePath = path.join(dir, ARCHIVE_FILENAME)
  await fs.writeFile(archivePath, Buffer.from(await download.arrayBuffer()))

  const venv = path.join(dir, 'venv')
  const created = await run(PYTHON, ['-m', 'venv', venv])
  t.equal(created.code, 0, `python3 -m venv (${created.stderr})`)
  const python = path.join(venv, 'bin', 'python')
  const installed = await run(python, ['-m', 'pip', 'install', '--no-index', '--no-cache-dir', archivePath])
  t.equal(installed.code, 0, `pip install --no-index ${ARCHIVE_FILENAME}\n${installed.stdout}\n${installed.stderr}`)
  if (installed.code !== 0) return

  const now = Math.floor(Date.now() / 1000)
  const secret = 'whsec_test_secret'
  const payload = JSON.stringify({ id: 1, event: 'ping', created_at: new Date().toISOString(), org_id: org.orgId, client_id: 0, data: {} })
  const webhook = {
    secret,
    body: payload,
    header: sign(secret, now, payload),
    rotated_header: `${sign('whsec_old', now, payload)},v1=${sign(secret, now, payload).split('v1=')[1]}`,
    old_t: now - 1000,
    old_header: sign(secret, now - 1000, payload),
    future_header: sign(secret, now + 1000, payload),
  }
  const config = { base_url: baseUrl, org_key: org.key, read_key: readOnly.key, other_org_id: other.orgId, stub_url: stub.url, webhook }
  const script = path.join(dir, 'script.py')
  await fs.writeFile(script, SCRIPT)
  const ran = await run(python, [script], { input: JSON.stringify(config), cwd: dir })
  t.equal(ran.code, 0, `the script ran (${ran.stderr})`)
  if (ran.code !== 0) return
  const out = JSON.parse(ran.stdout)

  const registry = createRegistry()
  t.same(out.version.slice(0, 2), [SDK_VERSION, API_VERSION], 'SDK and API versions')
  t.equal(out.version[2], buildSdkArchive(registry).fingerprint, 'the registry fingerprint')
  t.same(
    out.methods,
    registry
      .all()
      .map((r) => r.definition.name)
      .sort(),
    'one method per RPC of the registry',
  )
  t.same(out.not_callable, [], 'each is a callable method of Client')
  t.same(
    out.get_client_params,
    {
      self: ['POSITIONAL_OR_KEYWORD', false, true],
      client_id: ['KEYWORD_ONLY', false, true],
      as_of: ['KEYWORD_ONLY', true, false],
      org_id: ['KEYWORD_ONLY', true, false],
    },
    'keyword arguments: required ones without default, optional ones UNSET',
  )
  t.equal(out.get_client_annotations.client_id, "<class 'int'>", 'typed')
  t.match(out.get_client_doc, registry.get('get_client')!.definition.summary, 'the docstring is the summary')
  t.ok(out.add_client_params.includes('idempotency_key'), 'write methods take an idempotency_key')

  t.ok(Number.isInteger(out.client_id) && out.client_id > 0, 'add_client returned an id')
  t.match(out.client, {
    id: out.client_id,
    org_id: org.orgId,
    name: 'Py Plumbing',
    services: ['Drains'],
    locations: ['Austin, TX', 'Waco, TX'],
  })
  t.equal(out.via_call, 'Py Plumbing', 'call(method, **params)')
  t.equal(out.via_call_dict, out.client_id, 'call(method, params)')
  t.same(out.services, ['Drains'])
  t.equal(out.count, 1)
  t.equal(out.api_version_header, API_VERSION, 'last_headers holds the response headers, names in lower case')
  t.same(
    out.idempotency,
    { same_id: true, first_replayed: null, again_replayed: 'true' },
    'the same Idempotency-Key replays the first answer',
  )
  t.match(out.idempotency_reused, { status: 409, code: 'idempotency_key_reused' }, 'and refuses another body')
  t.equal(out.count_after, 2, 'the replay created nothing')
  t.match(out.not_found, { status: 404, code: 'not_found', is_exception: true })
  t.type(out.not_found.hint, 'string', 'the hint comes through')
  t.type(out.not_found.request_id, 'string', 'and the request id')
  t.match(out.validation, { status: 400, code: 'validation_failed' })
  t.match(out.validation.detail, /client_id/)
  t.match(out.unknown_method, { status: 403, code: 'method_not_allowed' })
  t.match(out.read_only, { status: 403, code: 'insufficient_scope' })
  t.match(out.bad_key, { status: 401, code: 'unauthorized' })
  t.match(out.foreign_org, { status: 404, code: 'not_found' })
  t.same(
    out.table.rows.map((r: { id: number }) => r.id),
    [out.client_id],
    'read_table',
  )
  t.same(out.locations, ['Austin, TX', 'Waco, TX'], 'iter_table follows next_offset, None filters NULL')
  t.match(out.table_error, { status: 404, code: 'db_table_not_allowed' })
  t.match(out.bad_method_name, /not an RPC method name/, 'a method name cannot leave the RPC path')

  t.same(
    out.webhook,
    {
      valid: true,
      valid_str_body: true,
      rotated: true,
      tampered: false,
      wrong_secret: false,
      old: false,
      old_wide_tolerance: true,
      old_at_its_time: true,
      future: false,
      malformed: [false, false, false, false, false, false],
    },
    'webhook signatures computed in Node verify in Python, and only those',
  )

  t.same(out.job_created, { job_id: 77, status_url: '/api/v1/jobs/77' })
  t.match(
    out.job_done,
    { job_id: 77, status: 'done', result: { download_url: '/api/v1/exports/1/x.zip' } },
    'wait_for_job polls through queued, running and a 429 to done',
  )
  t.same(out.job_timeout, { is_timeout_error: true, job_id: 88, last_status: 'queued' })
  t.match(out.job_missing, { status: 404, code: 'not_found' })
  t.match(out.job_cancel, { status: 409, code: 'job_already_terminal' })
  t.equal(out.stub_add_client, 4242)
  t.match(out.in_flight, { status: 409, code: 'idempotency_in_flight', retry_after: 7 })
  t.match(out.not_json, { status: 502, code: 'http_502', error: 'bad gateway' })
  t.match(out.long_key, /at most 200/)

  const jobPost = stub.requests.find((r) => r.method === 'POST' && r.url === '/api/v1/jobs')!
  t.same(JSON.parse(jobPost.body), { kind: 'export_org', payload: { note: 'x' } }, 'the job body per the spec')
  t.equal(jobPost.headers['idempotency-key'], 'job-key-1', 'create_job sends Idempotency-Key')
  t.equal(jobPost.headers.authorization, 'Bearer rrk_stub')
  t.equal(jobPost.headers['content-type'], 'application/json')
  t.match(String(jobPost.headers['user-agent']), `rankrelay-python/${SDK_VERSION}`)
  const rpcPost = stub.requests.find((r) => r.url === '/api/v1/rpc/add_client')!
  t.equal(rpcPost.headers['idempotency-key'], 'rpc-key-1', 'generated write methods send Idempotency-Key')
  t.same(JSON.parse(rpcPost.body), { client: { name: 'X', website_url: 'https://x.example.com' } }, 'UNSET arguments are not sent')
  t.equal(stub.requests.filter((r) => r.url === '/api/v1/jobs/77' && r.method === 'GET').length, 4, 'polled four times')
  t.notOk(
    stub.requests.some((r) => r.headers['idempotency-key'] === 'k'.repeat(201)),
    'a key over 200 characters is never sent',
  )
})
