/**
 * Headless Chromium for the tests that click the real pages: Debian's `chromium` (/usr/bin/chromium, or
 * CHROMIUM_PATH) driven by playwright-core, never a downloaded browser. The flags keep it off the network
 * (this machine allows loopback only) and out of any profile.
 *
 * Without the browser the test cannot run. On CI (CI set) that is a failure: .ci/run installs the package, so a
 * missing browser there is a broken pipeline, not a reason to pass. Elsewhere (`npm test` on a machine with
 * only Node.js) the test is skipped with a reason tap prints in its summary.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Test } from 'tap'
import { chromium, type Browser } from 'playwright-core'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Where tests keep what a person should be able to look at afterwards (screenshots). Ignored by git. */
export const ARTIFACTS_DIR = path.resolve('test-artifacts')

/** Launches the browser for this test (closed at teardown), or skips/fails as above and returns null. */
export async function launchChromium(t: Test): Promise<Browser | null> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    const reason = `no Chromium at ${CHROMIUM_PATH} (Debian package chromium; .ci/run installs it)`
    if (process.env.CI) t.fail(reason)
    else t.skip(reason, () => {})
    return null
  }
  // playwright gives the browser a fresh temporary profile of its own (and removes it).
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  t.teardown(() => browser.close())
  return browser
}

/** A screenshot kept under test-artifacts/ (the file name says which test and step). */
export function artifactPath(name: string): string {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true })
  return path.join(ARTIFACTS_DIR, name)
}
