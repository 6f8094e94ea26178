/**
 * The Python SDK's version, semver and independent of the API's (spec "Versioning" 6: a major SDK bump never
 * needs an API version change). Bump the minor when the registry gains methods or optional parameters (the
 * generated client gains them), the major when a generated signature changes incompatibly, the patch for
 * fixes of the static code under sdk/python/. The API version the SDK was generated against ships with it
 * (rankrelay.API_VERSION, and in its User-Agent), and so does a fingerprint of the registry it was built from.
 */
export const SDK_VERSION = '1.0.0'

/** The distribution (and import) name. */
export const SDK_NAME = 'rankrelay'
