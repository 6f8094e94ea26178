import { parentPort, workerData } from 'node:worker_threads'
import { startWordPressSite } from './wordpress-site.js'

/**
 * The `publishing` bench's WordPress site in a worker thread (support/thread.ts): a client's site is another
 * machine, so answering the publisher must not take turns with the service's event loop. Posts the site's URL
 * once listening; answers 'tally' with what it has seen (SiteTally), and 'close' with the same after closing.
 */
const port = parentPort!
const site = await startWordPressSite((workerData as { pages: number }).pages)
port.on('message', (message: unknown) => {
  if (message === 'close') site.close().then((tally) => port.postMessage(tally))
  else port.postMessage(site.tally())
})
port.postMessage(site.url)
