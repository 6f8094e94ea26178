import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { parentPort, workerData } from 'node:worker_threads'

/** What the webhook scenario hands its receivers' thread: one loopback host per receiver. */
export interface WebhookReceiversInput {
  readonly hosts: readonly string[]
}

/**
 * The webhook scenario's local receivers, in a worker thread (support/thread.ts) so that answering the
 * dispatcher's POSTs does not take turns with the service's event loop, as another machine's receiver would
 * not. Posts the receivers' URLs once listening; answers every later message with the number of requests
 * received so far, and closes on 'close'.
 */
const servers: http.Server[] = []
let received = 0
const port = parentPort!
const urls = await Promise.all(
  (workerData as WebhookReceiversInput).hosts.map(async (host) => {
    const server = http.createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        received++
        res.writeHead(204)
        res.end()
      })
    })
    server.keepAliveTimeout = 30_000
    await new Promise<void>((resolve) => server.listen(0, host, resolve))
    servers.push(server)
    return `http://${host}:${(server.address() as AddressInfo).port}/hook`
  }),
)
port.on('message', (message: unknown) => {
  if (message === 'close') {
    for (const server of servers) server.closeAllConnections()
    Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))).then(() =>
      port.postMessage(received),
    )
  } else port.postMessage(received)
})
port.postMessage(urls)
