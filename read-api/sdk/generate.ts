import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { RegisteredRpc, RpcRegistry } from '../registry.js'
import { API_VERSION } from '../version.js'
import { jsonSchemaOf, pyIdentifier, pyString, pythonType } from './python-types.js'
import { SDK_NAME, SDK_VERSION } from './version.js'

/** A file of the SDK's source tree, relative to its root. */
export interface SdkFile {
  readonly path: string
  readonly data: Buffer
}

/** The hand-written part of the SDK (real Python files, so they can be read and linted as Python). */
const STATIC_FILES = [
  'backend.py',
  `${SDK_NAME}/__init__.py`,
  `${SDK_NAME}/_base.py`,
  `${SDK_NAME}/errors.py`,
  `${SDK_NAME}/webhooks.py`,
  `${SDK_NAME}/py.typed`,
] as const

const STATIC_ROOT = new URL('../../sdk/python/', import.meta.url)

/** The project's LICENSE (Apache-2.0), shipped inside the SDK as the licence requires of a redistribution. */
const LICENSE_FILE = new URL('../../LICENSE', import.meta.url)
/** The SPDX identifier of that licence, as package.json and the OpenAPI document's info.license give it. */
const LICENSE_SPDX = 'Apache-2.0'

/**
 * Attributes of BaseClient (sdk/python/rankrelay/_base.py): an RPC of one of these names gets the suffix
 * `_rpc` instead of shadowing the client's own method (it stays callable as call("<name>")).
 */
export const RESERVED_METHOD_NAMES: ReadonlySet<string> = new Set([
  'call',
  'create_job',
  'get_job',
  'cancel_job',
  'wait_for_job',
  'read_table',
  'iter_table',
  'api_key',
  'base_url',
  'timeout',
  'user_agent',
  'last_headers',
])

/** Parameter names the generated signature itself uses. */
const RESERVED_PARAM_NAMES: ReadonlySet<string> = new Set(['self', 'idempotency_key'])

/** The Python method name of an RPC. */
export function pythonMethodName(rpcName: string): string {
  const id = pyIdentifier(rpcName)
  return RESERVED_METHOD_NAMES.has(id) || id.startsWith('_') ? `${id}_rpc` : id
}

interface Param {
  readonly name: string
  readonly python: string
  readonly type: string
  readonly required: boolean
  readonly doc: string
}

function docText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"')
}

/** One line about a parameter: its description, and an object's fields with their types. */
function paramDoc(name: string, schema: any, orgScoped: boolean): string {
  if (name === 'org_id' && orgScoped) return 'the organization: injected for organization keys; platform keys pass it.'
  const parts: string[] = []
  if (typeof schema === 'object' && typeof schema.description === 'string') parts.push(schema.description)
  if (typeof schema === 'object' && schema.type === 'object' && schema.properties) {
    const required = new Set<string>(schema.required ?? [])
    const fields = Object.entries(schema.properties as Record<string, unknown>).map(
      ([field, s]) => `${field} (${pythonType(s as any)}${required.has(field) ? ', required' : ''})`,
    )
    parts.push(`fields: ${fields.join(', ')}`)
  }
  if (typeof schema === 'object' && 'default' in schema) parts.push(`default ${JSON.stringify(schema.default)}`)
  return parts.join('; ')
}

function paramsOf(rpc: RegisteredRpc): Param[] {
  const schema = jsonSchemaOf(rpc.input, 'input') as any
  const properties: Record<string, unknown> = typeof schema === 'object' && schema.properties ? schema.properties : {}
  const required = new Set<string>(typeof schema === 'object' ? (schema.required ?? []) : [])
  const used = new Set(RESERVED_PARAM_NAMES)
  return Object.entries(properties).map(([name, s]) => {
    const python = pyIdentifier(name, used)
    used.add(python)
    return { name, python, type: pythonType(s as any), required: required.has(name), doc: paramDoc(name, s, rpc.definition.orgScoped) }
  })
}

function methodSource(rpc: RegisteredRpc): string {
  const d = rpc.definition
  const params = paramsOf(rpc)
  const write = d.access === 'write'
  const signature = ['self']
  if (params.length > 0 || write) signature.push('*')
  for (const p of params) signature.push(p.required ? `${p.python}: ${p.type}` : `${p.python}: Union[${p.type}, Unset] = UNSET`)
  if (write) signature.push('idempotency_key: Optional[str] = None')
  const returns = pythonType(jsonSchemaOf(d.result, 'output'))
  const doc = [
    docText(d.summary),
    '',
    `RPC ${d.name} (${d.domain}); needs the ${d.access} scope${d.platformOnly ? ' and a platform key' : ''}.`,
  ]
  if (params.length > 0 || write) {
    doc.push('', 'Args:')
    for (const p of params) doc.push(`    ${p.python}: ${p.required ? 'required' : 'optional'}${p.doc ? `; ${docText(p.doc)}` : ''}`)
    if (write) doc.push('    idempotency_key: sent as Idempotency-Key; a retry with the same key replays the first answer.')
  }
  doc.push('', 'Raises:', '    ApiError: on any error answer (error.code tells which).')
  const body = `{${params.map((p) => `${pyString(p.name)}: ${p.python}`).join(', ')}}`
  return [
    `    def ${pythonMethodName(d.name)}(`,
    ...signature.map((s) => `        ${s},`),
    `    ) -> ${returns}:`,
    `        """${doc.join('\n        ').replace(/\n {8}\n/g, '\n\n')}\n        """`,
    `        return self._rpc(${pyString(d.name)}, ${body}, ${write ? 'idempotency_key' : 'None'})`,
  ].join('\n')
}

/** A short fingerprint of everything the generated client depends on: names, access and schemas. */
export function registryFingerprint(registry: RpcRegistry): string {
  const described = registry
    .all()
    .map((r) => ({
      name: r.definition.name,
      access: r.definition.access,
      summary: r.definition.summary,
      input: jsonSchemaOf(r.input, 'input'),
      result: jsonSchemaOf(r.definition.result, 'output'),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return createHash('sha256').update(JSON.stringify(described)).digest('hex').slice(0, 16)
}

function methodsModule(registry: RpcRegistry): string {
  const rpcs = [...registry.all()].sort((a, b) => (a.definition.name < b.definition.name ? -1 : 1))
  const table = rpcs
    .map(
      (r) =>
        `    ${pyString(r.definition.name)}: {"python_name": ${pyString(pythonMethodName(r.definition.name))}, "access": ${pyString(r.definition.access)}, "domain": ${pyString(r.definition.domain)}, "summary": ${pyString(r.definition.summary)}},`,
    )
    .join('\n')
  return `"""Generated from the RankRelay RPC registry: one method per RPC. Do not edit; GET /sdk/ serves a fresh copy."""

from typing import Any, Dict, List, Literal, Optional, Union

from ._base import UNSET, BaseClient, Unset

#: Every RPC of the registry the SDK was generated from: python_name, access (read or write), domain, summary.
METHODS: Dict[str, Dict[str, str]] = {
${table}
}


class Client(BaseClient):
    """A RankRelay API client: one method per RPC (keyword arguments), plus call(), jobs and table reads.

    Arguments left UNSET are not sent. Every error answer raises ApiError with status, code, detail and hint.
    """

${rpcs.map(methodSource).join('\n\n')}
`
}

function versionModule(fingerprint: string): string {
  return `"""Generated: the SDK version, the API version it was generated against, and the registry fingerprint."""

__version__ = ${pyString(SDK_VERSION)}
API_VERSION = ${pyString(API_VERSION)}
REGISTRY_FINGERPRINT = ${pyString(fingerprint)}
`
}

function readme(registry: RpcRegistry): string {
  const byDomain = new Map<string, RegisteredRpc[]>()
  for (const r of registry.all()) byDomain.set(r.definition.domain, [...(byDomain.get(r.definition.domain) ?? []), r])
  const sections = [...byDomain.entries()]
    .map(
      ([domain, rpcs]) =>
        `### ${domain}\n\n${rpcs.map((r) => `- \`${pythonMethodName(r.definition.name)}\` (${r.definition.access}): ${r.definition.summary}`).join('\n')}`,
    )
    .join('\n\n')
  return `# RankRelay Python SDK ${SDK_VERSION} (API ${API_VERSION})

A typed thin client for the RankRelay API, generated from the service's RPC registry. Standard library only.

    pip install rankrelay-${SDK_VERSION}.tar.gz

## Use

    from rankrelay import Client, ApiError, verify_webhook_signature

    client = Client(api_key="rrk_...", base_url="https://rankrelay.example.com")  # or RANKRELAY_API_KEY / RANKRELAY_BASE_URL
    client_id = client.add_client(client={"name": "Acme", "website_url": "https://acme.example"}, idempotency_key="add-acme-1")
    print(client.get_client(client_id=client_id)["name"])
    client.call("get_client", client_id=client_id)          # any RPC by name

    try:
        client.get_client(client_id=999999)
    except ApiError as error:
        print(error.status, error.code, error.detail, error.hint)   # 404 not_found ...

## Jobs

    job = client.create_job("export_org", idempotency_key="export-2026-11")
    record = client.wait_for_job(job["job_id"], timeout=600, interval=2)   # raises JobTimeout (a TimeoutError)
    print(record["status"], record.get("result"))

## Webhooks

    ok = verify_webhook_signature(secret, request.headers["X-Service-Signature"], raw_body_bytes, tolerance=300)

## Table reads

    page = client.read_table("clients", {"status": "active"}, limit=100)   # {table, rows, limit, offset, next_offset?}
    for row in client.iter_table("client_locations", {"removed_at": None}):
        ...

## Methods

${sections}
`
}

function pkgInfo(readmeText: string): string {
  return [
    'Metadata-Version: 2.1',
    `Name: ${SDK_NAME}`,
    `Version: ${SDK_VERSION}`,
    `Summary: RankRelay API client (API ${API_VERSION}), generated from the RPC registry`,
    'Requires-Python: >=3.8',
    // Metadata 2.1 has no License-Expression: the SPDX identifier goes in License, and the classifier says it too.
    `License: ${LICENSE_SPDX}`,
    `Keywords: rankrelay,api-${API_VERSION}`,
    'Classifier: License :: OSI Approved :: Apache Software License',
    'Classifier: Programming Language :: Python :: 3',
    'Classifier: Typing :: Typed',
    'Description-Content-Type: text/markdown',
    '',
    readmeText,
  ].join('\n')
}

function pyproject(): string {
  return `# Installs offline: the build backend is backend.py beside this file (standard library only).
[build-system]
requires = []
build-backend = "backend"
backend-path = ["."]

[project]
name = "${SDK_NAME}"
version = "${SDK_VERSION}"
description = "RankRelay API client (API ${API_VERSION}), generated from the RPC registry"
readme = "README.md"
requires-python = ">=3.8"
license = { text = "${LICENSE_SPDX}" }
dependencies = []
`
}

/** The SDK's source tree for a registry: the static Python files plus the generated ones. */
export function generatePythonSdk(registry: RpcRegistry): { files: SdkFile[]; fingerprint: string } {
  const fingerprint = registryFingerprint(registry)
  const readmeText = readme(registry)
  const text = (path: string, content: string): SdkFile => ({ path, data: Buffer.from(content, 'utf8') })
  const files: SdkFile[] = [
    text('PKG-INFO', pkgInfo(readmeText)),
    text('pyproject.toml', pyproject()),
    text('README.md', readmeText),
    { path: 'LICENSE', data: readFileSync(LICENSE_FILE) },
    ...STATIC_FILES.map((path) => ({ path, data: readFileSync(new URL(path, STATIC_ROOT)) })),
    text(`${SDK_NAME}/_version.py`, versionModule(fingerprint)),
    text(`${SDK_NAME}/_methods.py`, methodsModule(registry)),
  ]
  return { files, fingerprint }
}
