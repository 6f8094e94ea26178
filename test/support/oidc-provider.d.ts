/**
 * oidc-provider ships no type declarations (and @types/oidc-provider lags the major version): only what the
 * SSO tests use, loosely typed.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, any>)
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>
    Grant: any
  }
}
