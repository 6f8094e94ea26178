import { Worker } from 'node:worker_threads'

/**
 * Starts a TypeScript module in a worker thread (its own event loop and V8 isolate), for the bench's load
 * generators: a real agent or webhook receiver is another process, so its JavaScript must not take turns
 * with the service's event loop, as it did when both ran in the bench's main thread.
 *
 * Node 20 does not apply `--import tsx` from `execArgv` to a worker's entry module (it fails with
 * ERR_UNKNOWN_FILE_EXTENSION), so the entry is a tiny script that registers tsx and then imports the module.
 */
export function startThread(module: URL, workerData: unknown): Worker {
  const entry = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(module.href)}) })`
  return new Worker(entry, { eval: true, workerData })
}

/** The next message from a worker (rejects when it fails or exits first). */
export function nextMessage<T>(worker: Worker): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const cleanup = () => {
      worker.off('message', onMessage)
      worker.off('error', onError)
      worker.off('exit', onExit)
    }
    const onMessage = (message: T) => {
      cleanup()
      resolve(message)
    }
    const onError = (error: Error) => {
      cleanup()
      reject(error)
    }
    const onExit = (code: number) => {
      cleanup()
      reject(new Error(`worker thread exited (${code}) before answering`))
    }
    worker.on('message', onMessage)
    worker.on('error', onError)
    worker.on('exit', onExit)
  })
}
