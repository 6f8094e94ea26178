import t from 'tap'
import { PLATFORM_STREAM, platformBootstrap } from '../../domain/platform/bootstrap.js'
import type { PlatformEvent } from '../../domain/platform/events.js'
import { fold } from '../../domain/shared/aggregate.js'
import { spec } from './given-when-then.js'

const given = spec(platformBootstrap)

const bootstrapped = (key_id: number): PlatformEvent => ({ type: 'PlatformBootstrapped', data: { key_id } })

t.test('the whole installation bootstraps on one stream', async (t) => {
  t.equal(PLATFORM_STREAM, 'platform-bootstrap')
})

t.test('the first Bootstrap records the platform key', async (t) => {
  given()
    .when({ type: 'Bootstrap', key_id: 1 })
    .then(t, [bootstrapped(1)])
})

t.test('bootstrap happens once: a second one is already_exists, whichever key it brings', async (t) => {
  given(bootstrapped(1))
    .when({ type: 'Bootstrap', key_id: 1 })
    .thenThrows(t, 'already_exists', { message: 'The platform is already bootstrapped' })
  given(bootstrapped(1)).when({ type: 'Bootstrap', key_id: 2 }).thenThrows(t, 'already_exists')
})

t.test('the folded state says whether the platform is bootstrapped', async (t) => {
  t.strictSame(platformBootstrap.initialState(), { bootstrapped: false })
  t.strictSame(fold(platformBootstrap, [bootstrapped(1)]), { bootstrapped: true })
})
