import { parentPort, workerData } from 'node:worker_threads'
import { startTreeSite } from './tree-site.js'

/**
 * The `crawl` bench's site in a worker thread (support/thread.ts): generating and serving its pages must not
 * take turns with the crawler's event loop, as a client's real web server would not. Posts the site's URL once
 * listening; on 'close', closes and posts the number of requests it answered.
 */
const port = parentPort!
const site = await startTreeSite((workerData as { pages: number }).pages)
port.on('message', (message: unknown) => {
  if (message === 'close') site.close().then(() => port.postMessage(site.requests()))
})
port.postMessage(site.url)
