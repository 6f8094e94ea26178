import type { PageImage } from './values.js'

/** How a template page's image slots stand: filled (an image chosen or further), missing (none yet), filled without alt text. */
export interface ImageCounts {
  readonly slots: number
  readonly filled: number
  readonly missing: number
  readonly without_alt: number
  readonly missing_slots: string[]
  readonly without_alt_slots: string[]
}

/** A slot is filled once it has a URL; alt text is missing when a filled slot's alt is blank (a missing image needs alt text later anyway). */
export function imageCounts(images: readonly PageImage[]): ImageCounts {
  const missing = images.filter((i) => i.url === null).map((i) => i.slot)
  const withoutAlt = images.filter((i) => i.url !== null && i.alt.trim() === '').map((i) => i.slot)
  return {
    slots: images.length,
    filled: images.length - missing.length,
    missing: missing.length,
    without_alt: withoutAlt.length,
    missing_slots: missing,
    without_alt_slots: withoutAlt,
  }
}
