import { randomUUID } from 'node:crypto'
import http from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyBaseLogger, FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError, envelope } from '../errors.js'

/** What Node's HTTP parser reports on a 'clientError' (llhttp's code and reason). */
interface ParserError extends Error {
  readonly code?: string
  readonly reason?: string
}

/** The registry's code for a request Node's parser refused: too large (431), too slow (408), or malformed (400). */
export function clientErrorOf(error: ParserError): ApiError {
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return new ApiError('headers_too_large', `the request line and headers together may be at most ${http.maxHeaderSize} bytes`)
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return new ApiError('request_timeout')
  return new ApiError('http_malformed', `${error.code ?? 'parse error'}: ${error.reason ?? error.message}`)
}

/**
 * fastify's clientErrorHandler: Node's parser refused the request (bad chunking, Content-Length with
 * Transfer-Encoding, a malformed header, an unknown method, headers over the limit), so there is no request
 * object nor reply, only the socket. It answers the same envelope as every other refusal, with a request id
 * of its own (the request's X-Request-Id header could not be read), then closes the connection as Node does:
 * the parser's state is lost.
 */
export function answerClientError(log: FastifyBaseLogger, error: ParserError, socket: Socket): void {
  // A connection reset or an already closed socket: nobody is listening for an answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const apiError = clientErrorOf(error)
  const requestId = randomUUID()
  log.debug({ request_id: requestId, code: error.code }, 'refused a malformed HTTP request')
  if (socket.writable) {
    const body = JSON.stringify(envelope(apiError, requestId))
    socket.write(
      `HTTP/1.1 ${apiError.status} ${http.STATUS_CODES[apiError.status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    )
  }
  socket.destroy(error)
}

/**
 * fastify's frameworkErrors: the router refused the URL before any route or hook ran (a malformed
 * percent-encoding, a path segment over maxParamLength). Answered with the envelope and the request's id.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const detail = error.message.length > 300 ? `${error.message.slice(0, 300)}…` : error.message
  const apiError =
    error.code === 'FST_ERR_BAD_URL'
      ? new ApiError('url_invalid', detail)
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new ApiError('url_too_long', detail)
        : new ApiError('http_malformed', detail)
  // Set here as well as by the onSend step: this reply is made outside any route's context.
  reply.header('X-Request-Id', request.id)
  reply.code(apiError.status).send(envelope(apiError, request.id))
}
