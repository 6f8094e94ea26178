import { DOMParser } from '@xmldom/xmldom'

/**
 * The little XML handling SAML needs around saml2-js: a parser that refuses what SAML never carries (a
 * DOCTYPE, and with it entity tricks), namespace-exact child lookups, and escaping for the metadata we write.
 * (@xmldom/xmldom types its nodes with the DOM library's global Document and Element.)
 */
export const NS = {
  SAML: 'urn:oasis:names:tc:SAML:2.0:assertion',
  SAMLP: 'urn:oasis:names:tc:SAML:2.0:protocol',
  MD: 'urn:oasis:names:tc:SAML:2.0:metadata',
  DS: 'http://www.w3.org/2000/09/xmldsig#',
} as const

/** Parses XML; null when it is not well-formed or carries a DOCTYPE. Never throws. */
export function parseXml(text: string): Document | null {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return null
  let failed = false
  const onError = () => {
    failed = true
  }
  try {
    const doc = new DOMParser({ errorHandler: { warning: () => {}, error: onError, fatalError: onError } }).parseFromString(
      text,
      'text/xml',
    )
    return failed || !doc.documentElement ? null : doc
  } catch {
    return null
  }
}

/** The element children of `parent` with this namespace and local name (direct children only). */
export function children(parent: Element, ns: string, localName: string): Element[] {
  const found: Element[] = []
  for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === 1 && (node as Element).namespaceURI === ns && (node as Element).localName === localName)
      found.push(node as Element)
  }
  return found
}

export const child = (parent: Element, ns: string, localName: string): Element | null => children(parent, ns, localName)[0] ?? null

/** Every element with this namespace and local name anywhere under `root`. */
export const descendants = (root: Document | Element, ns: string, localName: string): Element[] =>
  Array.from(root.getElementsByTagNameNS(ns, localName))

export const textOf = (element: Element | null): string | null => (element === null ? null : (element.textContent ?? '').trim())

/** An attribute's value, null when absent. */
export const attribute = (element: Element, name: string): string | null => (element.hasAttribute(name) ? element.getAttribute(name) : null)

export const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
